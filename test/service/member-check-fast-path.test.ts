/**
 * The membership check's fast path (src/service/member-check-fast-path.ts) against fastify's path:
 * the same app built with the fast path on and off, on one SQLite file and one clock, answers
 * many seeded requests (successes and every kind of failure) byte for byte alike, in standard
 * and hosted mode and with request logging on; and the successes really took the fast path.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PERMISSIONS, tokenPath } from '../../src/api';
import { REVOCATION_RECHECK_MS } from '../../src/service/auth/revocations';
import { Admin } from '../../src/service/admin';
import { buildApp, type AppOptions } from '../../src/service/app';
import { SqliteStore } from '../../src/service/store/sqlite-store';
import { seededRandom } from '../helpers/seeded-random';
import { parseAnswer, rawRequest, type RawAnswer } from './raw-http';

/** One app listening on port 0, with the requests fastify itself answered. */
interface Running {
  app: FastifyInstance;
  url: string;
  port: number;
  /** `METHOD url status` of every answer fastify's onResponse hook saw. */
  answered: string[];
  /** Request log lines (when logging). */
  logLines: string[];
}

/** The rate limit of realm `metered`: requests per window. */
const METERED_LIMIT = 3;
const METERED_WINDOW_SECONDS = 10;

describe('membership check fast path', () => {
  let dir: string;
  let store: SqliteStore;
  let admin: Admin;
  /** The clock of the store and every app (ms): tests step it. */
  let clock = Date.now();
  const now = () => clock;
  const running: Running[] = [];

  async function start(options: Partial<AppOptions>, logging = false): Promise<Running> {
    const logLines: string[] = [];
    const app = await buildApp({
      store,
      now,
      ...options,
      ...(logging ? { logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } } } : {}),
    });
    const answered: string[] = [];
    app.addHook('onResponse', async (request, reply) => {
      answered.push(`${request.method} ${request.url} ${reply.statusCode}`);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const one = { app, url: `http://127.0.0.1:${port}`, port, answered, logLines };
    running.push(one);
    return one;
  }

  /** What the tests send: realm names, organization and user ids, tokens, hosts. */
  let world: {
    memberOrg: string;
    otherOrg: string;
    limitedOrg: string;
    member: string;
    limitedMember: string;
    meteredMember: string;
    meteredStranger: string;
    stranger: string;
    tokens: Record<string, string>;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-fast-path-'));
    store = SqliteStore.open(join(dir, 'service.db'), { now });
    admin = new Admin(store);
    const helper = await start({});
    let keys = 0;
    const token = async (realm: string, permissions: string[]): Promise<string> => {
      keys += 1;
      const key = await admin.createApiKey(realm, { name: `key-${keys}`, permissions });
      const answer = await fetch(`${helper.url}${tokenPath(realm)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
      });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { access_token: string }).access_token;
    };
    for (const realm of ['acme', 'paused', 'limited']) await admin.createRealm(realm, { tokenLifetimeSeconds: 3600 });
    await admin.createRealm('short', { tokenLifetimeSeconds: 1 });
    await admin.updateRealm('limited', { rateLimit: { requests: 1, windowSeconds: 60 } });
    await admin.createRealm('metered', { tokenLifetimeSeconds: 3600 });
    await admin.updateRealm('metered', { rateLimit: { requests: METERED_LIMIT, windowSeconds: METERED_WINDOW_SECONDS } });
    const member = (await admin.createUser('acme', { username: 'member' })).id;
    const stranger = (await admin.createUser('acme', { username: 'stranger' })).id;
    const limitedMember = (await admin.createUser('limited', { username: 'member' })).id;
    const meteredMember = (await admin.createUser('metered', { username: 'member' })).id;
    const meteredStranger = (await admin.createUser('metered', { username: 'stranger' })).id;
    const tokens: Record<string, string> = {
      good: await token('acme', [...PERMISSIONS]),
      viewOnly: await token('acme', ['view-organizations']),
      manageOnly: await token('acme', ['manage-organizations']),
      noPermission: await token('acme', ['view-users']),
      revoked: await token('acme', [...PERMISSIONS]),
      expired: await token('short', [...PERMISSIONS]),
      paused: await token('paused', [...PERMISSIONS]),
      limited: await token('limited', [...PERMISSIONS]),
      otherRealm: await token('limited', [...PERMISSIONS]),
      metered: await token('metered', [...PERMISSIONS]),
    };
    const org = (realm: string, id: string) =>
      store.createOrganization({ id, realm, name: id, displayName: null, url: null, domains: [], attributes: {} }, undefined, clock);
    await org('acme', 'org-member');
    await org('acme', 'org-other');
    await org('limited', 'org-limited');
    await store.addMember('acme', 'org-member', member, clock);
    await store.addMember('limited', 'org-limited', limitedMember, clock);
    await org('metered', 'org-metered');
    await store.addMember('metered', 'org-metered', meteredMember, clock);
    await admin.setRealmEnabled('paused', false);
    const jti = (JSON.parse(Buffer.from(tokens.revoked.split('.')[1], 'base64url').toString('utf8')) as { jti: string }).jti;
    await store.revokeToken({ realm: 'acme', jti, expiresTimestamp: clock + 3_600_000, revokedTimestamp: clock });
    // Past the short realm's token lifetime and every app's revocation recheck.
    clock += Math.max(2000, REVOCATION_RECHECK_MS + 1);
    world = { memberOrg: 'org-member', otherOrg: 'org-other', limitedOrg: 'org-limited', member, limitedMember, meteredMember, meteredStranger, stranger, tokens };
  });

  afterAll(async () => {
    for (const one of running.splice(0)) await one.app.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * `count` raw requests picked by `random`: each starts as a successful check and has each of its
   * parts (method, realm, ids, path end, token, header form, Host, body) swapped, with a chance of
   * one in six each, for one that may fail.
   */
  function requests(random: () => number, count: number): Array<(port: number) => string> {
    const { memberOrg, otherOrg, limitedOrg, member, limitedMember, stranger, tokens } = world;
    /** The first item (the success) unless swapped, else any other. */
    const part = <T>(items: readonly T[]): T => (random() < 1 / 6 ? items[1 + Math.floor(random() * (items.length - 1))] : items[0]);
    const out: Array<(port: number) => string> = [];
    for (let i = 0; i < count; i += 1) {
      // No PUT or DELETE: both apps share one database, so a change through one would show in the other.
      const method = part(['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS']);
      const realm = part(['acme', 'limited', 'paused', 'nope', 'ACME', 'ac%6De', '%zz']);
      // A check in the rate-limited realm mostly comes with that realm's token and ids, so that it gets as far as the limit.
      const inLimited = realm === 'limited' && random() < 0.8;
      const orgId = inLimited ? limitedOrg : part([memberOrg, otherOrg, limitedOrg, 'no-such-org', 'me', 'count', 'org%2Dmember', 'a'.repeat(256), 'x%01y', '']);
      const userId = inLimited ? limitedMember : part([member, limitedMember, stranger, 'no-such-user', 'count', encodeURIComponent(member), 'b'.repeat(300), 'u%00', 'attributes']);
      const tail = part(['', '/', '?x=1', '?q=%01', '/attributes', '//']);
      const token = inLimited ? 'limited' : part(['good', 'viewOnly', 'manageOnly', 'noPermission', 'revoked', 'expired', 'paused', 'limited', 'otherRealm', 'garbage', 'none', 'basic']);
      const scheme = part(['Bearer', 'bearer', 'Bearer  ']);
      const hostKind = part(['ip', 'pinned', 'pinned-other', 'bad', 'twice', 'none']);
      const body = part(['\r\n', 'Content-Length: 2\r\n\r\n{}']);
      const path = `/realms/${realm}/orgs/${orgId}/members/${userId}${tail}`;
      const authorization =
        token === 'none' ? '' : token === 'garbage' ? 'Authorization: Bearer not.a.token\r\n' : token === 'basic' ? 'Authorization: Basic YTpi\r\n' : `Authorization: ${scheme} ${tokens[token]}\r\n`;
      out.push((port) => {
        const host =
          hostKind === 'ip' ? `Host: 127.0.0.1:${port}\r\n`
          : hostKind === 'pinned' ? `Host: acme.localhost:${port}\r\n`
          : hostKind === 'pinned-other' ? `Host: other.localhost:${port}\r\n`
          : hostKind === 'bad' ? 'Host: a b\r\n'
          : hostKind === 'twice' ? `Host: 127.0.0.1:${port}\r\nHost: 127.0.0.1:${port}\r\n`
          : '';
        return `${method} ${path} HTTP/1.1\r\n${host}${authorization}Connection: close\r\n${body}`;
      });
    }
    return out;
  }

  /** An answer without its Date header (the only part that may differ between two servers). */
  function comparable(answer: RawAnswer): RawAnswer {
    const { date: _date, ...headers } = answer.headers;
    return { ...answer, headers };
  }

  /** Sends every request to both apps in turn and expects the same answers; returns the answers of `on`. */
  async function expectSameAnswers(off: Running, on: Running, seed: number, count: number): Promise<RawAnswer[]> {
    const answers: RawAnswer[] = [];
    for (const [index, request] of requests(seededRandom(seed), count).entries()) {
      const fromOff = comparable(parseAnswer(await rawRequest(off.url, request(off.port), { halfClose: false })));
      const fromOn = comparable(parseAnswer(await rawRequest(on.url, request(on.port), { halfClose: false })));
      expect({ index, request: request(0), answer: fromOn }).toEqual({ index, request: request(0), answer: fromOff });
      answers.push(fromOn);
    }
    return answers;
  }

  /**
   * Fastify saw, of the app with the fast path, what it saw of the app without it less some
   * successful checks: those the fast path answered in front of it (some, never all: a check with
   * a trailing slash, say, is fastify's).
   */
  function expectOnlySuccessesSkipped(off: Running, on: Running, successes: number): void {
    const unseen = [...off.answered];
    for (const line of on.answered) {
      const index = unseen.indexOf(line);
      expect(index).toBeGreaterThanOrEqual(0);
      unseen.splice(index, 1);
    }
    expect(unseen.length).toBeGreaterThan(0);
    expect(unseen.length).toBeLessThan(successes);
    for (const line of unseen) expect(line).toMatch(/^GET \/realms\/[^ ]+\/orgs\/[^ ]+\/members\/[^ ]+ 204$/);
  }

  it('answers every request as fastify does, and answers plain successful checks itself', async () => {
    const off = await start({});
    const on = await start({ memberCheckFastPath: true });
    const answers = await expectSameAnswers(off, on, 20261126, 400);
    const successes = answers.filter((answer) => answer.status === 204).length;
    const statuses = new Set(answers.map((answer) => answer.status));
    // The mix holds successes and each kind of refusal.
    expect(successes).toBeGreaterThan(20);
    for (const status of [400, 401, 403, 404, 405, 429]) expect(statuses).toContain(status);
    expectOnlySuccessesSkipped(off, on, successes);
  });

  it('answers as fastify does in hosted compatibility mode', async () => {
    const off = await start({ compat: 'hosted' });
    const on = await start({ compat: 'hosted', memberCheckFastPath: true });
    const answers = await expectSameAnswers(off, on, 7, 200);
    expectOnlySuccessesSkipped(off, on, answers.filter((answer) => answer.status === 204).length);
  });

  it('stays on while requests are logged, and logs each check it answers with the line fastify writes', async () => {
    const off = await start({}, true);
    const on = await start({ memberCheckFastPath: true }, true);
    const answers = await expectSameAnswers(off, on, 99, 60);
    const successes = answers.filter((answer) => answer.status === 204).length;
    expect(successes).toBeGreaterThan(0);
    expectOnlySuccessesSkipped(off, on, successes);
    // One line per request on both apps, the same lines apart from ids, times and the client's port.
    const shape = (line: string): unknown => {
      const { level, msg, req, res, reqId, responseTime } = JSON.parse(line) as Record<string, unknown>;
      expect(typeof reqId).toBe('string');
      expect(typeof responseTime).toBe('number');
      return { level, msg, req, res };
    };
    // (Requests Node refuses before any route, malformed ones, are answered without such a line on both.)
    const requestLines = (running: Running): string[] => running.logLines.filter((line) => (JSON.parse(line) as { msg: string }).msg === 'request completed');
    expect(requestLines(off).length).toBe(off.answered.length);
    expect(requestLines(on).map(shape)).toEqual(requestLines(off).map(shape));
    expect(new Set(requestLines(on).map((line) => (JSON.parse(line) as { reqId: string }).reqId)).size).toBe(requestLines(on).length);
  });

  it('answers checks in a rate-limited realm itself up to the limit, counting each check once', async () => {
    const off = await start({});
    const on = await start({ memberCheckFastPath: true });
    const check = (userId: string) => (port: number) =>
      `GET /realms/metered/orgs/org-metered/members/${userId} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${world.tokens.metered}\r\nConnection: close\r\n\r\n`;
    /** Sends `request` to both apps; expects the same answer and returns its status and Retry-After. */
    const both = async (request: (port: number) => string): Promise<string> => {
      const fromOff = comparable(parseAnswer(await rawRequest(off.url, request(off.port), { halfClose: false })));
      const fromOn = comparable(parseAnswer(await rawRequest(on.url, request(on.port), { halfClose: false })));
      expect(fromOn).toEqual(fromOff);
      return `${fromOn.status}${fromOn.headers['retry-after'] === undefined ? '' : ` retry ${fromOn.headers['retry-after']}`}`;
    };
    const member = check(world.meteredMember);
    const stranger = check(world.meteredStranger);
    // One window: the first check is fastify's (the token is not verified yet), the next two are
    // answered in front of it; a non-member's check (fastify's) counts too, so the limit is reached
    // one check early, and the checks over it are fastify's 429s.
    expect([await both(member), await both(member), await both(stranger), await both(member), await both(member)]).toEqual([
      '204', '204', '404', '429 retry 10', '429 retry 10',
    ]);
    expect(on.answered.map((line) => line.replace(/^GET \/realms\/metered\/orgs\/org-metered\/members\//, ''))).toEqual([
      `${world.meteredMember} 204`, `${world.meteredStranger} 404`, `${world.meteredMember} 429`, `${world.meteredMember} 429`,
    ]);
    // The next window: after such a pause the realm and the revocations are due to be read again,
    // which the first check leaves to fastify; the rest of the window's checks are answered in
    // front of it, up to the limit.
    clock += METERED_WINDOW_SECONDS * 1000;
    on.answered.length = 0;
    const statuses: string[] = [];
    for (let i = 0; i <= METERED_LIMIT; i += 1) statuses.push(await both(member));
    expect(statuses).toEqual([...Array<string>(METERED_LIMIT).fill('204'), '429 retry 10']);
    expect(on.answered).toEqual([
      `GET /realms/metered/orgs/org-metered/members/${world.meteredMember} 204`,
      `GET /realms/metered/orgs/org-metered/members/${world.meteredMember} 429`,
    ]);
  });

  it('hands a check to fastify once the user is no longer a member, and answers it again once they are', async () => {
    const on = await start({ memberCheckFastPath: true });
    const check = (port: number) =>
      `GET /realms/acme/orgs/${world.memberOrg}/members/${world.member} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${world.tokens.good}\r\nConnection: close\r\n\r\n`;
    // The first check of a new app is fastify's: it has not read its revocations nor checked the token's signature yet.
    expect(parseAnswer(await rawRequest(on.url, check(on.port), { halfClose: false })).status).toBe(204);
    expect(on.answered).toHaveLength(1);
    on.answered.length = 0;
    expect(parseAnswer(await rawRequest(on.url, check(on.port), { halfClose: false })).status).toBe(204);
    expect(on.answered).toHaveLength(0);
    await store.removeMember('acme', world.memberOrg, world.member);
    try {
      const refused = parseAnswer(await rawRequest(on.url, check(on.port), { halfClose: false }));
      expect(refused.status).toBe(404);
      expect(JSON.parse(refused.body)).toEqual({ error: 'not_found', error_description: `User ${world.member} is not a member of organization ${world.memberOrg}.` });
      expect(on.answered).toEqual([`GET /realms/acme/orgs/${world.memberOrg}/members/${world.member} 404`]);
    } finally {
      await store.addMember('acme', world.memberOrg, world.member, clock);
    }
    expect(parseAnswer(await rawRequest(on.url, check(on.port), { halfClose: false })).status).toBe(204);
    expect(on.answered).toHaveLength(1);
  });
});
