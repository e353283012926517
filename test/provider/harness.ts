/**
 * Set-up of the orgadmin provider's tests: a real service on port 0 with realm `acme` and an API
 * key (`test/helpers/service.ts`), and the framework's {@link ProviderHarness}es configured
 * against it. Tests reach the provider only through those harnesses; `client` is the SDK, for
 * looking at (or changing) the service behind the provider's back.
 */
import { Agent } from 'undici';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../src/client';
import type { OrgAdminProviderContext } from '../../src/provider/context';
import { errorsOf, ProviderHarness } from '../../src/tfplugin/testing/harness';
import type { ObjectValue, ProviderDefinition } from '../../src/tfplugin/framework/types';
import { createJsonLogger } from '../../src/tfplugin/protocol/log';
import { createOrgAdminProvider } from '../../src/provider/provider';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';

/** A running service, an SDK client of it, and a provider process configured against it. */
export interface ProviderTest {
  svc: TestService;
  realm: string;
  clientId: string;
  clientSecret: string;
  /** The SDK with the same API key, for checks on the service outside the provider. */
  client: OrgAdminClient;
  /** A provider process configured with the API key. */
  tf: ProviderHarness<OrgAdminProviderContext>;
  /** Every log line of every provider process of this test (all levels). */
  logLines: string[];
  /**
   * Another provider process, configured against the service with the API key unless `values`
   * say otherwise (`provider`: another definition, e.g. one with environment variables). Throws
   * when the configuration fails; closed by {@link close}.
   */
  harness(values?: ObjectValue, provider?: ProviderDefinition<OrgAdminProviderContext>): Promise<ProviderHarness<OrgAdminProviderContext>>;
  /** An SDK client of another API key (another realm's, say). */
  sdk(key: { realm: string; clientId: string; clientSecret: string }): OrgAdminClient;
  /** Closes every harness and client, then the service. */
  close(): Promise<void>;
}

/** Starts the service, creates realm `acme` with an API key (all permissions unless given), configures a provider. */
export async function startProviderTest(
  opts: { permissions?: string[]; rateLimit?: { requests: number; windowSeconds: number } } = {},
): Promise<ProviderTest> {
  const svc = await startTestService(opts.rateLimit ? { rateLimit: opts.rateLimit } : {});
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  const provider = createOrgAdminProvider({ env: {}, dispatcher: agent });
  const logLines: string[] = [];
  const logger = createJsonLogger({ module: 'test.orgadmin', level: 'trace', write: (line) => logLines.push(line) });
  const harnesses: Array<ProviderHarness<OrgAdminProviderContext>> = [];
  const clients: OrgAdminClient[] = [];
  const close = async (): Promise<void> => {
    for (const harness of harnesses) await harness.close();
    for (const client of clients) await client.close();
    await agent.close();
    await svc.close();
  };
  try {
    const { realm, clientId, clientSecret } = await createTestRealm(svc, 'acme', opts.permissions ? { permissions: opts.permissions } : {});
    const harness = async (values: ObjectValue = {}, definition = provider): Promise<ProviderHarness<OrgAdminProviderContext>> => {
      const tf = new ProviderHarness(definition, logger);
      harnesses.push(tf);
      const config = definition === provider ? { base_url: svc.baseUrl, realm, client_id: clientId, client_secret: clientSecret, max_retries: 0, ...values } : values;
      const diagnostics = await tf.configure(config);
      if (errorsOf(diagnostics).length > 0) throw new Error(`provider configuration failed: ${JSON.stringify(diagnostics)}`);
      return tf;
    };
    const sdk = (key: { realm: string; clientId: string; clientSecret: string }): OrgAdminClient => {
      const tokenSource = new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: key.clientId, clientSecret: key.clientSecret, dispatcher: agent });
      const client = new OrgAdminClient({ baseUrl: svc.baseUrl, realm: key.realm, tokenSource, dispatcher: agent, maxRetries: 0 });
      clients.push(client);
      return client;
    };
    return {
      svc,
      realm,
      clientId,
      clientSecret,
      client: sdk({ realm, clientId, clientSecret }),
      tf: await harness(),
      logLines,
      harness,
      sdk,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
