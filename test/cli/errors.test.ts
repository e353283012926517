import { CliError, reportError, UsageError } from '../../src/cli/errors';
import { captureIO } from './capture-io';

describe('reportError', () => {
  it('prints a usage error as one sentence and returns 2', () => {
    const { io, out, err } = captureIO('/');
    expect(reportError(new UsageError('flag --x needs a value'), io)).toBe(2);
    expect(err()).toBe('orgadmin: flag --x needs a value.\n');
    expect(out()).toBe('');
  });

  it('prints a command error and an AdminError-named error without a stack and returns 1', () => {
    const { io, err } = captureIO('/');
    const adminError = new Error('Realm "nope" does not exist.');
    adminError.name = 'AdminError';
    expect(reportError(new CliError('port 80 is in use.'), io)).toBe(1);
    expect(reportError(adminError, io)).toBe(1);
    expect(err()).toBe('orgadmin: port 80 is in use.\norgadmin: Realm "nope" does not exist.\n');
  });

  it('reports an unexpected error by its message, with the stack only when ORGADMIN_DEBUG is set', () => {
    const quiet = captureIO('/');
    expect(reportError(new TypeError('x is not a function'), quiet.io)).toBe(1);
    expect(quiet.err()).toBe('orgadmin: unexpected error: x is not a function.\n');

    const debug = captureIO('/', { ORGADMIN_DEBUG: '1' });
    reportError(new TypeError('x is not a function'), debug.io);
    expect(debug.err()).toContain('at ');
  });
});
