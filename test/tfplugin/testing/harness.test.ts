import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderHarness, proposeNewState } from '../../../src/tfplugin/testing/harness';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { demoProvider, readStore } from '../framework/fixtures/demo-provider';

describe('ProviderHarness', () => {
  let dir: string;
  let storePath: string;
  let harness: ProviderHarness<unknown>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'harness-'));
    storePath = join(dir, 'store.json');
    harness = new ProviderHarness(demoProvider as never);
    expect(await harness.configure({ store_path: storePath })).toEqual([]);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs create, read, an empty plan, update, import and destroy like terraform would', async () => {
    const config = { name: 'alpha', size: 1, tags: ['x'] };
    const created = await harness.create('demo_thing', config);
    expect(created.diagnostics).toEqual([]);
    expect(created.state).toMatchObject({ id: 'thing-1', name: 'alpha', enabled: true, revision: 1, labels: null });

    const read = await harness.read('demo_thing', created.state!);
    expect(read.state).toEqual(created.state);
    expect((await harness.plan('demo_thing', { priorState: read.state, config })).changed).toBe(false);

    const updated = await harness.update('demo_thing', read.state!, { ...config, size: 2 });
    expect(updated.state).toMatchObject({ id: 'thing-1', size: 2, revision: 2 });

    expect((await harness.importState('demo_thing', 'thing-1')).state).toEqual(updated.state);

    const destroyed = await harness.destroy('demo_thing', updated.state!);
    expect(destroyed).toEqual({ state: null, diagnostics: [] });
    expect(readStore(storePath).things).toEqual({});
  });

  it('reports validation errors with their attribute path and applies nothing', async () => {
    const result = await harness.create('demo_thing', { name: 'has space' });
    expect(result.state).toBeNull();
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'error', summary: 'Invalid name', path: ['name'] })]);
    expect(readStore(storePath).things).toEqual({});
  });

  it('shows replacement paths and unknown computed values in plans', async () => {
    const created = await harness.create('demo_thing', { name: 'alpha' });
    const plan = await harness.plan('demo_thing', { priorState: created.state, config: { name: 'beta' } });
    expect(plan.requiresReplace).toEqual([['name']]);
    expect(plan.plannedState).toMatchObject({ name: 'beta', revision: UNKNOWN, id: 'thing-1' });
  });

  it('reads data sources', async () => {
    await harness.create('demo_thing', { name: 'alpha' });
    expect((await harness.readDataSource('demo_thing', { id: 'thing-1' })).state).toEqual({ id: 'thing-1', name: 'alpha' });
    expect((await harness.readDataSource('demo_thing', { id: 'nope' })).diagnostics[0]).toMatchObject({ summary: 'Thing not found', path: ['id'] });
  });
});

describe('proposeNewState', () => {
  it('takes computed attributes the configuration leaves null from the prior state', () => {
    const schema = demoProvider.resources[0]!.schema;
    const proposed = proposeNewState(schema, { id: 'i', name: 'a', enabled: false, revision: 3 }, { name: 'b', size: null, enabled: null });
    expect(proposed).toMatchObject({ id: 'i', name: 'b', size: null, enabled: false, revision: 3 });
  });
});
