import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveProvider, type ServingProvider } from '../../../src/tfplugin/framework/serve';
import { schemaObjectType } from '../../../src/tfplugin/framework/schema';
import type { ObjectValue, ProviderDefinition } from '../../../src/tfplugin/framework/types';
import { generateCertificate } from '../../../src/tfplugin/protocol/certificate';
import { MAGIC_COOKIE_VALUE } from '../../../src/tfplugin/protocol/plugin-server';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { decodeMsgpackValue, encodeMsgpackValue } from '../../../src/tfplugin/protocol/values';
import { parseHandshake, TestClient } from '../protocol/grpc-test-client';
import { demoProvider, type DemoContext } from './fixtures/demo-provider';

const clientCertificate = generateCertificate();
const thingType = schemaObjectType(demoProvider.resources[0]!.schema);

describe('serveProvider', () => {
  let dir: string;
  let serving: ServingProvider | undefined;
  let client: TestClient | undefined;
  let exitCodes: number[];
  /** Resolves with the first exit code the provider reports. */
  let exited: Promise<number>;
  let closedWith: unknown[];

  async function serve(definition: ProviderDefinition<DemoContext>): Promise<TestClient> {
    exitCodes = [];
    let onExit: (code: number) => void = () => undefined;
    exited = new Promise<number>((resolve) => (onExit = resolve));
    closedWith = [];
    let line = '';
    serving = await serveProvider(
      { ...definition, close: async (ctx) => void closedWith.push(ctx) },
      {
        env: { TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6', PLUGIN_CLIENT_CERT: clientCertificate.certPem, TF_LOG: 'off' },
        writeHandshake: (text) => (line = text),
        exit: (code) => {
          exitCodes.push(code);
          onExit(code);
        },
      },
    );
    client = new TestClient(parseHandshake(line), clientCertificate);
    return client;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'serve-'));
  });

  afterEach(async () => {
    client?.close();
    client = undefined;
    if (serving && exitCodes.length === 0) await serving.shutdown();
    serving = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the provider schema over mutual TLS', async () => {
    const c = await serve(demoProvider);
    const schema = (await c.call('tfplugin6.Provider', 'GetProviderSchema', {})) as any;
    expect(Object.keys(schema.resource_schemas).sort()).toEqual(['demo_credential', 'demo_thing']);
    expect(schema.provider.block.attributes.map((a: any) => a.name)).toEqual(['store_path']);
  });

  it('answers a function call over the wire, the position 0 of an argument error included', async () => {
    const c = await serve(demoProvider);
    const args = (value: string) => [{ msgpack: encodeMsgpackValue(value, 'string') }];
    const ok = (await c.call('tfplugin6.Provider', 'CallFunction', { name: 'parse_pair', arguments: args('a=b') })) as any;
    expect(ok.error).toBeUndefined();
    expect(ok.result.msgpack).toEqual(encodeMsgpackValue({ key: 'a', value: 'b' }, ['object', { key: 'string', value: 'string' }]));
    const failed = (await c.call('tfplugin6.Provider', 'CallFunction', { name: 'parse_pair', arguments: args('=b') })) as any;
    expect(failed.error).toEqual({ text: '"=b" is not KEY=VALUE: it needs a key before "="', function_argument: 0 });
  });

  it('answers concurrent RPCs independently after one configuration', async () => {
    const c = await serve(demoProvider);
    const configured = (await c.call('tfplugin6.Provider', 'ConfigureProvider', {
      config: { msgpack: encodeMsgpackValue({ store_path: join(dir, 'store.json') }, schemaObjectType(demoProvider.schema)) },
    })) as any;
    expect(configured.diagnostics).toEqual([]);
    const plans = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const config: ObjectValue = { name: `n${i}`, size: i, id: null, tags: null, labels: null, enabled: null, secret: null, revision: null, created_at: null };
        const bytes = encodeMsgpackValue(config, thingType);
        return c.call('tfplugin6.Provider', 'PlanResourceChange', {
          type_name: 'demo_thing',
          prior_state: { msgpack: encodeMsgpackValue(null, thingType) },
          proposed_new_state: { msgpack: bytes },
          config: { msgpack: bytes },
        });
      }),
    );
    plans.forEach((plan: any, i) => {
      expect(plan.diagnostics).toEqual([]);
      expect(decodeMsgpackValue(plan.planned_state.msgpack, thingType)).toMatchObject({ name: `n${i}`, size: i, id: UNKNOWN, enabled: true });
    });
  });

  it('carries messages far larger than one HTTP/2 window in both directions', async () => {
    const c = await serve(demoProvider);
    const tags = Array.from({ length: 40_000 }, (_, i) => `tag-${i}-${'x'.repeat(20)}`);
    const json = Buffer.from(JSON.stringify({ id: 't', name: 'big', tags }));
    expect(json.length).toBeGreaterThan(1_000_000);
    const response = (await c.call('tfplugin6.Provider', 'UpgradeResourceState', { type_name: 'demo_thing', version: 0, raw_state: { json } })) as any;
    expect(response.diagnostics).toEqual([]);
    expect((decodeMsgpackValue(response.upgraded_state.msgpack, thingType) as ObjectValue).tags).toEqual(tags);
  });

  it('on GRPCController/Shutdown calls the definition close hook with the context, then exits 0', async () => {
    const c = await serve(demoProvider);
    const storePath = join(dir, 'store.json');
    await c.call('tfplugin6.Provider', 'ConfigureProvider', {
      config: { msgpack: encodeMsgpackValue({ store_path: storePath }, schemaObjectType(demoProvider.schema)) },
    });
    await c.call('plugin.GRPCController', 'Shutdown', {});
    expect(await exited).toBe(0);
    expect(exitCodes).toEqual([0]);
    expect(closedWith).toEqual([expect.objectContaining({ storePath })]);
  });

  it('exits with 1 when not started by Terraform', async () => {
    const codes: number[] = [];
    const written: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const result = await serveProvider(demoProvider, { env: {}, writeHandshake: (line) => written.push(line), exit: (code) => codes.push(code) });
      expect(result).toBeUndefined();
      expect(stderr).toHaveBeenCalledWith(expect.stringContaining('This binary is a plugin'));
    } finally {
      stderr.mockRestore();
    }
    expect(codes).toEqual([1]);
    expect(written).toEqual([]);
  });
});
