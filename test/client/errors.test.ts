import { inspect } from 'node:util';
import { orgPath, orgsPath, tokenPath } from '../../src/api';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  isOrgAdminError,
  NotFoundError,
  OrgAdminError,
  RateLimitedError,
  ServerError,
  TokenError,
  UnauthorizedError,
  UnexpectedResponseError,
  type OrgAdminErrorCode,
} from '../../src/client';
import { CLIENT_SECRET, errorBody, JSON_HEADERS, mockSetup, replyToken, type MockSetup } from './support';

describe('errors from error answers', () => {
  let setup: MockSetup;
  beforeEach(() => {
    // No retries: each case is about the error of one answer.
    setup = mockSetup({ maxRetries: 0 });
    replyToken(setup.pool, 'the-access-token');
  });
  afterEach(async () => {
    await setup.close();
  });

  it('carries status, code, service error, description, method and path of a 404', async () => {
    setup.pool
      .intercept({ path: orgPath('acme', 'missing') })
      .reply(404, errorBody('not_found', 'Organization not found'), JSON_HEADERS);

    const error = await setup.client.getOrganization('missing').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(OrgAdminError);
    expect(error).toMatchObject({
      name: 'NotFoundError',
      code: 'ORGADMIN_NOT_FOUND',
      status: 404,
      error: 'not_found',
      errorDescription: 'Organization not found',
      method: 'GET',
      path: '/realms/acme/orgs/missing',
    });
    expect((error as Error).message).toBe('GET /realms/acme/orgs/missing failed: 404 not_found: Organization not found');
  });

  it.each([
    [400, 'BadRequestError', BadRequestError, 'ORGADMIN_BAD_REQUEST'],
    [403, 'ForbiddenError', ForbiddenError, 'ORGADMIN_FORBIDDEN'],
    [404, 'NotFoundError', NotFoundError, 'ORGADMIN_NOT_FOUND'],
    [409, 'ConflictError', ConflictError, 'ORGADMIN_CONFLICT'],
    [429, 'RateLimitedError', RateLimitedError, 'ORGADMIN_RATE_LIMITED'],
    [500, 'ServerError', ServerError, 'ORGADMIN_SERVER'],
    [503, 'ServerError', ServerError, 'ORGADMIN_SERVER'],
    [413, 'HttpError', HttpError, 'ORGADMIN_HTTP'],
  ] as const)('maps status %i to %s with code %s', async (status, className, errorClass, code) => {
    setup.pool.intercept({ path: orgPath('acme', 'o1'), method: 'PUT' }).reply(status, errorBody('some_code', 'Some sentence'));

    const error = await setup.client.updateOrganization('o1', { name: 'n' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(errorClass);
    expect((error as Error).name).toBe(className);
    expect(error).toMatchObject({ status, code, error: 'some_code', errorDescription: 'Some sentence', method: 'PUT' });
  });

  it('maps a 401 that persists after a fresh token to UnauthorizedError', async () => {
    replyToken(setup.pool, 'another-token');
    setup.pool.intercept({ path: orgsPath('acme') }).reply(401, errorBody('invalid_token', 'Bad token')).times(2);

    const error = await setup.client.listOrganizations().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: 'ORGADMIN_UNAUTHORIZED' });
  });

  it('reads a non-JSON error body (a proxy page) as a one-line excerpt with no service code', async () => {
    const html = `<html>\n<head><title>502 Bad Gateway</title></head>\n<body>${'x'.repeat(500)}</body></html>`;
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(502, html, { headers: { 'content-type': 'text/html' } });

    const error = (await setup.client.getOrganization('o1').catch((e: unknown) => e)) as ServerError;

    expect(error).toBeInstanceOf(ServerError);
    expect(error.error).toBeUndefined();
    expect(error.errorDescription).toMatch(/^<html> <head><title>502 Bad Gateway<\/title><\/head> <body>x+…$/);
    expect(error.errorDescription!.length).toBeLessThanOrEqual(201);
    expect(error.message).toMatch(/^GET \/realms\/acme\/orgs\/o1 failed: 502: <html>/);
  });

  it('handles an empty error body', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1'), method: 'DELETE' }).reply(404, '');

    const error = await setup.client.deleteOrganization('o1').catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 404, error: undefined, errorDescription: undefined });
    expect((error as Error).message).toBe('DELETE /realms/acme/orgs/o1 failed: 404');
  });

  it('handles a JSON error body of another shape', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(500, { message: 'boom' }, JSON_HEADERS);

    const error = (await setup.client.getOrganization('o1').catch((e: unknown) => e)) as ServerError;

    expect(error.error).toBeUndefined();
    expect(error.errorDescription).toBe('{"message":"boom"}');
  });

  it('never carries the access token, even when the answer echoes it', async () => {
    setup.pool
      .intercept({ path: orgPath('acme', 'o1') })
      .reply(400, errorBody('invalid_query', 'Header was Bearer the-access-token'), JSON_HEADERS);

    const error = await setup.client.getOrganization('o1').catch((e: unknown) => e);

    expect((error as Error).message).not.toContain('the-access-token');
    expect(JSON.stringify(error)).not.toContain('the-access-token');
    expect(inspect(error)).not.toContain('the-access-token');
    expect((error as BadRequestError).errorDescription).toBe('Header was Bearer [redacted]');
  });

  it('throws UnexpectedResponseError for a success answer whose body is not JSON', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, '<html>login page</html>');

    const error = await setup.client.getOrganization('o1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ code: 'ORGADMIN_UNEXPECTED_RESPONSE', status: 200, path: orgPath('acme', 'o1') });
  });
});

describe('token errors', () => {
  let setup: MockSetup;
  beforeEach(() => {
    setup = mockSetup();
  });
  afterEach(async () => {
    await setup.close();
  });

  it('reaches the caller as TokenError with the OAuth error, and never contains the client secret', async () => {
    setup.pool
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(401, errorBody('unauthorized_client', 'Invalid client secret'), JSON_HEADERS);

    const error = await setup.client.listOrganizations().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ code: 'ORGADMIN_TOKEN', status: 401, error: 'unauthorized_client' });
    expect((error as Error).message).not.toContain(CLIENT_SECRET);
    expect((error as Error).stack).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify(error)).not.toContain(CLIENT_SECRET);
    expect(inspect(error, { depth: 10 })).not.toContain(CLIENT_SECRET);
  });
});

describe('isOrgAdminError', () => {
  it('is true for every SDK error and false for anything else', () => {
    expect(isOrgAdminError(new NotFoundError({ status: 404, method: 'GET', path: '/x' }))).toBe(true);
    expect(isOrgAdminError(new TokenError({ realm: 'acme', status: 401 }))).toBe(true);
    expect(isOrgAdminError(new Error('plain'))).toBe(false);
    expect(isOrgAdminError({ code: 'ORGADMIN_HTTP' })).toBe(false);
    expect(isOrgAdminError(undefined)).toBe(false);
  });

  it('narrows on code with a switch over the closed union', () => {
    const describe = (e: OrgAdminError): string => {
      const code: OrgAdminErrorCode = e.code;
      switch (code) {
        case 'ORGADMIN_NOT_FOUND':
          return 'gone';
        case 'ORGADMIN_FORBIDDEN':
        case 'ORGADMIN_UNAUTHORIZED':
          return 'permission';
        default:
          return 'other';
      }
    };
    expect(describe(new NotFoundError({ status: 404, method: 'GET', path: '/x' }))).toBe('gone');
    expect(describe(new ForbiddenError({ status: 403, method: 'GET', path: '/x' }))).toBe('permission');
    expect(describe(new ConflictError({ status: 409, method: 'POST', path: '/x' }))).toBe('other');
  });
});
