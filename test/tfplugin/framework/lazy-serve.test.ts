/**
 * serveProvider with a lazily loaded definition: the handshake line is printed without loading
 * the definition, which is loaded once, on the first provider RPC.
 */
import { serveProvider, type LazyProviderDefinition, type ServingProvider } from '../../../src/tfplugin/framework/serve';
import { generateCertificate } from '../../../src/tfplugin/protocol/certificate';
import { MAGIC_COOKIE_VALUE } from '../../../src/tfplugin/protocol/plugin-server';
import { parseHandshake, TestClient } from '../protocol/grpc-test-client';
import { demoProvider, type DemoContext } from './fixtures/demo-provider';

const clientCertificate = generateCertificate();

describe('serveProvider with a lazy definition', () => {
  let serving: ServingProvider | undefined;
  let client: TestClient | undefined;
  let exitCodes: number[];
  /** Resolves with the first exit code the provider reports. */
  let exited: Promise<number>;

  async function serve(definition: LazyProviderDefinition<DemoContext>): Promise<TestClient> {
    exitCodes = [];
    let onExit: (code: number) => void = () => undefined;
    exited = new Promise<number>((resolve) => (onExit = resolve));
    let line = '';
    serving = await serveProvider(definition, {
      env: { TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6', PLUGIN_CLIENT_CERT: clientCertificate.certPem, TF_LOG: 'off' },
      writeHandshake: (text) => (line = text),
      exit: (code) => {
        exitCodes.push(code);
        onExit(code);
      },
    });
    client = new TestClient(parseHandshake(line), clientCertificate);
    return client;
  }

  afterEach(async () => {
    client?.close();
    client = undefined;
    if (serving && exitCodes.length === 0) await serving.shutdown();
    serving = undefined;
  });

  it('prints the handshake without loading the definition, then loads it once on the first RPC', async () => {
    let loads = 0;
    const c = await serve({ typeName: 'demo', load: () => (loads++, demoProvider) });
    expect(serving?.handshake).toMatch(/^1\|6\|unix\|/);
    expect(loads).toBe(0);

    const schema = (await c.call('tfplugin6.Provider', 'GetProviderSchema', {})) as any;
    expect(Object.keys(schema.resource_schemas)).toEqual(['demo_thing', 'demo_credential']);
    const metadata = (await c.call('tfplugin6.Provider', 'GetMetadata', {})) as any;
    expect(metadata.resources).toEqual([{ type_name: 'demo_thing' }, { type_name: 'demo_credential' }]);
    expect(loads).toBe(1);
  });

  it('shuts down without loading a definition that no RPC needed', async () => {
    let loads = 0;
    const c = await serve({ typeName: 'demo', load: () => (loads++, demoProvider) });
    await c.call('plugin.GRPCController', 'Shutdown', {});
    expect(await exited).toBe(0);
    expect(exitCodes).toEqual([0]);
    expect(loads).toBe(0);
  });

  it('fails the RPC with a clear message when the loaded definition has another type name', async () => {
    const c = await serve({ typeName: 'other', load: () => demoProvider });
    await expect(c.call('tfplugin6.Provider', 'GetProviderSchema', {})).rejects.toThrow(
      /the provider definition loaded is "demo", expected "other"/,
    );
  });
});
