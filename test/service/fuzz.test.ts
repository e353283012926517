/**
 * A seeded fuzz run over every route of the real service (SQLite file, in-process `inject`), then
 * raw, malformed HTTP over a socket. Whatever the input: no 5xx, every error is the JSON error
 * shape, a refused request changes no data, and the service is healthy afterwards. Deterministic:
 * the same seed sends the same requests (the only randomness is {@link SEED}'s generator).
 */
import Database from 'better-sqlite3';
import { createHmac } from 'node:crypto';
import { DEFAULT_ORGANIZATION_ROLE_NAMES, PERMISSIONS, tokenPath } from '../../src/api';
import { realmAudience, signJwt } from '../../src/service/auth/jwt';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { isJsonError, parseAnswer, rawRequest } from './raw-http';
import { seededRandom } from '../helpers/seeded-random';

const SEED = 0x5eed2026;
const INJECTED_REQUESTS = 3000;
const RAW_REQUESTS = 300;

const random = seededRandom(SEED);
const int = (max: number): number => Math.floor(random() * max);
const pick = <T>(items: readonly T[]): T => items[int(items.length)];
const chance = (p: number): boolean => random() < p;

/** Random text: mostly harmless, sometimes control characters, unicode, quotes or very long. */
function text(): string {
  switch (int(8)) {
    case 0:
      return '';
    case 1:
      return 'x'.repeat(pick([255, 256, 1000, 5000]));
    case 2:
      return String.fromCharCode(...Array.from({ length: 1 + int(8) }, () => int(32)));
    case 3:
      return pick(['💥', 'ünïcødé', '\u202e', '\ud800', '"\'<>&', '../..', '%', '%00', '__proto__', 'constructor']);
    case 4:
      return String(pick([-1, 0, 1, 99, 100, 101, 1e9, 2 ** 53, -0.5, NaN, Infinity]));
    default:
      return random().toString(36).slice(2, 2 + int(12));
  }
}

/** A random JSON value up to `depth`, with forbidden keys and odd types now and then. */
function jsonValue(depth: number): unknown {
  const kind = depth <= 0 ? int(4) : int(7);
  switch (kind) {
    case 0:
      return text();
    case 1:
      return pick([0, -1, 1.5, 1e308, true, false, null]);
    case 2:
      return int(1000);
    case 3:
      return null;
    case 4:
      return Array.from({ length: int(4) }, () => jsonValue(depth - 1));
    default: {
      const value: Record<string, unknown> = {};
      const keys = ['name', 'displayName', 'url', 'domains', 'attributes', 'id', 'realm', 'userId', 'baseUri', 'description', text()];
      for (let i = int(5); i > 0; i -= 1) value[pick(keys)] = jsonValue(depth - 1);
      return value;
    }
  }
}

/** A random body and its content type. */
function body(): { payload?: string; type?: string } {
  switch (int(11)) {
    case 0:
      return {};
    case 1: {
      const depth = pick([33, 100, 3000, 20_000]);
      return { payload: pick(['[', '{"a":']).repeat(depth), type: 'application/json' };
    }
    case 2:
      return { payload: pick(['{', '{"a":}', 'nul', '[1,]', '"\\ud800"', '{"__proto__":{"x":1}}']), type: 'application/json' };
    case 3:
      return { payload: 'a'.repeat(70 * 1024), type: pick(['application/json', 'application/x-www-form-urlencoded']) };
    case 4:
      return {
        payload: new URLSearchParams(
          Array.from({ length: int(6) }, (): [string, string] => [
            pick(['grant_type', 'client_id', 'client_secret', 'username', 'password', 'scope', 'token', 'userId', 'baseUri', text()]),
            pick(['client_credentials', 'password', 'refresh_token', 'admin-cli', text()]),
          ]),
        ).toString(),
        type: 'application/x-www-form-urlencoded',
      };
    case 5:
      return { payload: text(), type: pick(['text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', '*/*', '']) };
    case 6:
    case 7:
      return { payload: JSON.stringify({ name: `fuzz-${int(50)}`, domains: [`d${int(9)}.example`], attributes: { k: [text()] } }), type: 'application/json' };
    default:
      return { payload: JSON.stringify(jsonValue(4)), type: 'application/json' };
  }
}

/** Percent-encodes text; a lone surrogate (which cannot be encoded) becomes invalid UTF-8 bytes. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

/** A path parameter: an existing id, a random text, or something encoded oddly. */
function param(known: string[]): string {
  if (chance(0.4) && known.length > 0) return encodeURIComponent(pick(known));
  return pick([
    () => encode(text()),
    () => '%zz',
    () => '%2F',
    () => '%00',
    () => 'a'.repeat(3000),
    () => '',
    () => 'export',
    () => 'count',
    () => 'me',
  ])();
}

/** The route templates of the service (the contract plus the standard and unsupported paths). */
const ROUTES = [
  // The write routes twice: most data changes (and so most chances to break atomicity) are here.
  '/realms/{realm}/orgs',
  '/realms/{realm}/orgs/{orgId}',
  '/realms/{realm}/orgs/{orgId}/members/{userId}',
  '/realms/{realm}/orgs/{orgId}/roles',
  '/realms/{realm}/orgs/{orgId}/roles/{role}/users/{userId}',
  '/realms/{realm}/users/{userId}/orgs/{orgId}/roles',
  '/realms/{realm}/protocol/openid-connect/token',
  '/realms/{realm}/protocol/openid-connect/certs',
  '/realms/{realm}/protocol/openid-connect/userinfo',
  '/realms/{realm}/protocol/openid-connect/token/introspect',
  '/realms/{realm}/protocol/openid-connect/revoke',
  '/realms/{realm}/.well-known/openid-configuration',
  '/realms/{realm}/orgs',
  '/realms/{realm}/orgs/count',
  '/realms/{realm}/orgs/me',
  '/realms/{realm}/orgs/{orgId}',
  '/realms/{realm}/orgs/{orgId}/portal-link',
  '/realms/{realm}/orgs/{orgId}/portal',
  '/realms/{realm}/orgs/{orgId}/members',
  '/realms/{realm}/orgs/{orgId}/members/count',
  '/realms/{realm}/orgs/{orgId}/members/{userId}',
  '/admin/realms/{realm}/users',
  '/realms/{realm}/orgs/export',
  '/realms/{realm}/orgs/import',
  '/realms/{realm}/orgs/config',
  '/realms/{realm}/orgs/{orgId}/roles',
  '/realms/{realm}/orgs/{orgId}/roles/{role}',
  '/realms/{realm}/orgs/{orgId}/roles/{role}/users',
  '/realms/{realm}/orgs/{orgId}/roles/{role}/users/{userId}',
  '/realms/{realm}/users/{userId}/orgs',
  '/realms/{realm}/users/{userId}/orgs/{orgId}/roles',
  '/realms/{realm}/orgs/{orgId}/invitations',
  '/realms/{realm}/orgs/{orgId}/domains',
  '/',
  '/realms',
  '/{userId}/{orgId}',
];

const QUERY_NAMES = ['search', 'q', 'first', 'max', 'exact', 'email', 'username', 'includeOrgs', 'excludeAdminAccounts', 'briefRepresentation', 'token', 'userId'];

function query(): string {
  if (chance(0.5)) return '';
  const params = Array.from({ length: 1 + int(4) }, () => `${pick(QUERY_NAMES)}=${pick([encode(text()), '%zz', '%00', '-1', '1e3', 'true', 'maybe', '', 'key:"v w"'])}`);
  return `?${params.join('&')}`;
}

/** Role names the well-formed requests use: the default ones and a few the fuzz run creates. */
const ROLE_NAMES = [...DEFAULT_ORGANIZATION_ROLE_NAMES, 'fuzz-role-0', 'fuzz-role-1', 'fuzz-role-2'];

/** A well-formed body: an organization, a role, or a list of roles (the bulk role operations). */
function saneBody(): string {
  switch (int(3)) {
    case 0:
      return JSON.stringify({ name: `fuzz-${int(50)}`, domains: [`d${int(9)}.example`] });
    case 1:
      return JSON.stringify({ name: pick(ROLE_NAMES), description: chance(0.5) ? text() : null });
    default:
      return JSON.stringify(Array.from({ length: int(4) }, () => ({ name: pick(ROLE_NAMES) })));
  }
}

/** Every table the API writes, as text: the data that refused requests must leave alone. */
function snapshot(db: Database.Database): string {
  return ['realms', 'organizations', 'users', 'memberships', 'api_keys', 'organization_roles', 'role_grants']
    .map((table) => JSON.stringify(db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()))
    .join('\n');
}

/** Forged and odd tokens: every kind the service must refuse, and some it accepts. */
async function tokens(svc: TestService, full: string, viewOnly: string, foreign: string): Promise<Array<string | undefined>> {
  const realm = (await svc.store.getRealm('acme'))!;
  const header = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const [, payload] = full.split('.');
  const hs256Input = `${header({ alg: 'HS256', typ: 'JWT' })}.${payload}`;
  const now = Math.floor(Date.now() / 1000);
  return [
    undefined,
    full,
    viewOnly,
    foreign,
    `${header({ alg: 'none' })}.${payload}.`,
    `${header({ alg: 'None', typ: 'JWT' })}.${payload}.`,
    `${hs256Input}.${createHmac('sha256', realm.publicKeyPem).update(hs256Input).digest('base64url')}`,
    `${full.split('.').slice(0, 2).join('.')}.`,
    `${header({ alg: 'RS256', kid: 'other', jku: 'http://127.0.0.1:1/jwks' })}.${payload}.${full.split('.')[2]}`,
    signJwt(realm, { iss: 'http://x/realms/acme', aud: realmAudience('acme'), sub: 's', azp: 'a', typ: 'portal', exp: now + 60 }),
    signJwt(realm, { iss: 'http://x/realms/acme', aud: realmAudience('acme'), sub: 's', azp: 'a', typ: 'Bearer', exp: now + 60, nbf: now + 3600, permissions: [...PERMISSIONS] }),
    'garbage',
    'a.b.c',
    'x'.repeat(8000),
  ];
}

describe('seeded fuzzing of every route', () => {
  let svc: TestService;
  let db: Database.Database;
  let clock = Date.now();

  beforeAll(async () => {
    svc = await startTestService({ now: () => clock });
    db = new Database(svc.dataFile, { readonly: true });
  });
  afterAll(async () => {
    db.close();
    await svc.close();
  });

  it(`answers ${INJECTED_REQUESTS} random requests without a 5xx, errors always JSON, refusals changing nothing`, async () => {
    const key = await createTestRealm(svc, 'acme');
    const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
    const other = await createTestRealm(svc, 'other');
    await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', password: 'alice-pw' });
    const full = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    const viewOnly = await getToken(svc, 'acme', viewer.clientId, viewer.clientSecret);
    const foreign = await getToken(svc, 'other', other.clientId, other.clientSecret);
    const candidates = await tokens(svc, full, viewOnly, foreign);
    const orgIds: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const created = await svc.app.inject({
        method: 'POST',
        url: '/realms/acme/orgs',
        headers: { authorization: `Bearer ${full}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: `seed-${i}` }),
      });
      orgIds.push(String(created.headers.location).split('/').pop()!);
    }
    const userIds = (await svc.store.findUsers('acme', {})).map((user) => user.id);

    const figures = { requests: 0, byStatus: {} as Record<string, number>, fiveXx: 0, nonJsonErrors: 0, changedByRefused: 0 };
    const failures: string[] = [];
    for (let i = 0; i < INJECTED_REQUESTS; i += 1) {
      // A third of the requests are well-formed and carry the full token, so writes get through
      // and refusals happen next to real changes; the rest are anything at all.
      const sane = chance(0.35);
      const method = pick(['GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
      const path =
        pick(ROUTES)
          .replace('{realm}', sane ? 'acme' : pick(['acme', 'acme', 'acme', 'other', 'nope', '%zz', 'a'.repeat(300)]))
          .replace('{orgId}', sane ? encode(pick(orgIds)) : param(orgIds))
          .replace('{role}', sane ? encode(pick(ROLE_NAMES)) : param(ROLE_NAMES))
          .replace('{userId}', sane ? encode(pick(userIds)) : param(userIds)) + (sane ? '' : (chance(0.1) ? '/' : '') + query());
      const { payload, type } = sane
        ? method === 'GET' || method === 'HEAD' ? {} : { payload: saneBody(), type: 'application/json' }
        : method === 'GET' || method === 'HEAD' ? (chance(0.2) ? body() : {}) : body();
      const headers: Record<string, string> = {};
      if (type !== undefined) headers['content-type'] = type;
      const bearer = sane ? candidates[1] : pick(candidates);
      if (sane) headers.authorization = `Bearer ${bearer}`;
      else if (bearer !== undefined) headers.authorization = pick([`Bearer ${bearer}`, `bearer  ${bearer}`, `Basic ${Buffer.from(`${key.clientId}:${text()}`).toString('base64')}`, bearer]);
      if (!sane && chance(0.05)) headers.host = pick(['acme.localhost', 'other.localhost', 'evil.example:80', '[::1]']);
      const writes = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
      const before = writes ? snapshot(db) : '';
      const res = await svc.app.inject({ method: method as 'GET', url: path, headers, payload });
      figures.requests += 1;
      const status = res.statusCode;
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      const described = `${method} ${path.slice(0, 120)} (${type ?? 'no type'}) → ${status} ${res.body.slice(0, 120)}`;
      if (status >= 500) {
        figures.fiveXx += 1;
        failures.push(described);
      }
      if (status >= 400 && method !== 'HEAD' && !isJsonError({ headers: res.headers as Record<string, string>, body: res.body })) {
        figures.nonJsonErrors += 1;
        failures.push(`not JSON: ${described}`);
      }
      if (writes && status >= 400 && snapshot(db) !== before) {
        figures.changedByRefused += 1;
        failures.push(`changed data: ${described}`);
      }
      // Time passes (tokens expire, throttles wait): a fresh full token now and then keeps writes possible.
      if (i % 500 === 499) {
        clock += 60_000;
        candidates[1] = await getToken(svc, 'acme', key.clientId, key.clientSecret);
      }
    }
    console.log(`fuzz (seed 0x${SEED.toString(16)}): ${JSON.stringify(figures)}`);
    expect(failures).toEqual([]);
    expect(figures.requests).toBe(INJECTED_REQUESTS);

    // Healthy afterwards: discovery, a token, a read and a write.
    clock += 3_600_000;
    const fresh = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    expect((await svc.app.inject({ method: 'GET', url: '/realms/acme/.well-known/openid-configuration' })).statusCode).toBe(200);
    expect((await svc.app.inject({ method: 'GET', url: '/realms/acme/orgs', headers: { authorization: `Bearer ${fresh}` } })).statusCode).toBe(200);
    const created = await svc.app.inject({
      method: 'POST',
      url: '/realms/acme/orgs',
      headers: { authorization: `Bearer ${fresh}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'after-the-fuzz' }),
    });
    expect(created.statusCode).toBe(201);
  });

  it(`answers ${RAW_REQUESTS} malformed raw HTTP requests in JSON, never 5xx, over a real socket`, async () => {
    const lines = [
      () => `${pick(['GET', 'POST', 'PUT', 'DELETE', 'BREW', 'G E T', 'get', '', 'PRI'])} ${pick(['/realms/acme/orgs', '*', '', 'http://x/realms/acme/orgs', '/%', '/realms/acme/orgs?\u0001', `/${'a'.repeat(20_000)}`])} ${pick(['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', 'HTTP/1.1 extra', ''])}`,
    ];
    const headerLines = [
      () => 'Host: 127.0.0.1',
      () => 'Host: 127.0.0.1',
      () => 'Host:',
      () => `Host: ${text().replace(/[\r\n]/g, '')}`,
      () => `Content-Length: ${pick(['0', '5', '-1', 'abc', '99999999999999999999', '1, 2'])}`,
      () => 'Transfer-Encoding: chunked',
      () => `Transfer-Encoding: ${pick(['gzip', 'chunked, chunked', 'identity'])}`,
      () => `Expect: ${pick(['100-continue', 'teapot'])}`,
      () => `X-Long: ${'v'.repeat(pick([10, 20_000]))}`,
      () => 'Bad Header Name: x',
      () => `Authorization: Bearer ${'t'.repeat(int(100))}`,
      () => 'Content-Type: application/json',
      () => 'Connection: close',
      () => ': no name',
      () => 'Upgrade: h2c',
    ];
    let nonJson = 0;
    let fiveXx = 0;
    let unanswered = 0;
    const failures: string[] = [];
    for (let i = 0; i < RAW_REQUESTS; i += 1) {
      const head = [pick(lines)(), ...Array.from({ length: int(5) }, () => pick(headerLines)()), 'Connection: close'];
      const bodyText = pick(['', '{}', '0\r\n\r\n', 'zz\r\nnot chunked', '['.repeat(5000)]);
      const raw = await rawRequest(svc.baseUrl, `${head.join('\r\n')}\r\n\r\n${bodyText}`);
      const answer = parseAnswer(raw);
      const described = `${JSON.stringify(head.join(' | ').slice(0, 200))} → ${raw.slice(0, 160)}`;
      if (answer.status === 0) {
        unanswered += 1;
        failures.push(`unanswered: ${described}`);
      } else if (answer.status >= 500) {
        fiveXx += 1;
        failures.push(described);
      } else if (answer.status >= 400 && !isJsonError(answer)) {
        nonJson += 1;
        failures.push(`not JSON: ${described}`);
      }
    }
    console.log(`raw fuzz (seed 0x${SEED.toString(16)}): ${JSON.stringify({ requests: RAW_REQUESTS, fiveXx, nonJsonErrors: nonJson, unanswered })}`);
    expect(failures).toEqual([]);
    const after = await fetch(`${svc.baseUrl}${tokenPath('acme')}`, { method: 'POST' });
    expect(after.status).toBe(400);
  });
});
