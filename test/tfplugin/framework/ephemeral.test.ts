/**
 * Ephemeral resources through the provider service: open with its result, renewal time and
 * private data; renew and close receiving that private data back; what is a provider bug. The
 * real terraform run is in newer-features-e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EphemeralResource } from '../../../src/tfplugin/framework/ephemeral';
import { ProviderService } from '../../../src/tfplugin/framework/provider-service';
import { schemaObjectType } from '../../../src/tfplugin/framework/schema';
import type { ProviderDefinition } from '../../../src/tfplugin/framework/types';
import { createJsonLogger } from '../../../src/tfplugin/protocol/log';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { decodeMsgpackValue, encodeMsgpackValue } from '../../../src/tfplugin/protocol/values';
import { ProviderHarness } from '../../../src/tfplugin/testing/harness';
import { demoProvider, readStore, type DemoContext } from './fixtures/demo-provider';

const logger = createJsonLogger({ module: 'test', level: 'error', write: () => undefined });
const lease = demoProvider.ephemeralResources![0]!;

describe('ephemeral resources', () => {
  let dir: string;
  let storePath: string;
  let harness: ProviderHarness<DemoContext>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ephemeral-'));
    storePath = join(dir, 'store.json');
    harness = new ProviderHarness(demoProvider, logger);
    expect(await harness.configure({ store_path: storePath })).toEqual([]);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the schema and lists the type', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    const schema = await handlers.GetProviderSchema({});
    expect(schema.ephemeral_resource_schemas!.demo_lease!.block!.attributes!.map((a) => a.name)).toEqual(['lease_id', 'name', 'renewals', 'token']);
    expect((await handlers.GetMetadata({})).ephemeral_resources).toEqual([{ type_name: 'demo_lease' }]);
  });

  it('opens with a result, renews at the time it asked for, and closes with the private data of the open', async () => {
    const before = Date.now();
    const opened = await harness.openEphemeral('demo_lease', { name: 'db', renewals: 2 });
    expect(opened.diagnostics).toEqual([]);
    expect(opened.result).toEqual({ name: 'db', renewals: 2, lease_id: 'lease-1', token: 'token-of-lease-1' });
    expect(opened.renewAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(JSON.parse(opened.private!.toString('utf8'))).toEqual({ lease_id: 'lease-1' });

    const first = await harness.renewEphemeral('demo_lease', opened.private);
    expect(first.diagnostics).toEqual([]);
    expect(first.renewAt).toBeInstanceOf(Date);
    expect(first.private).toEqual(opened.private);
    const last = await harness.renewEphemeral('demo_lease', first.private);
    expect(last.renewAt).toBeUndefined();

    expect(await harness.closeEphemeral('demo_lease', last.private)).toEqual([]);
    expect(readStore(storePath).leases).toEqual({ 'lease-1': { name: 'db', token: 'token-of-lease-1', wanted: 2, renewals: 2, closed: true } });
  });

  it('asks for no renewal when the resource wants none', async () => {
    const opened = await harness.openEphemeral('demo_lease', { name: 'db' });
    expect(opened.renewAt).toBeUndefined();
  });

  it('validates the configuration before opening, on the attribute', async () => {
    const opened = await harness.openEphemeral('demo_lease', { name: 'db', renewals: -1 });
    expect(opened.result).toBeNull();
    expect(opened.diagnostics).toEqual([expect.objectContaining({ summary: 'Invalid renewals', path: ['renewals'] })]);
    expect(readStore(storePath).leases).toBeUndefined();
  });

  it('does not open while the configuration is unknown: the computed attributes are unknown', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    await handlers.ConfigureProvider({ config: { msgpack: encodeMsgpackValue({ store_path: storePath }, schemaObjectType(demoProvider.schema)) } });
    const type = schemaObjectType(lease.schema);
    const response = await handlers.OpenEphemeralResource({
      type_name: 'demo_lease',
      config: { msgpack: encodeMsgpackValue({ name: UNKNOWN, renewals: null, lease_id: null, token: null }, type) },
    });
    expect(response.diagnostics).toEqual([]);
    expect(decodeMsgpackValue(response.result!.msgpack, type)).toEqual({ name: UNKNOWN, renewals: null, lease_id: UNKNOWN, token: UNKNOWN });
    expect(readStore(storePath).leases).toBeUndefined();
  });

  it('reports provider bugs: a renewal time without renew, no result, renew without renew', async () => {
    const broken = (changes: Partial<EphemeralResource<DemoContext>>): ProviderHarness<DemoContext> =>
      new ProviderHarness({ ...demoProvider, ephemeralResources: [{ ...lease, ...changes }] } as ProviderDefinition<DemoContext>, logger);
    const noRenew = broken({ renew: undefined });
    await noRenew.configure({ store_path: storePath });
    expect((await noRenew.openEphemeral('demo_lease', { name: 'a', renewals: 1 })).diagnostics[0]!.summary).toBe('Ephemeral resource cannot be renewed');
    expect((await noRenew.renewEphemeral('demo_lease', undefined)).diagnostics[0]!.summary).toBe('Ephemeral resource cannot be renewed');
    const noResult = broken({ open: async () => null });
    await noResult.configure({ store_path: storePath });
    expect((await noResult.openEphemeral('demo_lease', { name: 'a' })).diagnostics[0]!.summary).toBe('Ephemeral resource returned no result');
    // Bytes the provider did not write read as empty private data (private-state.ts): the lease finds no id.
    expect((await harness.closeEphemeral('demo_lease', Buffer.from('not json')))[0]!.summary).toBe(
      'internal error in demo_lease.close: private data without lease_id',
    );
  });

  it('closes a resource without close quietly, and needs a configured provider to open', async () => {
    const noClose = new ProviderHarness({ ...demoProvider, ephemeralResources: [{ ...lease, close: undefined }] } as ProviderDefinition<DemoContext>, logger);
    expect((await noClose.openEphemeral('demo_lease', { name: 'a' })).diagnostics[0]!.summary).toBe('Provider not configured');
    await noClose.configure({ store_path: storePath });
    const opened = await noClose.openEphemeral('demo_lease', { name: 'a' });
    expect(await noClose.closeEphemeral('demo_lease', opened.private)).toEqual([]);
    expect(readStore(storePath).leases!['lease-1']!.closed).toBe(false);
  });
});
