import { createServer } from 'node:net';
import { tokenPath } from '../../src/api';
import {
  orgadminProvider,
  PROVIDER_SOURCE_ADDRESS,
  PROVIDER_TYPE_NAME,
  resolveProviderSettings,
  validateProviderConfig,
} from '../../src/provider';
import type { AttributeSchema, ObjectValue } from '../../src/provider/framework/types';
import { UNKNOWN } from '../../src/provider/protocol/unknown';
import { organizationDataSource } from '../../src/provider/data-sources/organization';
import { organizationResource } from '../../src/provider/resources/organization';
import { getToken } from '../helpers/service';
import { Collector, providerConfig, resourceConfig, startHarness, type Harness } from './resources/harness';

/** Looks an organization up by name through the data source: a call that needs the service and a token. */
const lookUpOrganization = async (ctx: Parameters<typeof organizationDataSource.read>[0], name: string): Promise<Collector> => {
  const diags = new Collector();
  await organizationDataSource.read(ctx, { config: resourceConfig(organizationDataSource, { name }) }, diags);
  return diags;
};

describe('orgadmin provider', () => {
  describe('definition', () => {
    it('is named orgadmin and exported with its source address', () => {
      expect(PROVIDER_TYPE_NAME).toBe('orgadmin');
      expect(PROVIDER_SOURCE_ADDRESS).toBe('registry.terraform.io/orgadmin/orgadmin');
      expect(orgadminProvider.typeName).toBe('orgadmin');
      expect(orgadminProvider.resources.map((r) => r.typeName).sort()).toEqual([
        'orgadmin_membership',
        'orgadmin_organization',
        'orgadmin_organization_members',
      ]);
      expect(orgadminProvider.dataSources.map((d) => d.typeName).sort()).toEqual([
        'orgadmin_organization',
        'orgadmin_organization_members',
        'orgadmin_organizations',
        'orgadmin_user',
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
    const resolve = (config: Record<string, unknown>, env: Record<string, string> = {}): { settings: ReturnType<typeof resolveProviderSettings>; diags: Collector } => {
      const diags = new Collector();
      const settings = resolveProviderSettings(providerConfig(config as ObjectValue), env, diags);
      return { settings, diags };
    };

    it('takes every setting from the environment when the configuration leaves it out', () => {
      const { settings, diags } = resolve({}, {
        ORGADMIN_BASE_URL: 'https://acme.example.com/',
        ORGADMIN_CLIENT_ID: 'id',
        ORGADMIN_CLIENT_SECRET: 'very-secret-value',
        ORGADMIN_REQUEST_TIMEOUT: '2.5',
        ORGADMIN_MAX_RETRIES: '5',
      });
      expect(diags.items).toEqual([]);
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
      const { settings, diags } = resolve({ base_url: 'https://acme.example.com', access_token: 'user-token-value' });
      expect(diags.items).toEqual([]);
      expect(settings).toEqual({ baseUrl: 'https://acme.example.com', realm: 'acme', accessToken: 'user-token-value' });
    });

    it('asks for base_url when neither the configuration nor the environment has it', () => {
      const { settings, diags } = resolve({ client_id: 'a', client_secret: 'bbbbbbbb', realm: 'acme' });
      expect(settings).toBeUndefined();
      expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Missing base_url', path: ['base_url'] })]);
      expect(diags.errors[0]!.detail).toContain('ORGADMIN_BASE_URL');
    });

    it('asks for a realm when the base URL\'s host names none', () => {
      const { diags } = resolve({ base_url: 'http://127.0.0.1:8080', client_id: 'a', client_secret: 'bbbbbbbb' });
      expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Missing realm', path: ['realm'] })]);
      expect(diags.errors[0]!.detail).toContain('ORGADMIN_REALM');
    });

    it('refuses a base URL that is not an absolute http(s) URL', () => {
      expect(resolve({ base_url: 'acme.example.com', access_token: 'tttttttt' }).diags.errors).toEqual([
        expect.objectContaining({ summary: 'Invalid base_url', path: ['base_url'] }),
      ]);
      const fromEnv = resolve({ access_token: 'tttttttt' }, { ORGADMIN_BASE_URL: 'ftp://acme.example.com' }).diags.errors;
      expect(fromEnv[0]!.detail).toContain('ORGADMIN_BASE_URL');
    });

    it('never repeats a password written into the base URL', () => {
      const { diags } = resolve({ base_url: 'https://user:hunter2-password@acme.example.com', access_token: 'tttttttt' });
      expect(diags.errors[0]!.path).toEqual(['base_url']);
      expect(diags.text()).not.toContain('hunter2-password');
    });

    it('never repeats a password written into a base URL that does not parse as http(s)', () => {
      for (const baseUrl of ['user:hunter2-password@acme.example.com', 'ftp://user:hunter2-password@acme.example.com', 'https://user:hunter2-password@acme example.com']) {
        const { diags } = resolve({ base_url: baseUrl, access_token: 'tttttttt' });
        expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Invalid base_url', path: ['base_url'] })]);
        expect(diags.text()).not.toContain('hunter2');
        const validation = new Collector();
        validateProviderConfig(providerConfig({ base_url: baseUrl }), validation);
        expect(validation.errors).toHaveLength(1);
        expect(validation.text()).not.toContain('hunter2');
      }
    });

    it('refuses an access token together with client credentials, naming where each came from', () => {
      const { settings, diags } = resolve(
        { base_url: 'https://acme.example.com', client_id: 'id', client_secret: 'the-client-secret' },
        { ORGADMIN_ACCESS_TOKEN: 'the-access-token' },
      );
      expect(settings).toBeUndefined();
      expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Conflicting credentials', path: ['access_token'] })]);
      expect(diags.errors[0]!.detail).toContain('ORGADMIN_ACCESS_TOKEN');
      expect(diags.text()).not.toContain('the-client-secret');
      expect(diags.text()).not.toContain('the-access-token');
    });

    it('asks for the missing half of an API key', () => {
      expect(resolve({ base_url: 'https://acme.example.com', client_id: 'id' }).diags.errors).toEqual([
        expect.objectContaining({ summary: 'Missing client_secret', path: ['client_secret'] }),
      ]);
      expect(resolve({ base_url: 'https://acme.example.com' }, { ORGADMIN_CLIENT_SECRET: 'ssssssss' }).diags.errors).toEqual([
        expect.objectContaining({ summary: 'Missing client_id', path: ['client_id'] }),
      ]);
      expect(resolve({ base_url: 'https://acme.example.com' }).diags.errors).toEqual([
        expect.objectContaining({ summary: 'Missing credentials', path: ['client_id'] }),
      ]);
    });

    it('refuses invalid timeouts and retry counts from either source', () => {
      const base = { base_url: 'https://acme.example.com', access_token: 'tttttttt' };
      expect(resolve({ ...base, request_timeout: 0 }).diags.errors[0]!.path).toEqual(['request_timeout']);
      expect(resolve({ ...base, max_retries: 1.5 }).diags.errors[0]!.path).toEqual(['max_retries']);
      expect(resolve(base, { ORGADMIN_MAX_RETRIES: 'many' }).diags.errors[0]!.detail).toContain('ORGADMIN_MAX_RETRIES');
    });

    it('never turns a tiny request_timeout into no timeout', () => {
      const { settings } = resolve({ base_url: 'https://acme.example.com', access_token: 'tttttttt', request_timeout: 0.0001 });
      expect(settings!.timeoutMs).toBe(1);
    });

    it('reports every problem at once', () => {
      const { diags } = resolve({ base_url: 'nope', client_id: 'id', request_timeout: -1 });
      expect(diags.errors.map((e) => e.path![0]).sort()).toEqual(['base_url', 'client_secret', 'request_timeout']);
    });

    it('refuses values that are only known after apply when configuring', () => {
      const { diags } = resolve({ base_url: UNKNOWN, access_token: 'tttttttt', realm: 'acme' });
      expect(diags.errors).toEqual([expect.objectContaining({ summary: 'base_url is not known yet', path: ['base_url'] })]);
    });
  });

  describe('validate', () => {
    const validate = (config: Record<string, unknown>): Collector => {
      const diags = new Collector();
      validateProviderConfig(providerConfig(config as ObjectValue), diags);
      return diags;
    };

    it('skips unknown values and settings that the environment may still supply', () => {
      expect(validate({ base_url: UNKNOWN, client_id: UNKNOWN, access_token: UNKNOWN }).items).toEqual([]);
      expect(validate({ client_id: 'only-the-id' }).items).toEqual([]);
    });

    it('reports a bad URL and contradictory credentials written in the configuration', () => {
      const diags = validate({ base_url: 'not a url', access_token: 'tttttttt', client_id: 'x' });
      expect(diags.errors.map((e) => e.path)).toEqual([['base_url'], ['access_token']]);
    });
  });

  describe('against the service', () => {
    let h: Harness;

    beforeAll(async () => {
      h = await startHarness();
      await h.ctx.client.createOrganization({ name: 'provider-org' });
    });

    afterAll(async () => {
      await h.close();
    });

    it('works with settings from the environment only', async () => {
      const { createOrgAdminProvider } = await import('../../src/provider/provider');
      const provider = createOrgAdminProvider({
        env: { ORGADMIN_BASE_URL: h.svc.baseUrl, ORGADMIN_REALM: 'acme', ORGADMIN_CLIENT_ID: h.clientId, ORGADMIN_CLIENT_SECRET: h.clientSecret },
      });
      const diags = new Collector();
      const ctx = await provider.configure(providerConfig({}), diags, h.logger);
      try {
        expect(diags.items).toEqual([]);
        expect((await lookUpOrganization(ctx!, 'provider-org')).items).toEqual([]);
      } finally {
        await provider.close!(ctx);
      }
    });

    it('uses one token for many calls of one provider process', async () => {
      const ctx = await h.configure({ client_id: h.clientId, client_secret: h.clientSecret });
      const before = h.svc.requests.length;
      await Promise.all(Array.from({ length: 10 }, () => lookUpOrganization(ctx!, 'provider-org')));
      const tokenRequests = h.svc.requests.slice(before).filter((r) => r.url === tokenPath('acme'));
      expect(tokenRequests).toHaveLength(1);
    });

    it('says that the client secret is wrong, without showing it', async () => {
      const wrongSecret = 'wrong-secret-0123456789abcdef';
      const ctx = await h.configure({ client_id: h.clientId, client_secret: wrongSecret });
      const diags = await lookUpOrganization(ctx!, 'provider-org');
      expect(diags.errors).toHaveLength(1);
      expect(diags.errors[0]!.detail).toContain('unauthorized_client');
      expect(diags.errors[0]!.detail).toContain('client_secret is wrong');
      expect(diags.text()).not.toContain(wrongSecret);
      expect(h.logger.lines.join('\n')).not.toContain(wrongSecret);
      expect(h.logger.lines.join('\n')).not.toContain(h.clientSecret);
    });

    it('works with an access token and explains a rejected one without showing it', async () => {
      const token = await getToken(h.svc, 'acme', h.clientId, h.clientSecret);
      const good = await h.configure({ access_token: token });
      expect((await lookUpOrganization(good!, 'provider-org')).items).toEqual([]);

      const badToken = `${token.slice(0, -6)}AAAAAA`;
      const bad = await h.configure({ access_token: badToken });
      const diags = await lookUpOrganization(bad!, 'provider-org');
      expect(diags.errors).toHaveLength(1);
      expect(diags.errors[0]!.detail).toContain('HTTP 401');
      expect(diags.errors[0]!.detail).toContain('access_token');
      expect(diags.text()).not.toContain(badToken);
    });

    it('tells to check base_url when nothing listens there', async () => {
      const port = await new Promise<number>((resolve) => {
        const server = createServer();
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
        });
      });
      const ctx = await h.configure({ base_url: `http://127.0.0.1:${port}`, client_id: h.clientId, client_secret: h.clientSecret });
      const diags = await lookUpOrganization(ctx!, 'provider-org');
      expect(diags.errors).toHaveLength(1);
      expect(diags.errors[0]!.detail).toContain('base_url');
      expect(diags.text()).not.toContain(h.clientSecret);
    });

    it('reports a missing permission on create with the status and the permission to grant', async () => {
      const key = await h.svc.admin.createApiKey('acme', { name: 'viewer-only', permissions: ['view-organizations'] });
      const ctx = await h.configure({ client_id: key.clientId, client_secret: key.clientSecret });
      const config = resourceConfig(organizationResource, { name: 'not-allowed', realm: 'acme' });
      const diags = new Collector();
      expect(await organizationResource.create(ctx!, { plannedState: { ...config, id: UNKNOWN }, config }, diags)).toBeNull();
      expect(diags.errors[0]!.detail).toContain('HTTP 403 insufficient_scope');
      expect(diags.errors[0]!.detail).toContain('`create-organization`');
    });
  });

  describe('under a rate limit', () => {
    let h: Harness;

    beforeAll(async () => {
      h = await startHarness({ rateLimit: { requests: 3, windowSeconds: 60 } });
    });

    afterAll(async () => {
      await h.close();
    });

    it('reports a 429 that outlasts the retries as an error with advice, never as success', async () => {
      const results: Collector[] = [];
      for (let i = 0; i < 5; i += 1) results.push(await lookUpOrganization(h.ctx, 'anything'));
      const limited = results.filter((diags) => diags.text().includes('HTTP 429'));
      expect(limited.length).toBeGreaterThan(0);
      for (const diags of limited) {
        expect(diags.errors).toHaveLength(1);
        expect(diags.errors[0]!.detail).toContain('rate_limited');
        expect(diags.errors[0]!.detail).toContain('max_retries');
      }
    });
  });
});
