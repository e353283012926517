import { planChange, valuesEqual } from '../../../src/tfplugin/framework/plan';
import type { Schema } from '../../../src/tfplugin/framework/types';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';

const schema: Schema = {
  description: 'x',
  attributes: {
    id: { type: 'string', description: '', computed: true, useStateForUnknown: true },
    name: { type: 'string', description: '', required: true, requiresReplace: true },
    mode: { type: 'string', description: '', optional: true, computed: true },
    tags: { type: ['set', 'string'], description: '', optional: true },
    etag: { type: 'string', description: '', computed: true },
  },
};

describe('valuesEqual', () => {
  it('compares sets regardless of order and lists in order', () => {
    expect(valuesEqual(['a', 'b'], ['b', 'a'], ['set', 'string'])).toBe(true);
    expect(valuesEqual(['a', 'b'], ['b', 'a'], ['list', 'string'])).toBe(false);
    expect(valuesEqual(['a', 'a'], ['a', 'b'], ['set', 'string'])).toBe(false);
  });

  it('never treats unknown as equal, and null only to null', () => {
    expect(valuesEqual(UNKNOWN, UNKNOWN, 'string')).toBe(false);
    expect(valuesEqual(null, null, 'string')).toBe(true);
    expect(valuesEqual(null, '', 'string')).toBe(false);
  });

  it('compares maps and objects by key', () => {
    expect(valuesEqual({ a: ['x'] }, { a: ['x'] }, ['map', ['list', 'string']])).toBe(true);
    expect(valuesEqual({ a: ['x'] }, { a: ['x'], b: [] }, ['map', ['list', 'string']])).toBe(false);
    expect(valuesEqual({ p: 1 }, { p: 2 }, ['object', { p: 'number' }])).toBe(false);
  });
});

describe('planChange', () => {
  const prior = { id: 'i', name: 'n', mode: 'auto', tags: ['a'], etag: 'e1' };

  it('plans null when the proposed state is null (destroy)', () => {
    expect(planChange(schema, prior, null, null)).toEqual({ plannedState: null, requiresReplace: [] });
  });

  it('plans every computed attribute left unset by the configuration as unknown on create', () => {
    const config = { id: null, name: 'n', mode: null, tags: null, etag: null };
    expect(planChange(schema, null, config, config).plannedState).toEqual({ id: UNKNOWN, name: 'n', mode: UNKNOWN, tags: null, etag: UNKNOWN });
  });

  it('keeps an optional+computed attribute the configuration sets on create', () => {
    const config = { id: null, name: 'n', mode: 'manual', tags: null, etag: null };
    expect(planChange(schema, null, config, config).plannedState?.mode).toBe('manual');
  });

  it('keeps the prior state when nothing the user controls changed', () => {
    const config = { id: null, name: 'n', mode: null, tags: ['a'], etag: null };
    expect(planChange(schema, prior, { ...prior }, config)).toEqual({ plannedState: prior, requiresReplace: [] });
  });

  it('treats a reordered set as unchanged', () => {
    const before = { ...prior, tags: ['a', 'b'] };
    const config = { id: null, name: 'n', mode: null, tags: ['b', 'a'], etag: null };
    expect(planChange(schema, before, { ...before, tags: ['b', 'a'] }, config).plannedState?.etag).toBe('e1');
  });

  it('on update plans computed attributes unknown unless useStateForUnknown', () => {
    const config = { id: null, name: 'n', mode: null, tags: ['b'], etag: null };
    const plan = planChange(schema, prior, { ...prior, tags: ['b'] }, config);
    expect(plan.plannedState).toEqual({ id: 'i', name: 'n', mode: UNKNOWN, tags: ['b'], etag: UNKNOWN });
    expect(plan.requiresReplace).toEqual([]);
  });

  it('requires replacement when a requiresReplace attribute changes', () => {
    const config = { id: null, name: 'm', mode: null, tags: ['a'], etag: null };
    expect(planChange(schema, prior, { ...prior, name: 'm' }, config).requiresReplace).toEqual([['name']]);
  });
});
