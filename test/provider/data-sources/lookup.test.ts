import { reportMissingLookup, validateLookup, type LookupChoice } from '../../../src/provider/data-sources/lookup';
import { UNKNOWN } from '../../../src/provider/protocol/unknown';
import { Collector } from '../resources/harness';

describe('validateLookup', () => {
  const choice: LookupChoice = { first: 'id', second: 'name', what: 'the organization' };
  const validate = (config: Record<string, unknown>): Collector => {
    const diags = new Collector();
    validateLookup({ id: null, name: null, ...config } as never, choice, diags);
    return diags;
  };

  it('accepts exactly one of the two attributes', () => {
    expect(validate({ id: 'a' }).items).toEqual([]);
    expect(validate({ name: 'b' }).items).toEqual([]);
  });

  it('reports both set on the second attribute', () => {
    expect(validate({ id: 'a', name: 'b' }).items).toEqual([
      { severity: 'error', summary: 'Conflicting lookup', detail: 'Set either `id` or `name` to choose the organization, not both.', path: ['name'] },
    ]);
  });

  it('reports neither set on the first attribute, as reportMissingLookup does', () => {
    const expected = [{ severity: 'error', summary: 'Missing lookup', detail: 'Set `id` or `name` to choose the organization.', path: ['id'] }];
    expect(validate({}).items).toEqual(expected);
    const direct = new Collector();
    reportMissingLookup(choice, direct);
    expect(direct.items).toEqual(expected);
  });

  it('reports an empty value on its attribute', () => {
    expect(validate({ name: '' }).items).toEqual([
      { severity: 'error', summary: 'Invalid name', detail: '`name` must not be empty.', path: ['name'] },
    ]);
  });

  it('waits while either attribute is unknown', () => {
    expect(validate({ id: UNKNOWN, name: 'b' }).items).toEqual([]);
    expect(validate({ id: UNKNOWN }).items).toEqual([]);
  });
});
