/**
 * The SDK against the real service (fastify + SQLite in a temp dir) on a free port: every method,
 * the token source seen from the service's side, permissions and credentials errors.
 */
import { Agent } from 'undici';
import { orgAdminUsername, tokenPath, type Member } from '../../src/api';
import {
  ClientCredentialsTokenSource,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  OrgAdminClient,
  StaticTokenSource,
  TokenError,
  UnauthorizedError,
} from '../../src/client';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';

/** Token requests the service answered for one API key. */
function tokenRequestsSeen(svc: TestService, realm: string, clientId: string): number {
  return svc.requests.filter((r) => r.method === 'POST' && r.url === tokenPath(realm) && r.clientId === clientId).length;
}

/** A user access token from the password grant of the public client (what an end user holds). */
async function userToken(svc: TestService, realm: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${svc.baseUrl}${tokenPath(realm)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username, password }).toString(),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`password grant failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

describe('OrgAdminClient against the real service', () => {
  let svc: TestService;
  let tokenAgent: Agent;
  let key: { realm: string; clientId: string; clientSecret: string };
  let tokens: ClientCredentialsTokenSource;
  let client: OrgAdminClient;
  let ann: Member;
  let bob: Member;
  /** How far the service's clock runs ahead of the real one (tests move it instead of waiting). */
  let serviceClockAheadMs = 0;

  beforeAll(async () => {
    svc = await startTestService({ now: () => Date.now() + serviceClockAheadMs });
    tokenAgent = new Agent();
    key = await createTestRealm(svc, 'acme');
    ann = await svc.admin.createUser('acme', { username: 'ann', email: 'ann@example.com', firstName: 'Ann', password: 'ann-pw' });
    bob = await svc.admin.createUser('acme', { username: 'bob', email: 'bob@example.com' });
    tokens = new ClientCredentialsTokenSource({
      baseUrl: svc.baseUrl,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
      dispatcher: tokenAgent,
    });
    // No dispatcher: the client's own agent, closed by client.close().
    client = new OrgAdminClient({ baseUrl: svc.baseUrl, realm: 'acme', tokenSource: tokens, maxRetries: 0 });
  });

  afterAll(async () => {
    await client?.close();
    await tokenAgent?.close();
    await svc?.close();
  });

  it('runs the whole organization and membership lifecycle', async () => {
    const id = await client.createOrganization({
      name: 'globex',
      displayName: 'Globex Corporation',
      url: 'https://globex.example.com',
      domains: ['globex.example.com'],
      attributes: { tier: ['gold plus'], region: ['eu'] },
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const created = await client.getOrganization(id);
    expect(created).toMatchObject({
      id,
      name: 'globex',
      displayName: 'Globex Corporation',
      url: 'https://globex.example.com',
      domains: ['globex.example.com'],
      attributes: { tier: ['gold plus'], region: ['eu'] },
      realm: 'acme',
    });

    await expect(client.createOrganization({ name: 'globex' })).rejects.toBeInstanceOf(ConflictError);

    expect((await client.listOrganizations({ search: 'GLOBEX' })).map((o) => o.id)).toEqual([id]);
    expect((await client.listOrganizations({ q: { tier: 'gold plus', region: 'eu' } })).map((o) => o.id)).toEqual([id]);
    expect(await client.listOrganizations({ q: { tier: 'silver' } })).toEqual([]);
    expect(await client.countOrganizations({ q: 'region:eu' })).toBe(1);

    await client.updateOrganization(id, { name: 'globex', displayName: 'Globex Inc.', attributes: { tier: ['silver'] } });
    expect(await client.getOrganization(id)).toMatchObject({
      displayName: 'Globex Inc.',
      url: null,
      domains: ['globex.example.com'],
      attributes: { tier: ['silver'] },
    });

    // A new organization counts its default admin user.
    expect(await client.countMembers(id)).toBe(1);
    expect(await client.isMember(id, ann.id)).toBe(false);
    await client.addMember(id, ann.id);
    await client.addMember(id, ann.id); // idempotent
    await client.addMember(id, bob.id);
    expect(await client.isMember(id, ann.id)).toBe(true);
    expect(await client.countMembers(id)).toBe(3);
    expect(await client.countMembers(id, { excludeAdminAccounts: true })).toBe(2);

    const members = await client.listMembers(id, { excludeAdminAccounts: true, includeOrgs: true });
    expect(members.map((m) => m.username)).toEqual(['ann', 'bob']);
    // Organization id → roles (none: the service has no organization roles).
    expect(members[0]!.organizations).toEqual({ [id]: [] });
    expect((await client.listMembers(id, { search: 'ann@' })).map((m) => m.id)).toEqual([ann.id]);
    const everyone = await client.listAllMembers(id, { pageSize: 1 });
    expect(everyone.map((m) => m.username).sort()).toEqual(['ann', 'bob', orgAdminUsername(id)].sort());

    expect((await client.findUsers({ email: 'ann@example.com', exact: true })).map((u) => u.id)).toEqual([ann.id]);

    const link = await client.createPortalLink(id, { userId: ann.id, baseUri: 'https://app.example.com' });
    expect(link.user).toBe(ann.id);
    expect(link.link).toMatch(/^http/);
    const adminLink = await client.createPortalLink(id);
    expect(adminLink.user).toBe(everyone.find((m) => m.username === orgAdminUsername(id))!.id);

    const annAsUser = new OrgAdminClient({
      baseUrl: svc.baseUrl,
      realm: 'acme',
      tokenSource: new StaticTokenSource(await userToken(svc, 'acme', 'ann', 'ann-pw')),
    });
    try {
      const info = await annAsUser.getMemberInfo();
      expect(Object.keys(info)).toEqual([id]);
      expect(info[id]).toMatchObject({ name: 'globex' });
    } finally {
      await annAsUser.close();
    }

    await client.removeMember(id, bob.id);
    expect(await client.isMember(id, bob.id)).toBe(false);
    const adminUser = everyone.find((m) => m.username === orgAdminUsername(id))!;
    await expect(client.removeMember(id, adminUser.id)).rejects.toBeInstanceOf(ForbiddenError);

    await client.deleteOrganization(id);
    await expect(client.getOrganization(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.deleteOrganization(id)).rejects.toMatchObject({ status: 404, code: 'ORGADMIN_NOT_FOUND' });
    expect(await client.isMember(id, ann.id)).toBe(false);
  });

  it('pages through every organization: 150 organizations in pages of 100', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 150; i += 1) {
      ids.add(await client.createOrganization({ name: `paged-${String(i).padStart(3, '0')}`, attributes: { batch: ['paging'] } }));
    }
    const before = svc.requests.length;

    const all = await client.listAllOrganizations({ q: { batch: 'paging' } });

    expect(all).toHaveLength(150);
    expect(new Set(all.map((o) => o.id))).toEqual(ids);
    expect(all.map((o) => o.name)).toEqual([...all.map((o) => o.name)].sort());
    const listRequests = svc.requests.slice(before).filter((r) => r.method === 'GET' && r.url.startsWith('/realms/acme/orgs?'));
    expect(listRequests).toHaveLength(2);
    expect(await client.countOrganizations({ q: { batch: 'paging' } })).toBe(150);
  });

  it('sends one token request for many concurrent calls, as the service counts them', async () => {
    const freshTokens = new ClientCredentialsTokenSource({
      baseUrl: svc.baseUrl,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
      dispatcher: tokenAgent,
    });
    const fresh = new OrgAdminClient({ baseUrl: svc.baseUrl, realm: 'acme', tokenSource: freshTokens });
    const before = tokenRequestsSeen(svc, 'acme', key.clientId);
    try {
      await Promise.all(Array.from({ length: 12 }, () => fresh.countOrganizations()));
      await fresh.listOrganizations({ max: 1 });
    } finally {
      await fresh.close();
    }

    expect(tokenRequestsSeen(svc, 'acme', key.clientId) - before).toBe(1);
    expect(freshTokens.tokenRequests).toBe(1);
  });

  it('refuses writes of a view-only API key with ForbiddenError, and lets it read', async () => {
    const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
    const target = await client.createOrganization({ name: 'viewer-target' });
    const viewerClient = new OrgAdminClient({
      baseUrl: svc.baseUrl,
      realm: 'acme',
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: viewer.clientId, clientSecret: viewer.clientSecret, dispatcher: tokenAgent }),
    });
    try {
      await expect(viewerClient.getOrganization(target)).resolves.toMatchObject({ name: 'viewer-target' });
      const refusals = await Promise.all([
        viewerClient.createOrganization({ name: 'not-allowed' }).catch((e: unknown) => e),
        viewerClient.updateOrganization(target, { name: 'renamed' }).catch((e: unknown) => e),
        viewerClient.deleteOrganization(target).catch((e: unknown) => e),
        viewerClient.addMember(target, ann.id).catch((e: unknown) => e),
        viewerClient.createPortalLink(target).catch((e: unknown) => e),
        viewerClient.findUsers({ username: 'ann' }).catch((e: unknown) => e),
      ]);
      for (const refusal of refusals) {
        expect(refusal).toBeInstanceOf(ForbiddenError);
        expect(refusal).toMatchObject({ status: 403, code: 'ORGADMIN_FORBIDDEN' });
      }
    } finally {
      await viewerClient.close();
    }
    // Nothing changed.
    expect(await client.getOrganization(target)).toMatchObject({ name: 'viewer-target' });
    expect(await client.countOrganizations({ search: 'not-allowed' })).toBe(0);
  });

  it('reports a wrong secret as TokenError invalid_client (as an unknown client, RFC 6749 §5.2), without the secret', async () => {
    const wrongSecret = `${key.clientSecret}-wrong`;
    const wrong = new OrgAdminClient({
      baseUrl: svc.baseUrl,
      realm: 'acme',
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: key.clientId, clientSecret: wrongSecret, dispatcher: tokenAgent }),
    });
    try {
      const error = await wrong.listOrganizations().catch((e: unknown) => e);

      expect(error).toBeInstanceOf(TokenError);
      expect(error).toMatchObject({ code: 'ORGADMIN_TOKEN', status: 401, error: 'invalid_client', realm: 'acme' });
      expect((error as Error).message).not.toContain(wrongSecret);
      expect(JSON.stringify(error)).not.toContain(wrongSecret);
    } finally {
      await wrong.close();
    }
  });

  it('reports an unknown API key as TokenError invalid_client', async () => {
    const unknown = new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: 'no-such-key', clientSecret: 'x', dispatcher: tokenAgent });

    await expect(unknown.getToken('acme')).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
  });

  it('gives UnauthorizedError for a token the service does not accept', async () => {
    const forged = new OrgAdminClient({ baseUrl: svc.baseUrl, realm: 'acme', tokenSource: new StaticTokenSource('not-a-jwt') });
    try {
      const error = await forged.listOrganizations().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ status: 401, error: 'invalid_token' });
    } finally {
      await forged.close();
    }
  });

  it('fetches a fresh token and retries once when the service rejects an expired one', async () => {
    // Two seconds: a token is then good for at least one second after it is issued, so only the
    // deliberate move of the service's clock below can expire it.
    const shortLived = await createTestRealm(svc, 'brief', { tokenLifetimeSeconds: 2 });
    // A clock that stands still: the cache believes its token is still good after it expired.
    const frozen = Date.now();
    const stale = new ClientCredentialsTokenSource({
      baseUrl: svc.baseUrl,
      clientId: shortLived.clientId,
      clientSecret: shortLived.clientSecret,
      dispatcher: tokenAgent,
      refreshSkewSeconds: 0,
      now: () => frozen,
    });
    const briefClient = new OrgAdminClient({ baseUrl: svc.baseUrl, realm: 'brief', tokenSource: stale });
    try {
      await briefClient.countOrganizations();
      expect(stale.tokenRequests).toBe(1);
      serviceClockAheadMs += 2_100; // the token expires for the service; the client's clock stands still

      await expect(briefClient.countOrganizations()).resolves.toBe(0);

      expect(stale.tokenRequests).toBe(2);
      expect(tokenRequestsSeen(svc, 'brief', shortLived.clientId)).toBe(2);
      expect(svc.requests.filter((r) => r.url === '/realms/brief/orgs/count').map((r) => r.status)).toEqual([200, 401, 200]);
    } finally {
      await briefClient.close();
    }
  });
});

describe('OrgAdminClient against a rate-limited service', () => {
  let svc: TestService;
  let tokenAgent: Agent;

  beforeAll(async () => {
    svc = await startTestService({ rateLimit: { requests: 3, windowSeconds: 1 } });
    tokenAgent = new Agent();
  });
  afterAll(async () => {
    await tokenAgent?.close();
    await svc?.close();
  });

  it('waits for Retry-After on 429 and then succeeds', async () => {
    const key = await createTestRealm(svc, 'acme');
    const client = new OrgAdminClient({
      baseUrl: svc.baseUrl,
      realm: 'acme',
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: key.clientId, clientSecret: key.clientSecret, dispatcher: tokenAgent }),
      retryMaxDelayMs: 2_000,
    });
    try {
      // One token request and four reads: the limit of three per second is hit.
      for (let i = 0; i < 4; i += 1) await expect(client.countOrganizations()).resolves.toBe(0);
    } finally {
      await client.close();
    }

    const limited = svc.requests.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(svc.requests.filter((r) => r.url === '/realms/acme/orgs/count' && r.status === 200)).toHaveLength(4);
  });

  it('waits for Retry-After when the token request itself is rate limited, and then succeeds', async () => {
    const key = await createTestRealm(svc, 'beta');
    const newClient = (): OrgAdminClient =>
      new OrgAdminClient({
        baseUrl: svc.baseUrl,
        realm: 'beta',
        tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: key.clientId, clientSecret: key.clientSecret, dispatcher: tokenAgent }),
        retryMaxDelayMs: 2_000,
      });
    // The token endpoint counts against the same per-key limit as the API: a first process uses
    // up the three requests of the window (token + two reads), a second one then asks for a token.
    const first = newClient();
    const second = newClient();
    try {
      await first.countOrganizations();
      await first.countOrganizations();
      await expect(second.countOrganizations()).resolves.toBe(0);
    } finally {
      await first.close();
      await second.close();
    }

    const tokenAnswers = svc.requests.filter((r) => r.url === tokenPath('beta')).map((r) => r.status);
    expect(tokenAnswers).toEqual([200, 429, 200]);
  });
});
