import { memberPath, orgPath, orgsPath, tokenPath } from '../../src/api';
import type { TestService } from '../helpers/service';
import { call, startServiceWithToken } from './support';

describe('wrong method on a known path', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
  });
  afterAll(async () => {
    await svc.close();
  });

  it.each([
    ['PATCH', orgPath('acme', 'x'), 'GET, HEAD, PUT, DELETE'],
    ['DELETE', orgsPath('acme'), 'GET, HEAD, POST'],
    ['POST', memberPath('acme', 'o', 'u'), 'GET, HEAD, PUT, DELETE'],
    ['GET', tokenPath('acme'), 'POST'],
    ['PUT', '/realms/acme/orgs/o%2Fp/portal', 'GET, HEAD'],
    ['DELETE', '/realms/acme/orgs/export', 'GET, HEAD'],
    ['GET', '/realms/acme/orgs/import', 'POST'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, url, allow) => {
    const res = await call(svc, { method, url, token });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json).toEqual({
      error: 'method_not_allowed',
      error_description: `${method} is not allowed on ${url}; use ${allow}.`,
    });
  });

  it('keeps 404 not_found without Allow for an unknown path', async () => {
    const res = await call(svc, { method: 'PATCH', url: '/realms/acme/things', token });
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBeUndefined();
    expect(res.json).toEqual({ error: 'not_found', error_description: 'No operation answers PATCH /realms/acme/things.' });
  });

  it('still answers the right method on the same path', async () => {
    const res = await call(svc, { method: 'GET', url: orgsPath('acme'), token });
    expect(res.status).toBe(200);
  });
});
