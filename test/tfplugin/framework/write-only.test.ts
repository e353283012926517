/**
 * Write-only attributes through the provider service (as Terraform's calls reach it): the value
 * reaches the resource in its configuration and never comes back in a plan or state; a Terraform
 * that does not support them (no client capability) is refused; a version bump is what sends a new
 * value. The real terraform run of the same resource is in newer-features-e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderService } from '../../../src/tfplugin/framework/provider-service';
import type { ProviderDefinition, Resource, Schema } from '../../../src/tfplugin/framework/types';
import { createJsonLogger } from '../../../src/tfplugin/protocol/log';
import { ProviderHarness, stateOf } from '../../../src/tfplugin/testing/harness';
import { demoProvider, readStore, type DemoContext } from './fixtures/demo-provider';

const logger = createJsonLogger({ module: 'test', level: 'error', write: () => undefined });

describe('write-only attributes', () => {
  let dir: string;
  let storePath: string;
  let harness: ProviderHarness<unknown>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'write-only-'));
    storePath = join(dir, 'store.json');
    harness = new ProviderHarness(demoProvider as never);
    expect(await harness.configure({ store_path: storePath })).toEqual([]);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('flags the attribute write_only in the schema Terraform reads', async () => {
    const schema = await new ProviderService(demoProvider, logger).handlers().GetProviderSchema({});
    const attributes = schema.resource_schemas!.demo_credential!.block!.attributes!;
    expect(attributes.find((a) => a.name === 'secret_wo')).toMatchObject({ write_only: true, sensitive: true, optional: true });
    expect(attributes.find((a) => a.name === 'secret_wo_version')).toMatchObject({ write_only: false });
    expect(schema.diagnostics).toEqual([]);
  });

  it('gives the resource the value from the configuration and plans and stores null', async () => {
    const config = { name: 'ci', secret_wo: 's3cret-1', secret_wo_version: 1 };
    const plan = await harness.plan('demo_credential', { priorState: null, config });
    expect(plan.diagnostics).toEqual([]);
    expect(plan.plannedState).toMatchObject({ secret_wo: null, secret_wo_version: 1 });
    const created = await harness.create('demo_credential', config);
    const state = stateOf(created);
    expect(state).toEqual({ id: 'credential-1', name: 'ci', secret_wo: null, secret_wo_version: 1 });
    expect(readStore(storePath).credentials).toEqual({ 'credential-1': { name: 'ci', secret: 's3cret-1', writes: 1 } });
    expect((await harness.read('demo_credential', state)).state).toEqual(state);
    expect((await harness.importState('demo_credential', 'credential-1')).state).toEqual({ ...state, secret_wo_version: null });
  });

  it('plans no change for a new secret alone, and an update that sends it when the version changes', async () => {
    const state = stateOf(await harness.create('demo_credential', { name: 'ci', secret_wo: 'one', secret_wo_version: 1 }));
    const secretOnly = await harness.plan('demo_credential', { priorState: state, config: { name: 'ci', secret_wo: 'two', secret_wo_version: 1 } });
    expect(secretOnly.changed).toBe(false);
    const bumped = { name: 'ci', secret_wo: 'two', secret_wo_version: 2 };
    const plan = await harness.plan('demo_credential', { priorState: state, config: bumped });
    expect(plan).toMatchObject({ changed: true, requiresReplace: [], plannedState: { secret_wo: null, secret_wo_version: 2 } });
    const updated = stateOf(await harness.update('demo_credential', state, bumped));
    expect(updated.secret_wo).toBeNull();
    expect(readStore(storePath).credentials!['credential-1']).toEqual({ name: 'ci', secret: 'two', writes: 2 });
  });

  it('refuses a write-only value from a Terraform without the capability, on the attribute', async () => {
    const refused = await harness.validateResource('demo_credential', { name: 'ci', secret_wo: 'x', secret_wo_version: 1 }, { writeOnlyAllowed: false });
    expect(refused).toEqual([
      expect.objectContaining({ severity: 'error', summary: 'Write-only attribute not supported by this Terraform', path: ['secret_wo'] }),
    ]);
    expect(refused[0]!.detail).toContain('Terraform 1.11 or later');
    // Without a value there is nothing to keep out of state.
    expect(await harness.validateResource('demo_credential', { name: 'ci' }, { writeOnlyAllowed: false })).toEqual([]);
    expect(await harness.validateResource('demo_credential', { name: 'ci', secret_wo: 'x' })).toEqual([]);
  });

  it('sets write-only values null even when a resource returns them', async () => {
    const credential: Resource<DemoContext> = {
      ...demoProvider.resources[1]!,
      create: async (_ctx, req) => ({ ...req.config, id: 'x' }),
      read: async (_ctx, req) => req.state,
    };
    const leaky: ProviderDefinition<DemoContext> = { ...demoProvider, resources: [credential] };
    const leakyHarness = new ProviderHarness(leaky);
    await leakyHarness.configure({ store_path: storePath });
    const created = stateOf(await leakyHarness.create('demo_credential', { name: 'n', secret_wo: 'leak' }));
    expect(created.secret_wo).toBeNull();
    expect((await leakyHarness.read('demo_credential', { ...created, secret_wo: 'leak' })).state!.secret_wo).toBeNull();
  });

  it('reports write-only attributes where they cannot be as provider bugs', async () => {
    const bad = (attributes: Schema['attributes']): Schema => ({ description: 'd', attributes });
    const definition = {
      ...demoProvider,
      resources: [{ ...demoProvider.resources[1]!, schema: bad({ a: { type: 'string', description: '', optional: true, computed: true, writeOnly: true }, b: { type: ['set', 'string'], description: '', optional: true, writeOnly: true } }) }],
      dataSources: [{ ...demoProvider.dataSources[0]!, schema: bad({ c: { type: 'string', description: '', optional: true, writeOnly: true } }) }],
    } as ProviderDefinition<unknown>;
    const response = await new ProviderService(definition, logger).handlers().GetProviderSchema({});
    expect(response.diagnostics!.map((d) => d.detail)).toEqual([
      'demo_credential.a: a write-only attribute cannot be computed. This is a bug in the provider.',
      'demo_credential.b: a write-only attribute cannot hold a set (Terraform cannot address its elements). This is a bug in the provider.',
      'data demo_thing.c: only managed resources have write-only attributes. This is a bug in the provider.',
    ]);
  });
});
