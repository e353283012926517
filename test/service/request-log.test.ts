/**
 * The request log never shows a token or secret, wherever the client put it: in the query, in the
 * path (a token pasted where an id belongs), or in the text of an error; and redaction works on the
 * whole text, so no prefix of a secret survives.
 */
import { orgPath, orgsPath, tokenPath } from '../../src/api';
import { Admin } from '../../src/service/admin';
import { buildApp } from '../../src/service/app';
import { redactSecrets, redactUrl } from '../../src/service/request-log';
import { SqliteStore } from '../../src/service/store/sqlite-store';

describe('redaction', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu';
  const secret = 'Zx8Qm2R7vN4kT1pL6sD9fG3hJ5wA0yB2cE7uI8oP1qS';

  it('hides tokens in the path, the query and free text, keeping ids readable', () => {
    expect(redactUrl(`/realms/acme/orgs/${jwt}/members`)).toBe('/realms/acme/orgs/[redacted]/members');
    expect(redactUrl(`/realms/acme/orgs/${secret}`)).toBe('/realms/acme/orgs/[redacted]');
    expect(redactUrl(`/realms/acme/orgs/o1/portal?token=abc.def&x=1`)).toBe('/realms/acme/orgs/o1/portal?token=[redacted]&x=1');
    expect(redactUrl('/realms/acme/orgs/3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe('/realms/acme/orgs/3f2504e0-4f89-11d3-9a0c-0305e82c3301');
    expect(redactSecrets(`Bearer ${jwt} was refused`)).toBe('Bearer [redacted] was refused');
  });

  it('redacts before anything is cut: no prefix of the token survives a later truncation', () => {
    const text = `error at ${jwt} and more`;
    const cut = redactSecrets(text).slice(0, 20);
    expect(cut).not.toContain(jwt.slice(0, 12));
  });
});

describe('the request log of a running service', () => {
  it('never writes a token or secret placed in the path, the query or the headers', async () => {
    const lines: string[] = [];
    const store = SqliteStore.open(':memory:');
    const admin = new Admin(store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'k', permissions: ['view-organizations'] });
    const app = await buildApp({ store, logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    try {
      const tokenRes = await app.inject({
        method: 'POST',
        url: tokenPath('acme'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
      });
      const accessToken = tokenRes.json().access_token as string;
      const auth = { authorization: `Bearer ${accessToken}` };
      await app.inject({ method: 'GET', url: orgPath('acme', accessToken), headers: auth });
      await app.inject({ method: 'GET', url: `${orgPath('acme', key.clientSecret)}/members`, headers: auth });
      await app.inject({ method: 'GET', url: `/nowhere/${accessToken}` });
      await app.inject({ method: 'GET', url: `${orgsPath('acme')}?access_token=${accessToken}&client_secret=${key.clientSecret}`, headers: auth });
      const log = lines.join('');
      expect(log).toContain('request completed');
      expect(log).toContain('[redacted]');
      for (const secret of [key.clientSecret, accessToken, accessToken.split('.')[0], accessToken.split('.')[2]]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await app.close();
      await store.close();
    }
  });
});
