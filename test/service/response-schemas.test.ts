/**
 * Every one of the 13 operations, and the OpenID Connect endpoints, answers what its response
 * schema (from `src/api`, declared on its route) allows, and the service refuses to send an answer that does not match.
 */
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import {
  CountSchema,
  MemberInfoSchema,
  MemberListSchema,
  memberPath,
  membersCountPath,
  membersPath,
  NoBodySchema,
  OrganizationListSchema,
  OrganizationSchema,
  orgPath,
  orgsCountPath,
  orgsMePath,
  orgsPath,
  portalLinkPath,
  PortalLinkSchema,
  tokenPath,
  certsPath,
  discoveryPath,
  DiscoveryDocumentSchema,
  introspectionPath,
  IntrospectionSchema,
  JwksSchema,
  TokenResponseSchema,
  userinfoPath,
  UserinfoSchema,
} from '../../src/api';
import { PUBLIC_CLIENT_ID } from '../../src/service/auth/public-client';
import { installErrorHandling } from '../../src/service/errors';
import { checkedJsonArrayInTurns, checkedSerializerCompiler, JSON_ITEMS_PER_TURN, ResponseSchemaError } from '../../src/service/response-check';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { call, postForm, type Answer } from './support';

describe('the 13 operations against their response schemas', () => {
  let svc: TestService;
  let token: string;
  /** The response schemas of the route that answered each request, by "METHOD url". */
  const declared = new Map<string, FastifySchema['response']>();

  beforeAll(async () => {
    svc = await startTestService({
      configure: (app) =>
        app.addHook('onRequest', async (request) => {
          declared.set(`${request.method} ${request.url}`, request.routeOptions.schema?.response);
        }),
    });
    const key = await createTestRealm(svc, 'acme');
    token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  });
  afterAll(async () => {
    await svc.close();
  });

  /**
   * Checks the answer's status, that its route declares `schema` for that status, and that the
   * body matches it (an empty body for {@link NoBodySchema}).
   */
  function expectAnswer(method: string, url: string, res: Answer, status: number, schema: TSchema): void {
    expect(res.status).toBe(status);
    const routeSchemas = declared.get(`${method} ${url}`) as Record<number, TSchema> | undefined;
    expect(routeSchemas?.[status]).toBe(schema);
    if (schema === NoBodySchema) {
      expect(res.text).toBe('');
      return;
    }
    const checker = TypeCompiler.Compile(schema);
    expect([...checker.Errors(res.json)].map((e) => `${e.path} ${e.message}`)).toEqual([]);
  }

  async function op(method: string, url: string, status: number, schema: TSchema, payload?: unknown): Promise<Answer> {
    const res = await call(svc, { method, url, token, payload });
    expectAnswer(method, url, res, status, schema);
    return res;
  }

  it('all answer within their schemas, with null fields left out', async () => {
    const user = await svc.admin.createUser('acme', { username: 'ann', email: 'ann@example.com', password: 'pw-ann-123456' });
    const created = await op('POST', orgsPath('acme'), 201, NoBodySchema, { name: 'schema-org', domains: ['schema.example.com'] });
    const id = decodeURIComponent(String(created.headers.location).split('/').pop()!);
    await op('POST', orgsPath('acme'), 201, NoBodySchema, { name: 'schema-full', displayName: 'Full', url: 'https://full.example.com', attributes: { a: ['1'] } });

    const list = await op('GET', orgsPath('acme'), 200, OrganizationListSchema);
    expect(list.json).toHaveLength(2);
    await op('GET', orgsCountPath('acme'), 200, CountSchema);
    await op('GET', orgPath('acme', id), 200, OrganizationSchema);
    await op('PUT', orgPath('acme', id), 204, NoBodySchema, { name: 'schema-org', displayName: 'Now with a name' });

    await op('PUT', memberPath('acme', id, user.id), 201, NoBodySchema);
    await op('GET', memberPath('acme', id, user.id), 204, NoBodySchema);
    const members = await op('GET', `${membersPath('acme', id)}?includeOrgs=true`, 200, MemberListSchema);
    expect(members.json).toHaveLength(2);
    await op('GET', membersCountPath('acme', id), 200, CountSchema);

    const linkUrl = portalLinkPath('acme', id);
    const link = await postForm(svc, linkUrl, {}, { authorization: `Bearer ${token}` });
    expectAnswer('POST', linkUrl, link, 200, PortalLinkSchema);

    // Get member info with the user's own token, so the object has an entry.
    const userToken = await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: PUBLIC_CLIENT_ID, username: 'ann', password: 'pw-ann-123456' });
    expect(userToken.status).toBe(200);
    const me = await call(svc, { method: 'GET', url: orgsMePath('acme'), token: userToken.json.access_token });
    expectAnswer('GET', orgsMePath('acme'), me, 200, MemberInfoSchema);
    expect(me.json).toEqual({ [id]: { name: 'schema-org', displayName: 'Now with a name', attributes: {}, roles: [] } });

    await op('DELETE', memberPath('acme', id, user.id), 204, NoBodySchema);
    await op('DELETE', orgPath('acme', id), 204, NoBodySchema);
  });

  it('the OpenID Connect endpoints answer within their schemas too', async () => {
    const key = await svc.admin.createApiKey('acme', { name: 'oidc-schemas', permissions: ['view-organizations', 'introspect-tokens'] });
    const tokenAnswer = await postForm(svc, tokenPath('acme'), { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret });
    expectAnswer('POST', tokenPath('acme'), tokenAnswer, 200, TokenResponseSchema);
    const discovery = await call(svc, { method: 'GET', url: discoveryPath('acme') });
    expectAnswer('GET', discoveryPath('acme'), discovery, 200, DiscoveryDocumentSchema);
    const jwks = await call(svc, { method: 'GET', url: certsPath('acme') });
    expectAnswer('GET', certsPath('acme'), jwks, 200, JwksSchema);
    const introspected = await postForm(svc, introspectionPath('acme'), { token: tokenAnswer.json.access_token, client_id: key.clientId, client_secret: key.clientSecret });
    expectAnswer('POST', introspectionPath('acme'), introspected, 200, IntrospectionSchema);
    expect(introspected.json.active).toBe(true);
    await svc.admin.createUser('acme', { username: 'una', email: 'una@example.com', password: 'pw-una-123456' });
    const userToken = await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: PUBLIC_CLIENT_ID, username: 'una', password: 'pw-una-123456' });
    const info = await call(svc, { method: 'GET', url: userinfoPath('acme'), token: userToken.json.access_token });
    expectAnswer('GET', userinfoPath('acme'), info, 200, UserinfoSchema);
    expect(info.json).toMatchObject({ preferred_username: 'una', email: 'una@example.com' });
  });
});

describe('the checking serializer', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setSerializerCompiler(checkedSerializerCompiler);
    installErrorHandling(app);
    app.get('/good', { schema: { response: { 200: OrganizationSchema } } }, async () => ({
      id: 'o',
      name: 'n',
      domains: [],
      attributes: {},
      realm: 'acme',
    }));
    // A bug: null where the contract leaves the field out.
    app.get('/bad', { schema: { response: { 200: OrganizationSchema } } }, async () => ({
      id: 'o',
      name: 'n',
      displayName: null,
      domains: [],
      attributes: {},
      realm: 'acme',
    }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('sends an answer that matches as JSON', async () => {
    const res = await app.inject({ url: '/good' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ id: 'o', name: 'n', domains: [], attributes: {}, realm: 'acme' });
  });

  it('refuses to send an answer the contract does not allow: a generic 500, nothing of the answer leaks', async () => {
    const res = await app.inject({ url: '/bad' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal_error', error_description: 'The service failed to handle the request; try again later.' });
  });
});

describe('checking and writing a large array answer a part at a time', () => {
  const org = (i: number) => ({ id: `o${i}`, name: `n${i}`, domains: [], attributes: { k: [String(i)] }, realm: 'acme' });
  const answer = { method: 'GET', url: '/orgs', status: 200 };

  it('writes what JSON.stringify writes, at every size around the part size', async () => {
    for (const size of [0, 1, JSON_ITEMS_PER_TURN - 1, JSON_ITEMS_PER_TURN, JSON_ITEMS_PER_TURN + 1, 3 * JSON_ITEMS_PER_TURN + 7]) {
      const items = Array.from({ length: size }, (_, i) => org(i));
      expect(await checkedJsonArrayInTurns(OrganizationSchema, items, answer)).toBe(JSON.stringify(items));
    }
  });

  it('lets other work run between parts', async () => {
    const items = Array.from({ length: 2 * JSON_ITEMS_PER_TURN + 1 }, (_, i) => org(i));
    // Something else queued on the event loop meanwhile: it runs once per turn.
    let turns = 0;
    let done = false;
    const other = (): void => {
      if (done) return;
      turns += 1;
      setImmediate(other);
    };
    setImmediate(other);
    await checkedJsonArrayInTurns(OrganizationSchema, items, answer);
    done = true;
    // Three parts, two turns between them.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('refuses an item the contract does not allow, naming its index', async () => {
    const items = [org(0), { ...org(1), displayName: null }];
    await expect(checkedJsonArrayInTurns(OrganizationSchema, items, answer)).rejects.toThrow(ResponseSchemaError);
    await expect(checkedJsonArrayInTurns(OrganizationSchema, items, answer)).rejects.toThrow(/GET \/orgs \(200\).*\/1\/displayName/);
  });
});
