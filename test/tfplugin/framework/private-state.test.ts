import { PrivateState } from '../../../src/tfplugin/framework/private-state';
import type { Diagnostics, ObjectValue, PrivateData, ProviderDefinition, Resource } from '../../../src/tfplugin/framework/types';
import { ProviderHarness, stateOf } from '../../../src/tfplugin/testing/harness';

describe('PrivateState', () => {
  it('round-trips JSON values by key', () => {
    const state = PrivateState.decode(undefined);
    state.set('count', 2);
    state.set('ids', ['a', 'b']);
    const decoded = PrivateState.decode(state.encode());
    expect(decoded.get('count')).toBe(2);
    expect(decoded.get('ids')).toEqual(['a', 'b']);
  });

  it('removes a key set to undefined, and encodes nothing when no key is left', () => {
    const state = PrivateState.decode(Buffer.from('{"a":1}'));
    state.set('a', undefined);
    expect(state.get('a')).toBeUndefined();
    expect(state.encode()).toBeUndefined();
  });

  it.each([
    ['no bytes', Buffer.alloc(0)],
    ['bytes that are not JSON', Buffer.from([0xff, 0x00, 0x12])],
    ['a JSON array', Buffer.from('[1,2]')],
    ['JSON null', Buffer.from('null')],
  ])('decodes %s as an empty state, and hands the bytes back unchanged while nothing is set', (_name, bytes) => {
    const state = PrivateState.decode(bytes);
    expect(state.get('a')).toBeUndefined();
    expect(state.encode() ?? Buffer.alloc(0)).toEqual(bytes);
    state.set('a', 1);
    expect(state.encode()).toEqual(Buffer.from('{"a":1}'));
  });
});

/** What each call of the test resource saw of its private data, in order. */
const seen: Array<{ call: string; private: Record<string, unknown> }> = [];

function snapshot(call: string, data: PrivateData | undefined, keys: readonly string[]): void {
  const entries: Record<string, unknown> = {};
  for (const key of keys) if (data?.get(key) !== undefined) entries[key] = data.get(key);
  seen.push({ call, private: entries });
}

const KEYS = ['created', 'reads', 'planned', 'destroyPlanned', 'updated'];

/** A resource that only records and changes its private data; `fail_delete` makes delete fail. */
const memo: Resource<object> = {
  typeName: 'test_memo',
  schema: {
    description: 'A memo.',
    attributes: {
      id: { type: 'string', computed: true, useStateForUnknown: true, description: 'Id.' },
      text: { type: 'string', optional: true, description: 'Text.' },
      fail_delete: { type: 'bool', optional: true, description: 'Fail the delete.' },
    },
  },
  modifyPlan(_ctx, req, plan) {
    snapshot('plan', plan.private, KEYS);
    plan.private.set('planned', req.priorState === null ? 'create' : 'update');
  },
  planDestroy(_ctx, _req, plan) {
    snapshot('planDestroy', plan.private, KEYS);
    plan.private.set('destroyPlanned', true);
  },
  async create(_ctx, req) {
    snapshot('create', req.private, KEYS);
    req.private?.set('planned', undefined);
    req.private?.set('created', 'yes');
    return { ...req.plannedState, id: 'memo-1' };
  },
  async read(_ctx, req) {
    snapshot('read', req.private, KEYS);
    req.private?.set('reads', Number(req.private.get('reads') ?? 0) + 1);
    return req.state;
  },
  async update(_ctx, req) {
    snapshot('update', req.private, KEYS);
    req.private?.set('updated', true);
    return req.plannedState;
  },
  async delete(_ctx, req, diags: Diagnostics) {
    snapshot('delete', req.private, KEYS);
    if (req.priorState['fail_delete'] === true) diags.error('Delete failed', 'On purpose.');
  },
  async importState(_ctx, req) {
    req.private?.set('created', 'imported');
    return { id: req.id, text: null, fail_delete: null };
  },
};

const provider: ProviderDefinition<object> = {
  typeName: 'test',
  schema: { description: 'Test.', attributes: {} },
  async configure() {
    return {};
  },
  resources: [memo],
  dataSources: [],
};

async function configured(): Promise<ProviderHarness<object>> {
  const harness = new ProviderHarness(provider);
  expect(await harness.configure({})).toEqual([]);
  return harness;
}

function callsOf(name: string): Array<Record<string, unknown>> {
  return seen.filter((entry) => entry.call === name).map((entry) => entry.private);
}

beforeEach(() => {
  seen.length = 0;
});

describe('private data through the resource calls', () => {
  it('hands a plan\'s planned private data to its apply, and keeps what create sets with the new state', async () => {
    const harness = await configured();
    const created = stateOf(await harness.create('test_memo', { text: 'a' }));
    expect(callsOf('create')).toEqual([{ planned: 'create' }]);
    const read = stateOf(await harness.read('test_memo', created));
    expect(callsOf('read')).toEqual([{ created: 'yes' }]);
    await harness.read('test_memo', read);
    expect(callsOf('read')[1]).toEqual({ created: 'yes', reads: 1 });
  });

  it('starts an update plan\'s private data as the prior object\'s, and the update receives the plan\'s', async () => {
    const harness = await configured();
    const created = stateOf(await harness.create('test_memo', { text: 'a' }));
    const updated = stateOf(await harness.update('test_memo', created, { text: 'b' }));
    expect(callsOf('plan')[1]).toEqual({ created: 'yes' });
    expect(callsOf('update')).toEqual([{ created: 'yes', planned: 'update' }]);
    await harness.read('test_memo', updated);
    expect(callsOf('read')).toEqual([{ created: 'yes', planned: 'update', updated: true }]);
  });

  it('plans a destroy through planDestroy and hands its private data to the delete', async () => {
    const harness = await configured();
    const created = stateOf(await harness.create('test_memo', { text: 'a' }));
    const destroyed = await harness.destroy('test_memo', created);
    expect(destroyed.state).toBeNull();
    expect(callsOf('planDestroy')).toEqual([{ created: 'yes' }]);
    expect(callsOf('delete')).toEqual([{ created: 'yes', destroyPlanned: true }]);
  });

  it('keeps the object, with its planned private data, when the delete fails', async () => {
    const harness = await configured();
    const created = stateOf(await harness.create('test_memo', { text: 'a', fail_delete: true }));
    const failed = await harness.destroy('test_memo', created);
    expect(failed.diagnostics.map((d) => d.summary)).toEqual(['Delete failed']);
    expect(failed.state).not.toBeNull();
    await harness.read('test_memo', failed.state as ObjectValue);
    expect(callsOf('read')).toEqual([{ created: 'yes', destroyPlanned: true }]);
  });

  it('passes the private data an import sets to the read that follows', async () => {
    const harness = await configured();
    const imported = await harness.importState('test_memo', 'memo-9');
    expect(imported.diagnostics).toEqual([]);
    expect(callsOf('read')).toEqual([{ created: 'imported' }]);
  });
});
