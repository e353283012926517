/**
 * Verified domains and identity providers record their admin events (issue 31's writes under issue
 * 30's audit log), on SQLite and on PostgreSQL, through the real service's routes and a DNS server
 * started by the test: a domain verified, a provider created, updated, unlinked, linked and
 * deleted, a mapper created, updated and deleted each record one event in the change's
 * transaction, naming the API key that made it and its address; a change that changes nothing, or
 * is refused as a conflict, records nothing. The provider's client secret is in no event, nor in a
 * webhook's delivery of one. A brokered first sign-in's membership records its event too.
 */
import {
  domainRecordName,
  domainRecordValue,
  domainVerifyPath,
  eventsPath,
  idpLinkPath,
  idpMapperPath,
  idpMappersPath,
  idpPath,
  idpsPath,
  idpUnlinkPath,
  orgsPath,
  type EventRepresentation,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/api';
import { httpDeliver } from '../../src/service/events/delivery';
import { WebhookDispatcher } from '../../src/service/events/webhook-dispatcher';
import { newUser } from '../../src/service/store/store';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server';
import { startReceiver } from '../helpers/webhook-receiver';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { call } from './support';

jest.setTimeout(120_000);

const SECRET = 'upstream-client-secret-5d1e';
const NEW_SECRET = 'rotated-client-secret-8c2b';
const SSO_TYPES = /^admin\.(DOMAIN|IDENTITY_PROVIDER|IDENTITY_PROVIDER_MAPPER)-/;

let postgres: TestPostgres;
let dns: TestDnsServer;

beforeAll(async () => {
  postgres = await startPostgres();
  dns = await startDnsServer();
});
afterAll(async () => {
  await dns.close();
  await postgres.stop();
});

describe.each(['sqlite', 'postgres'] as const)('domain and identity provider events on %s', (kind) => {
  let svc: TestService;
  let token: string;
  let clientId: string;
  let orgId: string;

  const events = async (): Promise<EventRepresentation[]> => {
    const res = await call(svc, { method: 'GET', url: `${eventsPath('acme')}?max=1000`, token });
    expect(res.status).toBe(200);
    return (res.json as EventRepresentation[]).reverse();
  };

  beforeAll(async () => {
    svc = await startTestService({
      dataFile: kind === 'postgres' ? await postgres.createSchema() : undefined,
      app: { dnsServer: dns.address, allowPrivateWebhooks: true },
    });
    const key = await createTestRealm(svc, 'acme');
    clientId = key.clientId;
    token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    const created = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: `sso-${kind}`, domains: [`sso-${kind}.example`] } });
    expect(created.status).toBe(201);
    orgId = decodeURIComponent(String(created.headers.location).split('/').pop()!);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('records one event per change with the actor and path, none for a change that changes nothing, and never the client secret', async () => {
    const domain = `sso-${kind}.example`;
    const before = (await events()).length;

    dns.setTxt(domainRecordName(domain), [domainRecordValue(orgId, domain)]);
    expect((await call(svc, { method: 'POST', url: domainVerifyPath('acme', orgId, domain), token })).json).toMatchObject({ verified: true });
    expect((await call(svc, { method: 'POST', url: domainVerifyPath('acme', orgId, domain), token })).json).toMatchObject({ verified: true }); // verified already

    const provider = (clientSecret: string) => ({
      alias: `corp-${kind}`,
      providerId: 'oidc',
      config: { issuer: 'https://idp.corp.example/realms/corp', clientId: 'orgadmin-broker', clientSecret },
    });
    const alias = `corp-${kind}`;
    expect((await call(svc, { method: 'POST', url: idpsPath('acme', orgId), token, payload: provider(SECRET) })).status).toBe(201);
    expect((await call(svc, { method: 'POST', url: idpsPath('acme', orgId), token, payload: provider(SECRET) })).status).toBe(409); // rolled back, no event
    expect(
      (await call(svc, { method: 'PUT', url: idpPath('acme', orgId, alias), token, payload: { ...provider(NEW_SECRET), displayName: 'Corp' } })).status
    ).toBe(204);
    const mapper = { name: 'email', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'email', 'user.attribute': 'email' } };
    const made = await call(svc, { method: 'POST', url: idpMappersPath('acme', orgId, alias), token, payload: mapper });
    expect(made.status).toBe(201);
    const mapperId = decodeURIComponent(String(made.headers.location).split('/').pop()!);
    expect((await call(svc, { method: 'POST', url: idpMappersPath('acme', orgId, alias), token, payload: mapper })).status).toBe(409); // rolled back, no event
    expect((await call(svc, { method: 'PUT', url: idpMapperPath('acme', orgId, alias, mapperId), token, payload: { ...mapper, name: 'mail' } })).status).toBe(
      204
    );
    expect((await call(svc, { method: 'DELETE', url: idpMapperPath('acme', orgId, alias, mapperId), token })).status).toBe(204);
    expect((await call(svc, { method: 'POST', url: idpUnlinkPath('acme', orgId, alias), token })).status).toBe(204);
    expect((await call(svc, { method: 'POST', url: idpLinkPath('acme', orgId), token, payload: { alias } })).status).toBe(201);
    expect((await call(svc, { method: 'POST', url: idpLinkPath('acme', orgId), token, payload: { alias } })).status).toBe(201); // linked already
    expect((await call(svc, { method: 'DELETE', url: idpPath('acme', orgId, alias), token })).status).toBe(204);

    const recorded = (await events()).slice(before);
    const sso = recorded.filter((event) => SSO_TYPES.test(event.type));
    const idpPathOf = `identity-provider/instances/${alias}`;
    const mapperPath = `${idpPathOf}/mappers/${mapperId}`;
    expect(sso.map((event) => [event.type, event.resourcePath])).toEqual([
      ['admin.DOMAIN-UPDATE', `orgs/${orgId}/domains/${domain}`],
      ['admin.IDENTITY_PROVIDER-CREATE', idpPathOf],
      ['admin.IDENTITY_PROVIDER-UPDATE', idpPathOf],
      ['admin.IDENTITY_PROVIDER_MAPPER-CREATE', mapperPath],
      ['admin.IDENTITY_PROVIDER_MAPPER-UPDATE', mapperPath],
      ['admin.IDENTITY_PROVIDER_MAPPER-DELETE', mapperPath],
      ['admin.IDENTITY_PROVIDER-ACTION', `${idpPathOf}/unlink`],
      ['admin.IDENTITY_PROVIDER-ACTION', `${idpPathOf}/link`],
      ['admin.IDENTITY_PROVIDER-DELETE', idpPathOf],
    ]);
    const representations = sso.map((event) => JSON.parse(event.representation!));
    expect(representations[0]).toEqual({
      domain_name: domain,
      verified: true,
      record_key: '_org-domain-ownership',
      record_value: domainRecordValue(orgId, domain),
    });
    expect(representations[1]).toMatchObject({
      alias,
      providerId: 'oidc',
      enabled: true,
      config: { clientId: 'orgadmin-broker', clientSecret: '**********', 'home.idp.discovery.org': orgId },
    });
    expect(representations[2]).toMatchObject({ alias, displayName: 'Corp', config: { clientSecret: '**********' } });
    expect(representations[4]).toEqual({
      id: mapperId,
      name: 'mail',
      identityProviderAlias: alias,
      identityProviderMapper: mapper.identityProviderMapper,
      config: mapper.config,
    });
    expect(representations[5]).toBe(mapperId);
    expect(representations[6].config['home.idp.discovery.org']).toBeUndefined();
    expect(representations[7].config['home.idp.discovery.org']).toBe(orgId);
    expect(representations[8]).toBe(alias);
    for (const event of sso) expect(event.authDetails).toMatchObject({ clientId, ipAddress: '127.0.0.1' });
    // Neither secret, nor its sealed form (which only the store holds), is in any event.
    for (const event of recorded) {
      expect(event.representation ?? '').not.toContain(SECRET);
      expect(event.representation ?? '').not.toContain(NEW_SECRET);
      expect(event.representation ?? '').not.toMatch(/"clientSecret":"(?!\*{10}")/);
    }
  });

  it('delivers an identity provider event to a webhook, signed, with the secret masked', async () => {
    const receiver = await startReceiver();
    const delivery = httpDeliver(true);
    try {
      const hook = await call(svc, {
        method: 'POST',
        url: '/realms/acme/webhooks',
        token,
        payload: { url: receiver.url, secret: 'hook-secret', eventTypes: ['admin.IDENTITY_PROVIDER-*'] },
      });
      expect(hook.status).toBe(201);
      const alias = `hooked-${kind}`;
      const payload = { alias, config: { issuer: 'https://idp.corp.example/realms/corp', clientId: 'orgadmin-broker', clientSecret: SECRET } };
      expect((await call(svc, { method: 'POST', url: idpsPath('acme', orgId), token, payload })).status).toBe(201);
      const dispatcher = new WebhookDispatcher(svc.store.events, { owner: `sso-${kind}`, deliver: delivery.deliver, now: Date.now, random: () => 0.5 });
      for (let run = 0; run < 20 && receiver.deliveries.length === 0; run += 1) await dispatcher.runOnce();
      expect(receiver.deliveries.map((sent) => [sent.event.type, sent.event.resourcePath])).toEqual([
        ['admin.IDENTITY_PROVIDER-CREATE', `identity-provider/instances/${alias}`],
      ]);
      const [sent] = receiver.deliveries;
      expect(verifyWebhookSignature('hook-secret', sent!.body, sent!.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()])).toBe(true);
      expect(sent!.body).not.toContain(SECRET);
      expect(JSON.parse(sent!.event.representation!).config.clientSecret).toBe('**********');
      expect((await call(svc, { method: 'DELETE', url: `/realms/acme/webhooks/${String(hook.headers.location).split('/').pop()}`, token })).status).toBe(204);
    } finally {
      await delivery.close();
      await receiver.close();
    }
  });

  it('records what a brokered first sign-in makes (user, membership, mapped roles) as that user, and a later sign-in nothing', async () => {
    const user = newUser({ id: `fed-${kind}`, realm: 'acme', username: `fed-${kind}`, kind: 'user', createdTimestamp: Date.now() });
    const link = { realm: 'acme', alias: 'upstream', issuer: 'https://idp.example', subject: `sub-${kind}`, userId: user.id };
    await svc.store.sso.createIdentityProvider({
      realm: 'acme',
      alias: 'upstream',
      internalId: `internal-${kind}`,
      organizationId: orgId,
      providerId: 'oidc',
      displayName: null,
      enabled: true,
      trustEmail: false,
      config: { clientId: 'c', issuer: 'https://idp.example' },
      sealedClientSecret: null,
      createdTimestamp: Date.now(),
    });
    const before = (await events()).length;
    const via = { clientId: 'spa', userId: user.id, username: user.username, ipAddress: '198.51.100.7' };
    const skipped = await svc.store.sso.admitFederatedUser(
      { realm: 'acme', newUser: user, userId: user.id, link, organizationId: orgId, timestamp: Date.now(), roles: ['view-members', 'no-such-role'] },
      via,
    );
    expect(skipped).toEqual(['no-such-role']);
    // A later sign-in: already a member and already holding the role, so nothing changes and nothing is recorded.
    expect(await svc.store.sso.admitFederatedUser({ realm: 'acme', userId: user.id, organizationId: orgId, timestamp: Date.now(), roles: ['view-members'] }, via)).toEqual([]);
    const recorded = (await events()).slice(before).filter((event) => event.type.startsWith('admin.'));
    expect(recorded.map((event) => [event.type, event.resourcePath])).toEqual([
      ['admin.USER-CREATE', `users/${user.id}`],
      ['admin.ORGANIZATION_MEMBERSHIP-CREATE', `orgs/${orgId}/members/${user.id}`],
      ['admin.ORGANIZATION_ROLE_MAPPING-CREATE', `orgs/${orgId}/roles/view-members/users/${user.id}`],
    ]);
    for (const event of recorded) expect(event.authDetails).toMatchObject({ realmId: 'acme', clientId: 'spa', userId: user.id, username: user.username, ipAddress: '198.51.100.7' });
  });
});
