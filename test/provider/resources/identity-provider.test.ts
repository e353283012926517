/**
 * `orgadmin_organization_identity_provider` and `…_mapper` through the plugin protocol (the
 * framework's harness) against the real service, for what the end-to-end tests with terraform
 * cannot arrange: a create whose answer is lost after the write (a fault proxy drops the
 * connection) is settled by reading, never repeated and never left for the next apply to trip
 * over; an alias or mapper name that exists outside the configuration fails on its attribute with
 * the advice that fits whose it is. The service's own data is read afterwards through the SDK.
 */
import { errorsOf, stateOf } from '../../../src/tfplugin/testing/harness';
import { IDENTITY_PROVIDER_RESOURCE_TYPE as IDP } from '../../../src/provider/resources/identity-provider';
import { IDENTITY_PROVIDER_MAPPER_RESOURCE_TYPE as MAPPER } from '../../../src/provider/resources/identity-provider-mapper';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy';
import { startProviderTest, type ProviderTest } from '../harness';

const SECRET = 'upstream client secret';

describe('identity providers and mappers under lost answers and taken names', () => {
  let t: ProviderTest;
  let orgId: string;
  let otherOrgId: string;

  beforeAll(async () => {
    t = await startProviderTest();
    orgId = await t.client.createOrganization({ name: 'globex' });
    otherOrgId = await t.client.createOrganization({ name: 'initech' });
  });
  afterAll(async () => {
    await t.close();
  });

  const idpConfig = (alias: string, extra: Record<string, unknown> = {}) => ({
    organization_id: orgId,
    alias,
    display_name: 'Globex Okta',
    issuer: 'https://login.globex.example',
    client_id: 'broker',
    client_secret_wo: SECRET,
    client_secret_wo_version: 1,
    ...extra,
  });

  /** A proxy that lets every request through but drops the answer of the first POST to a path ending in `suffix`. */
  const losingFirst = (suffix: string): Promise<FaultProxy> =>
    startFaultProxy({ upstream: t.svc.baseUrl, rate: 1, seed: 1, kinds: ['lost-answer'], eligible: (method, path) => method === 'POST' && path.endsWith(suffix) });

  const posts = (path: string): number => t.svc.requests.filter((r) => r.method === 'POST' && r.url === path).length;

  it('recognises its own identity provider when the create answer was lost after the write', async () => {
    const proxy = await losingFirst('/idps');
    try {
      const tf = await t.harness({ base_url: proxy.baseUrl, max_retries: 2 });
      const before = posts(`/realms/acme/orgs/${orgId}/idps`);
      const result = await tf.planThenApply(IDP, { priorState: null, config: idpConfig('lost-okta') });
      expect(errorsOf(result.diagnostics)).toEqual([]);
      expect(proxy.injected['lost-answer']).toBe(1);
      expect(stateOf(result)).toMatchObject({ id: `${orgId}/lost-okta`, alias: 'lost-okta', client_id: 'broker', client_secret_wo: null, client_secret_wo_version: 1 });
      // Sent once: the SDK never repeats a create, a read settled it.
      expect(posts(`/realms/acme/orgs/${orgId}/idps`) - before).toBe(1);
    } finally {
      await proxy.close();
    }
    expect(await t.client.getIdentityProvider(orgId, 'lost-okta')).toMatchObject({ alias: 'lost-okta', displayName: 'Globex Okta', enabled: true });
    // The next plan is empty: the state is the provider's.
    const state = stateOf(await t.tf.read(IDP, { ...(await t.tf.importState(IDP, `${orgId}/lost-okta`)).state!, client_secret_wo_version: 1 }));
    expect((await t.tf.plan(IDP, { priorState: state, config: idpConfig('lost-okta') })).changed).toBe(false);
  });

  it('does not adopt a provider of the alias whose settings are not the create\'s', async () => {
    // The create is refused with an answer that leaves its outcome unknown (503 from a proxy), and the
    // alias is there with another client id: somebody else's, so the create fails and nothing is taken over.
    await t.client.createIdentityProvider(orgId, { alias: 'theirs', enabled: true, config: { clientId: 'someone-else', issuer: 'https://login.globex.example' } });
    const proxy = await startFaultProxy({ upstream: t.svc.baseUrl, rate: 1, seed: 1, kinds: ['unavailable'], eligible: (method, path) => method === 'POST' && path.endsWith('/idps') });
    try {
      const tf = await t.harness({ base_url: proxy.baseUrl, max_retries: 0 });
      const result = await tf.planThenApply(IDP, { priorState: null, config: idpConfig('theirs') });
      expect(result.state).toBeNull();
      expect(errorsOf(result.diagnostics)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
    expect((await t.client.getIdentityProvider(orgId, 'theirs')).config).toMatchObject({ clientId: 'someone-else' });
  });

  it('fails an alias the organization already has with the import advice, and another organization\'s with "choose another alias"', async () => {
    await t.client.createIdentityProvider(orgId, { alias: 'by-hand', enabled: true, config: { clientId: 'broker', issuer: 'https://login.globex.example' } });
    const ours = await t.tf.planThenApply(IDP, { priorState: null, config: idpConfig('by-hand') });
    expect(ours.state).toBeNull();
    const [own] = errorsOf(ours.diagnostics);
    expect(own).toMatchObject({ summary: 'Identity provider alias already taken', path: ['alias'] });
    expect(own!.detail).toContain(`terraform import ${IDP}.<name> ${orgId}/by-hand`);
    expect(own!.detail).toContain(`id = "${orgId}/by-hand"`);

    await t.client.createIdentityProvider(otherOrgId, { alias: 'initech-okta', enabled: true, config: { clientId: 'broker', issuer: 'https://login.initech.example' } });
    const theirs = await t.tf.planThenApply(IDP, { priorState: null, config: idpConfig('initech-okta') });
    const [other] = errorsOf(theirs.diagnostics);
    expect(other).toMatchObject({ summary: 'Identity provider alias already taken', path: ['alias'] });
    expect(other!.detail).toContain('choose another `alias`');
    expect(other!.detail).not.toContain('terraform import');
    // Nothing changed on either organization's provider.
    expect((await t.client.getIdentityProvider(otherOrgId, 'initech-okta')).config).toMatchObject({ issuer: 'https://login.initech.example' });
  });

  describe('mappers', () => {
    const mapperConfig = (name: string) => ({
      organization_id: orgId,
      identity_provider_alias: 'mapped',
      name,
      mapper_type: 'oidc-user-attribute-idp-mapper',
      config: { claim: 'given_name', 'user.attribute': 'firstName' },
    });
    const mappersPath = (): string => `/realms/acme/orgs/${orgId}/idps/mapped/mappers`;

    beforeAll(async () => {
      await t.client.createIdentityProvider(orgId, { alias: 'mapped', enabled: true, config: { clientId: 'broker', issuer: 'https://login.globex.example' } });
    });

    it('recognises its own mapper when the create answer was lost after the write', async () => {
      const proxy = await losingFirst('/mappers');
      try {
        const tf = await t.harness({ base_url: proxy.baseUrl, max_retries: 2 });
        const before = posts(mappersPath());
        const result = await tf.planThenApply(MAPPER, { priorState: null, config: mapperConfig('first name') });
        expect(errorsOf(result.diagnostics)).toEqual([]);
        expect(proxy.injected['lost-answer']).toBe(1);
        expect(posts(mappersPath()) - before).toBe(1);
        const state = stateOf(result);
        expect(state).toMatchObject({ name: 'first name', config: { claim: 'given_name', 'user.attribute': 'firstName' } });
        expect(await t.client.getIdentityProviderMapper(orgId, 'mapped', state['id'] as string)).toMatchObject({ name: 'first name' });
      } finally {
        await proxy.close();
      }
      expect((await t.client.listIdentityProviderMappers(orgId, 'mapped')).filter((m) => m.name === 'first name')).toHaveLength(1);
    });

    it('fails a mapper name the provider already has with the import advice naming its id', async () => {
      const id = await t.client.createIdentityProviderMapper(orgId, 'mapped', { name: 'by hand', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'family_name', 'user.attribute': 'lastName' } });
      const result = await t.tf.planThenApply(MAPPER, { priorState: null, config: mapperConfig('by hand') });
      expect(result.state).toBeNull();
      const [error] = errorsOf(result.diagnostics);
      expect(error).toMatchObject({ summary: 'Mapper name already taken', path: ['name'] });
      expect(error!.detail).toContain(`terraform import ${MAPPER}.<name> ${orgId}/mapped/${id}`);
      // The mapper made by hand is untouched.
      expect((await t.client.getIdentityProviderMapper(orgId, 'mapped', id)).config).toEqual({ claim: 'family_name', 'user.attribute': 'lastName' });
    });
  });
});
