/**
 * Hostile input that must never cost the service a 5xx or a non-JSON answer: bodies nested
 * thousands of levels deep, and requests whose Host is missing, repeated, empty or malformed
 * (sent over a raw socket: no HTTP client sends them).
 */
import { discoveryPath, memberRolesPath, orgsPath, rolePath, rolesPath, tokenPath } from '../../src/api';
import { MAX_JSON_DEPTH, jsonDepth } from '../../src/service/json-body';
import type { TestService } from '../helpers/service';
import { isJsonError, parseAnswer, rawRequest } from './raw-http';
import { call, startServiceWithToken } from './support';

let svc: TestService;
let token: string;
beforeAll(async () => {
  ({ svc, token } = await startServiceWithToken());
});
afterAll(async () => {
  await svc.close();
});

describe('deeply nested JSON bodies', () => {
  const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it.each([
    ['an organization create, with a token', 'POST', () => orgsPath('acme'), true],
    ['the token endpoint, without a token', 'POST', () => tokenPath('acme'), false],
    ['an unknown path', 'POST', () => '/realms/acme/nowhere', false],
    ['a path that does not allow the method', 'DELETE', () => orgsPath('acme'), false],
    ['a portal link', 'POST', () => `${orgsPath('acme')}/some-org/portal-link`, true],
    ['a role create', 'POST', () => rolesPath('acme', 'some-org'), true],
    ['a bulk role create', 'PUT', () => rolesPath('acme', 'some-org'), true],
    ['a bulk role delete', 'PATCH', () => rolesPath('acme', 'some-org'), true],
    ['a role update', 'PUT', () => rolePath('acme', 'some-org', 'view-roles'), true],
    ['a bulk grant', 'PUT', () => memberRolesPath('acme', 'some-user', 'some-org'), true],
    ['a bulk revoke', 'PATCH', () => memberRolesPath('acme', 'some-user', 'some-org'), true],
  ])('answers 400 invalid_body JSON, never 5xx, on %s', async (_what, method, url, withToken) => {
    for (const body of [arrays(5000), objects(5000), arrays(100_000).slice(0, 60_000)]) {
      const res = await call(svc, {
        method,
        url: url(),
        token: withToken ? token : undefined,
        payload: body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBeLessThan(500);
      expect(isJsonError({ headers: res.headers, body: res.text })).toBe(true);
    }
    // With a token on a JSON route the depth itself is what is refused.
    if (withToken && url() === orgsPath('acme')) {
      const res = await call(svc, { method, url: url(), token, payload: objects(5000), headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_body', error_description: `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.` });
    }
  });

  it('accepts nesting up to the limit and refuses one level more', async () => {
    const at = { name: 'deep-ok', attributes: {} as Record<string, unknown> };
    // 32 levels in total: the body object, then nested arrays in an unknown field.
    const nested = JSON.parse(arrays(MAX_JSON_DEPTH - 1));
    const ok = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { ...at, extra: nested } });
    expect(ok.json?.error_description ?? '').not.toMatch(/nested deeper/);
    const tooDeep = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { ...at, extra: [nested] } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.json.error_description).toMatch(/nested deeper than 32 levels/);
  });

  it('counts depth outside strings only', () => {
    expect(jsonDepth('{"a":"[[[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a\\"[":[[1]]}')).toBe(3);
    expect(jsonDepth('[]')).toBe(1);
    expect(jsonDepth('1')).toBe(0);
  });
});

describe('the Host header', () => {
  const get = (headers: string) => `GET ${discoveryPath('acme')} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`;

  it.each([
    ['no Host', '', 'The request has no Host header.'],
    ['a repeated Host', 'Host: 127.0.0.1\r\nHost: evil.example\r\n', 'The request has more than one Host header.'],
    ['a Host repeated with the same value', 'Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n', 'The request has more than one Host header.'],
    ['an empty Host', 'Host: \r\n', 'The request has an empty Host header.'],
    ['a Host with a path', 'Host: a.example/realms/x\r\n', 'The Host header is not a valid host name with an optional port.'],
    ['a Host with user info', 'Host: user@a.example\r\n', 'The Host header is not a valid host name with an optional port.'],
  ])('answers %s with 400 invalid_request JSON', async (_what, headers, description) => {
    const answer = parseAnswer(await rawRequest(svc.baseUrl, get(headers)));
    expect(answer.status).toBe(400);
    expect(isJsonError(answer)).toBe(true);
    expect(JSON.parse(answer.body)).toEqual({ error: 'invalid_request', error_description: description });
  });

  it('refuses a missing Host on HTTP/1.0 too, and on unknown paths', async () => {
    const old = parseAnswer(await rawRequest(svc.baseUrl, `GET ${discoveryPath('acme')} HTTP/1.0\r\n\r\n`));
    expect(old.status).toBe(400);
    expect(isJsonError(old)).toBe(true);
    const unknown = parseAnswer(await rawRequest(svc.baseUrl, 'GET /nowhere HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(unknown.status).toBe(400);
    expect(isJsonError(unknown)).toBe(true);
  });

  it('builds a well-formed issuer from a single valid Host (name, IPv4, IPv6, with port)', async () => {
    for (const host of ['acme.localhost:8080', '127.0.0.1', '[::1]:1234', 'orgs.example.com']) {
      const answer = parseAnswer(await rawRequest(svc.baseUrl, get(`Host: ${host}\r\n`)));
      expect(answer.status).toBe(200);
      const issuer = JSON.parse(answer.body).issuer as string;
      expect(issuer).toBe(`http://${host}/realms/acme`);
      expect(new URL(issuer).pathname).toBe('/realms/acme');
    }
  });
});

describe('requests Node refuses by itself', () => {
  it('answers an unsupported Expect with 417 JSON', async () => {
    const answer = parseAnswer(
      await rawRequest(svc.baseUrl, `GET ${discoveryPath('acme')} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: teapot\r\nConnection: close\r\n\r\n`),
    );
    expect(answer.status).toBe(417);
    expect(isJsonError(answer)).toBe(true);
  });

  it('answers CONNECT with 405 JSON', async () => {
    const answer = parseAnswer(await rawRequest(svc.baseUrl, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(answer.status).toBe(405);
    expect(isJsonError(answer)).toBe(true);
  });

  it('serves a request asking for an upgrade the service does not offer as a plain request', async () => {
    const answer = parseAnswer(
      await rawRequest(
        svc.baseUrl,
        `GET ${discoveryPath('acme')} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n`,
      ),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).issuer).toBe('http://127.0.0.1/realms/acme');
  });
});
