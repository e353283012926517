import { reportMissingLookup, validateLookup, type LookupChoice } from '../../../src/provider/data-sources/lookup';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { RecordingDiagnostics } from '../../../src/tfplugin/testing/harness';

describe('validateLookup', () => {
  const choice: LookupChoice = { first: 'id', second: 'name', what: 'the organization' };
  const validate = (config: Record<string, unknown>): RecordingDiagnostics => {
    const diags = new RecordingDiagnostics();
    validateLookup({ id: null, name: null, ...config } as never, choice, diags);
    return diags;
  };

  it('accepts exactly one of the two attributes', () => {
    expect(validate({ id: 'a' }).diagnostics).toEqual([]);
    expect(validate({ name: 'b' }).diagnostics).toEqual([]);
  });

  it('reports both set on the second attribute', () => {
    expect(validate({ id: 'a', name: 'b' }).diagnostics).toEqual([
      { severity: 'error', summary: 'Conflicting lookup', detail: 'Set either `id` or `name` to choose the organization, not both.', path: ['name'] },
    ]);
  });

  it('reports neither set on the first attribute, as reportMissingLookup does', () => {
    const expected = [{ severity: 'error', summary: 'Missing lookup', detail: 'Set `id` or `name` to choose the organization.', path: ['id'] }];
    expect(validate({}).diagnostics).toEqual(expected);
    const direct = new RecordingDiagnostics();
    reportMissingLookup(choice, direct);
    expect(direct.diagnostics).toEqual(expected);
  });

  it('reports an empty value on its attribute', () => {
    expect(validate({ name: '' }).diagnostics).toEqual([
      { severity: 'error', summary: 'Invalid name', detail: '`name` must not be empty.', path: ['name'] },
    ]);
  });

  it('waits while either attribute is unknown', () => {
    expect(validate({ id: UNKNOWN, name: 'b' }).diagnostics).toEqual([]);
    expect(validate({ id: UNKNOWN }).diagnostics).toEqual([]);
  });
});
