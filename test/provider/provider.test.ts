import { createServer } from 'node:net';
import { tokenPath } from '../../src/api';
import {
  orgadminProvider,
  PROVIDER_SOURCE_ADDRESS,
  PROVIDER_TYPE_NAME,
  resolveProviderSettings,
  validateProviderConfig,
} from '../../src/provider';
import type { OrgAdminProviderContext } from '../../src/provider/context';
import { ORGANIZATION_DATA_SOURCE_TYPE } from '../../src/provider/data-sources/organization';
import {
  diagnosticsText,
  errorsOf,
  ProviderHarness,
  RecordingDiagnostics,
  type HarnessDiagnostic,
} from '../../src/tfplugin/testing/harness';
import type { AttributeSchema, ObjectValue, Value } from '../../src/tfplugin/framework/types';
import { UNKNOWN } from '../../src/tfplugin/protocol/unknown';
import { ORGANIZATION_RESOURCE_TYPE } from '../../src/provider/resources/organization';
import { getToken } from '../helpers/service';
import { startProviderTest, type ProviderTest } from './harness';

/** Looks an organization up by name through the data source: a call that needs the service and a token. */
const lookUpOrganization = async (tf: ProviderHarness<OrgAdminProviderContext>, name: string): Promise<HarnessDiagnostic[]> =>
  (await tf.readDataSource(ORGANIZATION_DATA_SOURCE_TYPE, { name })).diagnostics;

/** A provider configuration with every attribute (null where not given), as Terraform sends it. */
const providerConfig = (values: Record<string, unknown>): ObjectValue =>
  Object.fromEntries(Object.keys(orgadminProvider.schema.attributes).map((name) => [name, (values[name] ?? null) as Value]));

describe('orgadmin provider', () => {
  describe('definition', () => {
    it('is named orgadmin and exported with its source address', () => {
      expect(PROVIDER_TYPE_NAME).toBe('orgadmin');
      expect(PROVIDER_SOURCE_ADDRESS).toBe('registry.terraform.io/orgadmin/orgadmin');
      expect(orgadminProvider.typeName).toBe('orgadmin');
      expect(orgadminProvider.resources.map((r) => r.typeName).sort()).toEqual([
        'orgadmin_membership',
        'orgadmin_organization',
        'orgadmin_organization_domain_verification',
        'orgadmin_organization_identity_provider',
        'orgadmin_organization_identity_provider_mapper',
        'orgadmin_organization_member_roles',
        'orgadmin_organization_members',
        'orgadmin_organization_role',
        'orgadmin_webhook',
      ]);
      expect(orgadminProvider.dataSources.map((d) => d.typeName).sort()).toEqual([
        'orgadmin_organization',
        'orgadmin_organization_domain',
        'orgadmin_organization_members',
        'orgadmin_organization_roles',
        'orgadmin_organizations',
        'orgadmin_user',
        'orgadmin_users',
      ]);
    });

    it('describes every attribute of the provider, every resource and every data source', () => {
      const schemas = [
        ['provider', orgadminProvider.schema],
        ...orgadminProvider.resources.map((r) => [r.typeName, r.schema] as const),
        ...orgadminProvider.dataSources.map((d) => [`data.${d.typeName}`, d.schema] as const),
      ] as const;
      const undocumented: string[] = [];
      for (const [owner, schema] of schemas) {
        if (schema.description.trim().length < 10) undocumented.push(owner);
        for (const [name, attribute] of Object.entries(schema.attributes) as Array<[string, AttributeSchema]>) {
          if (attribute.description.trim().length < 10) undocumented.push(`${owner}.${name}`);
        }
      }
      expect(undocumented).toEqual([]);
    });

    it('marks the client secret and the access token sensitive', () => {
      expect(orgadminProvider.schema.attributes['client_secret']!.sensitive).toBe(true);
      expect(orgadminProvider.schema.attributes['access_token']!.sensitive).toBe(true);
    });
  });

  describe('settings', () => {
    const resolve = (
      config: Record<string, unknown>,
      env: Record<string, string> = {},
    ): { settings: ReturnType<typeof resolveProviderSettings>; diagnostics: HarnessDiagnostic[]; errors: HarnessDiagnostic[] } => {
      const diags = new RecordingDiagnostics();
      const settings = resolveProviderSettings(providerConfig(config), env, diags);
      return { settings, diagnostics: diags.diagnostics, errors: errorsOf(diags.diagnostics) };
    };

    it('takes every setting from the environment when the configuration leaves it out', () => {
      const { settings, diagnostics } = resolve({}, {
        ORGADMIN_BASE_URL: 'https://acme.example.com/',
        ORGADMIN_CLIENT_ID: 'id',
        ORGADMIN_CLIENT_SECRET: 'very-secret-value',
        ORGADMIN_REQUEST_TIMEOUT: '2.5',
        ORGADMIN_MAX_RETRIES: '5',
      });
      expect(diagnostics).toEqual([]);
      expect(settings).toEqual({
        baseUrl: 'https://acme.example.com',
        realm: 'acme',
        clientCredentials: { clientId: 'id', clientSecret: 'very-secret-value' },
        timeoutMs: 2500,
        maxRetries: 5,
      });
    });

    it('prefers the configuration over the environment, setting by setting', () => {
      const { settings } = resolve(
        { base_url: 'https://beta.example.com', client_id: 'from-config' },
        { ORGADMIN_BASE_URL: 'https://acme.example.com', ORGADMIN_CLIENT_ID: 'from-env', ORGADMIN_CLIENT_SECRET: 'secret-from-env', ORGADMIN_REALM: 'gamma' },
      );
      expect(settings).toMatchObject({ baseUrl: 'https://beta.example.com', realm: 'gamma', clientCredentials: { clientId: 'from-config', clientSecret: 'secret-from-env' } });
    });

    it('accepts a user access token instead of an API key', () => {
      const { settings, diagnostics } = resolve({ base_url: 'https://acme.example.com', access_token: 'user-token-value' });
      expect(diagnostics).toEqual([]);
      expect(settings).toEqual({ baseUrl: 'https://acme.example.com', realm: 'acme', accessToken: 'user-token-value', maxRetries: 5 });
    });

    it('asks for base_url when neither the configuration nor the environment has it', () => {
      const { settings, diagnostics } = resolve({ client_id: 'a', client_secret: 'bbbbbbbb', realm: 'acme' });
      expect(settings).toBeUndefined();
      expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Missing base_url', path: ['base_url'] })]);
      expect(errorsOf(diagnostics)[0]!.detail).toContain('ORGADMIN_BASE_URL');
    });

    it('asks for a realm when the base URL\'s host names none', () => {
      const { diagnostics } = resolve({ base_url: 'http://127.0.0.1:8080', client_id: 'a', client_secret: 'bbbbbbbb' });
      expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Missing realm', path: ['realm'] })]);
      expect(errorsOf(diagnostics)[0]!.detail).toContain('ORGADMIN_REALM');
    });

    it('refuses a base URL that is not an absolute http(s) URL', () => {
      expect(resolve({ base_url: 'acme.example.com', access_token: 'tttttttt' }).errors).toEqual([
        expect.objectContaining({ summary: 'Invalid base_url', path: ['base_url'] }),
      ]);
      const fromEnv = resolve({ access_token: 'tttttttt' }, { ORGADMIN_BASE_URL: 'ftp://acme.example.com' }).errors;
      expect(fromEnv[0]!.detail).toContain('ORGADMIN_BASE_URL');
    });

    it('never repeats a password written into the base URL', () => {
      const { diagnostics } = resolve({ base_url: 'https://user:hunter2-password@acme.example.com', access_token: 'tttttttt' });
      expect(errorsOf(diagnostics)[0]!.path).toEqual(['base_url']);
      expect(diagnosticsText(diagnostics)).not.toContain('hunter2-password');
    });

    it('never repeats a password written into a base URL that does not parse as http(s)', () => {
      for (const baseUrl of ['user:hunter2-password@acme.example.com', 'ftp://user:hunter2-password@acme.example.com', 'https://user:hunter2-password@acme example.com']) {
        const { diagnostics } = resolve({ base_url: baseUrl, access_token: 'tttttttt' });
        expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Invalid base_url', path: ['base_url'] })]);
        expect(diagnosticsText(diagnostics)).not.toContain('hunter2');
        const validation = new RecordingDiagnostics();
        validateProviderConfig(providerConfig({ base_url: baseUrl }), validation);
        expect(errorsOf(validation.diagnostics)).toHaveLength(1);
        expect(diagnosticsText(validation.diagnostics)).not.toContain('hunter2');
      }
    });

    it('refuses an access token together with client credentials, naming where each came from', () => {
      const { settings, diagnostics } = resolve(
        { base_url: 'https://acme.example.com', client_id: 'id', client_secret: 'the-client-secret' },
        { ORGADMIN_ACCESS_TOKEN: 'the-access-token' },
      );
      expect(settings).toBeUndefined();
      expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Conflicting credentials', path: ['access_token'] })]);
      expect(errorsOf(diagnostics)[0]!.detail).toContain('ORGADMIN_ACCESS_TOKEN');
      expect(diagnosticsText(diagnostics)).not.toContain('the-client-secret');
      expect(diagnosticsText(diagnostics)).not.toContain('the-access-token');
    });

    it('asks for the missing half of an API key', () => {
      expect(resolve({ base_url: 'https://acme.example.com', client_id: 'id' }).errors).toEqual([
        expect.objectContaining({ summary: 'Missing client_secret', path: ['client_secret'] }),
      ]);
      expect(resolve({ base_url: 'https://acme.example.com' }, { ORGADMIN_CLIENT_SECRET: 'ssssssss' }).errors).toEqual([
        expect.objectContaining({ summary: 'Missing client_id', path: ['client_id'] }),
      ]);
      expect(resolve({ base_url: 'https://acme.example.com' }).errors).toEqual([
        expect.objectContaining({ summary: 'Missing credentials', path: ['client_id'] }),
      ]);
    });

    it('refuses invalid timeouts and retry counts from either source', () => {
      const base = { base_url: 'https://acme.example.com', access_token: 'tttttttt' };
      expect(resolve({ ...base, request_timeout: 0 }).errors[0]!.path).toEqual(['request_timeout']);
      expect(resolve({ ...base, max_retries: 1.5 }).errors[0]!.path).toEqual(['max_retries']);
      expect(resolve(base, { ORGADMIN_MAX_RETRIES: 'many' }).errors[0]!.detail).toContain('ORGADMIN_MAX_RETRIES');
    });

    it('never turns a tiny request_timeout into no timeout', () => {
      const { settings } = resolve({ base_url: 'https://acme.example.com', access_token: 'tttttttt', request_timeout: 0.0001 });
      expect(settings!.timeoutMs).toBe(1);
    });

    it('reports every problem at once', () => {
      const { diagnostics } = resolve({ base_url: 'nope', client_id: 'id', request_timeout: -1 });
      expect(errorsOf(diagnostics).map((e) => e.path![0]).sort()).toEqual(['base_url', 'client_secret', 'request_timeout']);
    });

    it('refuses values that are only known after apply when configuring', () => {
      const { diagnostics } = resolve({ base_url: UNKNOWN, access_token: 'tttttttt', realm: 'acme' });
      expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'base_url is not known yet', path: ['base_url'] })]);
    });
  });

  describe('validate', () => {
    const validate = (config: Record<string, unknown>): HarnessDiagnostic[] => {
      const diags = new RecordingDiagnostics();
      validateProviderConfig(providerConfig(config), diags);
      return diags.diagnostics;
    };

    it('skips unknown values and settings that the environment may still supply', () => {
      expect(validate({ base_url: UNKNOWN, client_id: UNKNOWN, access_token: UNKNOWN })).toEqual([]);
      expect(validate({ client_id: 'only-the-id' })).toEqual([]);
    });

    it('reports a bad URL and contradictory credentials written in the configuration', () => {
      const diags = validate({ base_url: 'not a url', access_token: 'tttttttt', client_id: 'x' });
      expect(errorsOf(diags).map((e) => e.path)).toEqual([['base_url'], ['access_token']]);
    });
  });

  describe('against the service', () => {
    let t: ProviderTest;

    beforeAll(async () => {
      t = await startProviderTest();
      await t.client.createOrganization({ name: 'provider-org' });
    });

    afterAll(async () => {
      await t.close();
    });

    it('works with settings from the environment only', async () => {
      const { createOrgAdminProvider } = await import('../../src/provider/provider');
      const provider = createOrgAdminProvider({
        env: { ORGADMIN_BASE_URL: t.svc.baseUrl, ORGADMIN_REALM: 'acme', ORGADMIN_CLIENT_ID: t.clientId, ORGADMIN_CLIENT_SECRET: t.clientSecret },
      });
      const tf = new ProviderHarness(provider);
      try {
        expect(await tf.configure({})).toEqual([]);
        expect(await lookUpOrganization(tf, 'provider-org')).toEqual([]);
      } finally {
        await tf.close();
      }
    });

    it('uses one token for many calls of one provider process', async () => {
      const tf = await t.harness();
      const before = t.svc.requests.length;
      await Promise.all(Array.from({ length: 10 }, () => lookUpOrganization(tf, 'provider-org')));
      const tokenRequests = t.svc.requests.slice(before).filter((r) => r.url === tokenPath('acme'));
      expect(tokenRequests).toHaveLength(1);
    });

    it('says that the client secret is wrong, without showing it', async () => {
      const wrongSecret = 'wrong-secret-0123456789abcdef';
      const tf = await t.harness({ client_secret: wrongSecret });
      const diagnostics = await lookUpOrganization(tf, 'provider-org');
      expect(errorsOf(diagnostics)).toHaveLength(1);
      expect(errorsOf(diagnostics)[0]!.detail).toContain('invalid_client');
      expect(errorsOf(diagnostics)[0]!.detail).toContain('the client_secret is wrong for it');
      expect(diagnosticsText(diagnostics)).not.toContain(wrongSecret);
      expect(t.logLines.join('\n')).not.toContain(wrongSecret);
      expect(t.logLines.join('\n')).not.toContain(t.clientSecret);
    });

    it('works with an access token and explains a rejected one without showing it', async () => {
      const token = await getToken(t.svc, 'acme', t.clientId, t.clientSecret);
      const good = await t.harness({ client_id: null, client_secret: null, access_token: token });
      expect(await lookUpOrganization(good, 'provider-org')).toEqual([]);

      const badToken = `${token.slice(0, -6)}AAAAAA`;
      const bad = await t.harness({ client_id: null, client_secret: null, access_token: badToken });
      const diagnostics = await lookUpOrganization(bad, 'provider-org');
      expect(errorsOf(diagnostics)).toHaveLength(1);
      expect(errorsOf(diagnostics)[0]!.detail).toContain('HTTP 401');
      expect(errorsOf(diagnostics)[0]!.detail).toContain('access_token');
      expect(diagnosticsText(diagnostics)).not.toContain(badToken);
    });

    it('tells to check base_url when nothing listens there', async () => {
      const port = await new Promise<number>((resolve) => {
        const server = createServer();
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
        });
      });
      const tf = await t.harness({ base_url: `http://127.0.0.1:${port}` });
      const diagnostics = await lookUpOrganization(tf, 'provider-org');
      expect(errorsOf(diagnostics)).toHaveLength(1);
      expect(errorsOf(diagnostics)[0]!.detail).toContain('base_url');
      expect(diagnosticsText(diagnostics)).not.toContain(t.clientSecret);
    });

    it('reports a missing permission on create with the status and the permission to grant', async () => {
      const key = await t.svc.admin.createApiKey('acme', { name: 'viewer-only', permissions: ['view-organizations'] });
      const tf = await t.harness({ client_id: key.clientId, client_secret: key.clientSecret });
      const config = { name: 'not-allowed', realm: 'acme' };
      const { state, diagnostics } = await tf.apply(ORGANIZATION_RESOURCE_TYPE, { priorState: null, plannedState: { ...config, id: UNKNOWN }, config });
      expect(state).toBeNull();
      expect(errorsOf(diagnostics)[0]!.detail).toContain('HTTP 403 insufficient_scope');
      expect(errorsOf(diagnostics)[0]!.detail).toContain('`create-organization`');
    });
  });

  describe('under a rate limit', () => {
    let t: ProviderTest;

    beforeAll(async () => {
      t = await startProviderTest({ rateLimit: { requests: 3, windowSeconds: 60 } });
    });

    afterAll(async () => {
      await t.close();
    });

    it('reports a 429 that outlasts the retries as an error with advice, never as success', async () => {
      const results: HarnessDiagnostic[][] = [];
      for (let i = 0; i < 5; i += 1) results.push(await lookUpOrganization(t.tf, 'anything'));
      const limited = results.filter((diagnostics) => diagnosticsText(diagnostics).includes('HTTP 429'));
      expect(limited.length).toBeGreaterThan(0);
      for (const diagnostics of limited) {
        expect(errorsOf(diagnostics)).toHaveLength(1);
        expect(errorsOf(diagnostics)[0]!.detail).toContain('rate_limited');
        expect(errorsOf(diagnostics)[0]!.detail).toContain('max_retries');
      }
    });
  });
});

describe('what loading the provider definition loads', () => {
  // Terraform starts the provider three times per command; two of those processes only answer
  // schema and validation calls. The SDK (its HTTP stack and the compiled wire schemas) is loaded
  // by configure, in the one process that talks to the service.
  it('loads neither the SDK client nor the wire schemas until configure, and both with it', async () => {
    const { execFile } = await import('node:child_process');
    const root = require('node:path').resolve(__dirname, '..', '..');
    const script = `
      const loaded = () => Object.keys(require.cache).map((k) => k.slice(${JSON.stringify(root)}.length + 1));
      const { orgadminProvider } = require('./src/provider/provider.ts');
      require('./src/tfplugin/framework/provider-service.ts');
      const before = loaded();
      const diags = { error() {}, warning() {}, hasErrors: () => false };
      const logger = { debug() {}, info() {}, warn() {}, error() {} };
      const config = { base_url: 'http://127.0.0.1:9', realm: 'acme', client_id: 'id', client_secret: 'secret', access_token: null, request_timeout: null, max_retries: null };
      orgadminProvider.configure(config, diags, logger).then(async (ctx) => {
        const after = loaded();
        await orgadminProvider.close(ctx);
        process.stdout.write(JSON.stringify({ before, after }));
      });`;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--require', './examples/register.js', '-e', script], { cwd: root, env: { ...process.env, ORGADMIN_BASE_URL: '' } }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    const { before, after } = JSON.parse(output) as { before: string[]; after: string[] };
    const sdk = (files: string[]): string[] => files.filter((f) => f === 'src/client/client.ts' || f === 'src/api/representations.ts' || f.startsWith('node_modules/@sinclair/typebox/'));
    expect(before).toContain('src/provider/resources/organization-members.ts');
    expect(sdk(before)).toEqual([]);
    expect(sdk(after)).toEqual(expect.arrayContaining(['src/client/client.ts', 'src/api/representations.ts']));
  });
});
