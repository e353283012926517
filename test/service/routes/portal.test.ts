import { memberPath, orgPath, orgsPath, portalLinkPath } from '../../../src/api';
import { buildApp } from '../../../src/service/app';
import { createTestRealm, getToken, type TestService } from '../../helpers/service';
import { call, postForm, startServiceWithToken } from '../support';

describe('admin portal', () => {
  let svc: TestService;
  let token: string;
  let org: string;

  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
    const res = await call(svc, {
      method: 'POST',
      url: orgsPath('acme'),
      token,
      payload: { name: '<script>alert(1)</script>', domains: ['portal.example.com'] },
    });
    org = decodeURIComponent(String(res.headers.location).split('/').pop()!);
  });
  afterAll(async () => {
    await svc.close();
  });

  const linkPath = (link: string): string => {
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  };

  describe('POST /realms/{realm}/orgs/{orgId}/portal-link', () => {
    it('answers {user, link, redirect} acting for the default admin user', async () => {
      const res = await postForm(svc, portalLinkPath('acme', org), {}, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
      const admin = await svc.admin.findUserByUsername('acme', `org-admin-${org}`);
      expect(res.json).toEqual({ user: admin!.id, link: expect.any(String), redirect: res.json.link });
      expect(res.json.link.startsWith(`${svc.baseUrl}${orgPath('acme', org)}/portal?token=`)).toBe(true);
    });

    it('redirects by default to the portal page itself, a URL that answers 200', async () => {
      const res = await postForm(svc, portalLinkPath('acme', org), {}, { authorization: `Bearer ${token}` });
      expect(res.json.redirect).toBe(res.json.link);
      const page = await call(svc, { method: 'GET', url: linkPath(res.json.redirect) });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      // Its token is in the URL: never framed, never sent on as a Referer (issue 27, finding 9).
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    });

    it('names both accepted content types when the body has another one', async () => {
      const res = await call(svc, {
        method: 'POST',
        url: portalLinkPath('acme', org),
        token,
        payload: 'userId=x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: 'unsupported_media_type',
        error_description: 'The request body must be sent as application/x-www-form-urlencoded or application/json.',
      });
    });

    it('refuses a control character in a form field with 400 invalid_body', async () => {
      const res = await postForm(svc, portalLinkPath('acme', org), { userId: 'u\u0000' }, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_body', error_description: 'userId must not contain control characters (U+0000 to U+001F).' });
    });

    it('acts for a given member and redirects to baseUri', async () => {
      const user = await svc.admin.createUser('acme', { username: 'pat', email: 'pat@example.com' });
      await call(svc, { method: 'PUT', url: memberPath('acme', org, user.id), token });
      const res = await postForm(
        svc,
        portalLinkPath('acme', org),
        { userId: user.id, baseUri: 'https://app.example.com/back' },
        { authorization: `Bearer ${token}` },
      );
      expect(res.status).toBe(200);
      expect(res.json.user).toBe(user.id);
      expect(res.json.redirect).toBe('https://app.example.com/back');
    });

    it('answers 400 when the user is not a member', async () => {
      const outsider = await svc.admin.createUser('acme', { username: 'outsider' });
      const res = await postForm(svc, portalLinkPath('acme', org), { userId: outsider.id }, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    });

    it('answers 404 for an unknown organization', async () => {
      const res = await postForm(svc, portalLinkPath('acme', 'ghost'), {}, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(404);
    });

    it('needs manage-organizations', async () => {
      const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
      const viewerToken = await getToken(svc, 'acme', viewer.clientId, viewer.clientSecret);
      const res = await postForm(svc, portalLinkPath('acme', org), {}, { authorization: `Bearer ${viewerToken}` });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('insufficient_scope');
    });
  });

  describe('GET the portal link', () => {
    it('serves an HTML page with the organization name (escaped), domains and members', async () => {
      const link = await postForm(svc, portalLinkPath('acme', org), {}, { authorization: `Bearer ${token}` });
      const res = await call(svc, { method: 'GET', url: linkPath(link.json.link) });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(res.text).not.toContain('<script>');
      expect(res.text).toContain('portal.example.com');
      expect(res.text).toContain(`org-admin-${org}`);
    });

    it('answers 403 access_denied JSON while the realm is disabled, and serves the page again once enabled', async () => {
      const key = await createTestRealm(svc, 'portal-paused');
      const pausedToken = await getToken(svc, 'portal-paused', key.clientId, key.clientSecret);
      const created = await call(svc, { method: 'POST', url: orgsPath('portal-paused'), token: pausedToken, payload: { name: 'paused-org' } });
      const pausedOrg = decodeURIComponent(String(created.headers.location).split('/').pop()!);
      const link = await postForm(svc, portalLinkPath('portal-paused', pausedOrg), {}, { authorization: `Bearer ${pausedToken}` });
      await svc.admin.setRealmEnabled('portal-paused', false);
      const refused = await call(svc, { method: 'GET', url: linkPath(link.json.link) });
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(refused.headers['www-authenticate']).toBeUndefined();
      expect(refused.json).toEqual({ error: 'access_denied', error_description: 'Realm portal-paused is disabled.' });
      await svc.admin.setRealmEnabled('portal-paused', true);
      expect((await call(svc, { method: 'GET', url: linkPath(link.json.link) })).status).toBe(200);
    });

    it('answers 401 invalid_token JSON for a tampered token', async () => {
      const link = await postForm(svc, portalLinkPath('acme', org), {}, { authorization: `Bearer ${token}` });
      const res = await call(svc, { method: 'GET', url: `${linkPath(link.json.link)}x` });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_token');
    });

    it('answers 401 invalid_token without a token', async () => {
      const res = await call(svc, { method: 'GET', url: `${orgPath('acme', org)}/portal` });
      expect(res.status).toBe(401);
    });

    it('does not accept an access token as a portal token, nor a portal token as an access token', async () => {
      const asPortal = await call(svc, { method: 'GET', url: `${orgPath('acme', org)}/portal?token=${token}` });
      expect(asPortal.status).toBe(401);
      const link = await postForm(svc, portalLinkPath('acme', org), {}, { authorization: `Bearer ${token}` });
      const portalToken = new URL(link.json.link).searchParams.get('token')!;
      const asAccess = await call(svc, { method: 'GET', url: orgsPath('acme'), token: portalToken });
      expect(asAccess.status).toBe(401);
    });

    it('refuses a link used for another organization', async () => {
      const other = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'portal-other' } });
      const otherId = String(other.headers.location).split('/').pop()!;
      const link = await postForm(svc, portalLinkPath('acme', org), {}, { authorization: `Bearer ${token}` });
      const tokenParam = new URL(link.json.link).search;
      const res = await call(svc, { method: 'GET', url: `${orgPath('acme', otherId)}/portal${tokenParam}` });
      expect(res.status).toBe(401);
    });

    it('answers 401 once the link has expired', async () => {
      // The service's clock is injected: the link's second of life passes without a real wait.
      let clock = Date.now();
      const app = await buildApp({ store: svc.store, portalLinkLifetimeSeconds: 1, now: () => clock });
      try {
        await app.listen({ host: '127.0.0.1', port: 0 });
        const address = app.server.address();
        const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        const shortLived = { ...svc, baseUrl: base };
        const link = await postForm(shortLived, portalLinkPath('acme', org), {}, { authorization: `Bearer ${token}` });
        expect((await call(shortLived, { method: 'GET', url: linkPath(link.json.link) })).status).toBe(200);
        clock += 2_100;
        const res = await call(shortLived, { method: 'GET', url: linkPath(link.json.link) });
        expect(res.status).toBe(401);
        expect(res.json.error_description).toMatch(/expired/);
      } finally {
        await app.close();
      }
    });
  });
});
