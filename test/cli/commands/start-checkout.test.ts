/**
 * `orgadmin start` outside a clone of the repository (an installed package ships no `examples/`
 * and no dev dependencies): refused before anything starts, with what to do instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkRepositoryCheckout } from '../../../src/cli/commands/start';
import { EXIT, reportError } from '../../../src/cli/errors';
import { captureIO } from '../capture-io';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orgadmin-installed-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('checkRepositoryCheckout', () => {
  it('accepts the repository itself', () => {
    expect(() => checkRepositoryCheckout(resolve(__dirname, '..', '..', '..'))).not.toThrow();
  });

  it('refuses a package root without examples/ with one sentence naming what is missing and what to run instead (exit 1)', () => {
    let thrown: unknown;
    try {
      checkRepositoryCheckout(dir);
    } catch (error) {
      thrown = error;
    }
    const captured = captureIO(dir, {});
    expect(reportError(thrown, captured.io)).toBe(EXIT.error);
    const message = captured.err();
    expect(message).toMatch(/^orgadmin: "orgadmin start" applies the repository's examples\/basic and runs only in a clone/);
    expect(message).toContain(join('examples', 'basic', 'main.ts'));
    expect(message).toContain(join('examples', 'register.js'));
    expect(message).toContain('"orgadmin demo"');
    expect(message).toContain('"orgadmin provider install"');
    expect(message.trim().split('\n')).toHaveLength(1);
  });
});
