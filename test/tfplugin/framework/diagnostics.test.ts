import { DiagnosticsCollector, toPathSteps } from '../../../src/tfplugin/framework/diagnostics';
import type { Schema } from '../../../src/tfplugin/framework/types';

const schema: Schema = {
  description: '',
  attributes: {
    labels: { type: ['map', ['list', 'string']], description: '', optional: true },
    members: { type: ['list', ['object', { email: 'string' }]], description: '', optional: true },
    tags: { type: ['set', 'string'], description: '', optional: true },
  },
};

describe('toPathSteps', () => {
  it('resolves map keys, list indexes and object attributes from the schema types', () => {
    expect(toPathSteps(['labels', 'team', 0], schema)).toEqual([{ attribute: 'labels' }, { key: 'team' }, { index: 0 }]);
    expect(toPathSteps(['members', 2, 'email'], schema)).toEqual([{ attribute: 'members' }, { index: 2 }, { attribute: 'email' }]);
  });

  it('stops at a set, whose elements have no address in the protocol', () => {
    expect(toPathSteps(['tags', 'x'], schema)).toEqual([{ attribute: 'tags' }]);
  });

  it('falls back to the JavaScript type of each step without a schema', () => {
    expect(toPathSteps(['a', 1, 'b'], undefined)).toEqual([{ attribute: 'a' }, { index: 1 }, { attribute: 'b' }]);
  });
});

describe('DiagnosticsCollector', () => {
  it('collects errors and warnings with paths and knows whether an error was added', () => {
    const diags = new DiagnosticsCollector(schema);
    diags.warning('careful');
    expect(diags.hasErrors()).toBe(false);
    diags.error('bad key', 'detail', ['labels', 'x']);
    expect(diags.hasErrors()).toBe(true);
    expect(diags.all()).toEqual([
      { severity: 'warning', summary: 'careful', detail: undefined, path: undefined },
      { severity: 'error', summary: 'bad key', detail: 'detail', path: [{ attribute: 'labels' }, { key: 'x' }] },
    ]);
  });
});
