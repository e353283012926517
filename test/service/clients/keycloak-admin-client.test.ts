/**
 * `@keycloak/keycloak-admin-client` (the real, latest client, a dev dependency) against the real
 * service on port 0: it sends the user lookup with a trailing slash (`/admin/realms/acme/users/?…`),
 * which the service must treat as the same path, as the real service (JAX-RS) does. The client is
 * ESM-only, so it runs in a child Node process (keycloak-admin-client-runner.mjs).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestRealm, startTestService, type TestService } from '../../helpers/service';

const run = promisify(execFile);
const RUNNER = join(__dirname, 'keycloak-admin-client-runner.mjs');

/** One `users.find` query as the client takes it. */
type Lookup = { email?: string; username?: string; search?: string; exact?: boolean; max?: number };
/** What the runner found for each query: the users' id, username and email. */
type Found = Array<{ id: string; username: string; email?: string }>;

describe('@keycloak/keycloak-admin-client against the service', () => {
  let svc: TestService;
  let key: { clientId: string; clientSecret: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    svc = await startTestService();
    key = await createTestRealm(svc, 'acme', { permissions: ['view-users'] });
    for (const username of ['alice', 'alicia', 'bob']) {
      ids[username] = (await svc.admin.createUser('acme', { username, email: `${username}@example.com` })).id;
    }
  });
  afterAll(async () => {
    await svc.close();
  });

  async function lookUp(lookups: Lookup[], secret = key.clientSecret): Promise<{ results?: Found[]; error?: string }> {
    const { stdout } = await run(process.execPath, [RUNNER], {
      cwd: process.cwd(),
      timeout: 20_000,
      env: {
        ...process.env,
        KC_BASE_URL: svc.baseUrl,
        KC_REALM: 'acme',
        KC_CLIENT_ID: key.clientId,
        KC_CLIENT_SECRET: secret,
        KC_LOOKUPS: JSON.stringify(lookups),
      },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return JSON.parse(stdout.trim()) as { results?: Found[]; error?: string };
  }

  it('signs in with client_credentials and looks users up by email, by username and exactly', async () => {
    const since = svc.requests.length;
    const answer = await lookUp([
      { email: 'bob@example.com' },
      { username: 'ali' },
      { username: 'alice', exact: true },
      { email: 'ALICE@example.com', exact: true },
      { search: 'example.com', max: 2 },
      { email: 'nobody@example.com', exact: true },
    ]);
    expect(answer.error).toBeUndefined();
    const found = answer.results!.map((users) => users.map((user) => user.username));
    expect(found).toEqual([['bob'], ['alice', 'alicia'], ['alice'], ['alice'], ['alice', 'alicia'], []]);
    expect(answer.results![0]).toEqual([{ id: ids.bob, username: 'bob', email: 'bob@example.com' }]);

    // It really used the trailing-slash path that the service used to answer 404.
    const lookups = svc.requests.slice(since).filter((r) => r.url.startsWith('/admin/realms/acme/users'));
    expect(lookups).toHaveLength(6);
    for (const request of lookups) {
      expect(request.url).toMatch(/^\/admin\/realms\/acme\/users\/\?/);
      expect(request.status).toBe(200);
    }
  });

  it('reports a wrong secret as the client sees the service refuse it', async () => {
    const answer = await lookUp([{ email: 'bob@example.com' }], 'wrong-secret');
    expect(answer.results).toBeUndefined();
    expect(answer.error).toMatch(/401|unauthorized_client/i);
  });
});
