/**
 * Domains of an organization and their verification, against the service on its real port and a
 * DNS server started by the test (real UDP queries through `dnsServer`).
 */
import { createHash } from 'node:crypto';
import { domainPath, domainsPath, domainVerifyPath, orgPath, orgsPath } from '../../../src/api';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call } from '../support';

let svc: TestService;
let dns: TestDnsServer;
let token: string;
let viewToken: string;

/** The vendor's record value, written out here independently of src/api. */
const expectedValue = (orgId: string, domain: string): string => createHash('sha256').update(`${domain} ${orgId}`).digest('hex');

async function createOrg(name: string, domains: string[]): Promise<string> {
  const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name, domains } });
  expect(res.status).toBe(201);
  return decodeURIComponent(String(res.headers.location).split('/').pop()!);
}

const verify = (orgId: string, domain: string, as = token) => call(svc, { method: 'POST', url: domainVerifyPath('acme', orgId, domain), token: as });

beforeAll(async () => {
  dns = await startDnsServer();
  svc = await startTestService({ app: { dnsServer: dns.address } });
  const key = await createTestRealm(svc, 'acme');
  token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
  viewToken = await getToken(svc, 'acme', viewer.clientId, viewer.clientSecret);
});
afterAll(async () => {
  await svc.close();
  await dns.close();
});

describe('GET /realms/{realm}/orgs/{orgId}/domains', () => {
  it('lists every domain with its record, unverified at first', async () => {
    const orgId = await createOrg('listing', ['listing.example', 'b.listing.example']);
    const res = await call(svc, { method: 'GET', url: domainsPath('acme', orgId), token: viewToken });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { domain_name: 'listing.example', verified: false, record_key: '_org-domain-ownership', record_value: expectedValue(orgId, 'listing.example') },
      { domain_name: 'b.listing.example', verified: false, record_key: '_org-domain-ownership', record_value: expectedValue(orgId, 'b.listing.example') },
    ]);
    const one = await call(svc, { method: 'GET', url: domainPath('acme', orgId, 'B.Listing.Example.'), token: viewToken });
    expect(one.json).toEqual({ domain_name: 'b.listing.example', verified: false, record_key: '_org-domain-ownership', record_value: expectedValue(orgId, 'b.listing.example') });
  });

  it('answers 404 for an unknown organization and for a domain the organization does not list', async () => {
    const orgId = await createOrg('nolist', ['nolist.example']);
    expect((await call(svc, { method: 'GET', url: domainsPath('acme', 'nope'), token })).json).toEqual({ error: 'not_found', error_description: 'Organization nope does not exist.' });
    const res = await call(svc, { method: 'GET', url: domainPath('acme', orgId, 'other.example'), token });
    expect(res.status).toBe(404);
    expect(res.json.error_description).toBe(`other.example is not a domain of organization ${orgId}.`);
    expect((await verify(orgId, 'other.example')).status).toBe(404);
  });
});

describe('POST /realms/{realm}/orgs/{orgId}/domains/{domain}/verify', () => {
  it('fails before the record exists, names a wrong value, and verifies once the record holds the value', async () => {
    const orgId = await createOrg('verifier', ['verifier.example']);
    const record = '_org-domain-ownership.verifier.example';

    const before = await verify(orgId, 'verifier.example');
    expect(before.status).toBe(202);
    expect(before.json).toMatchObject({ domain_name: 'verifier.example', verified: false, verification: { record_name: record, outcome: 'no_record' } });
    expect(dns.queries).toContainEqual({ name: record, type: 'TXT' });

    dns.setTxt(record, ['something else']);
    const wrong = await verify(orgId, 'verifier.example');
    expect(wrong.json.verification).toEqual({
      record_name: record,
      outcome: 'value_mismatch',
      detail: `The TXT records at ${record} ("something else") do not hold the expected value ${expectedValue(orgId, 'verifier.example')}.`,
    });
    expect(wrong.json.verified).toBe(false);

    // Among several TXT records at the name, the one that holds the value counts.
    dns.setTxt(record, ['unrelated', expectedValue(orgId, 'verifier.example')]);
    const ok = await verify(orgId, 'verifier.example');
    expect(ok.status).toBe(202);
    expect(ok.json).toMatchObject({ domain_name: 'verifier.example', verified: true, verification: { outcome: 'verified' } });
    const listed = await call(svc, { method: 'GET', url: domainsPath('acme', orgId), token });
    expect(listed.json[0].verified).toBe(true);

    // Verified stays verified when the record goes away (as with the vendor): the list decides.
    dns.remove(record);
    expect((await verify(orgId, 'verifier.example')).json.verified).toBe(true);
  });

  it('refuses a second organization of the realm with 409 and leaves the first one verified', async () => {
    const first = await createOrg('claim-first', ['claimed.example']);
    const second = await createOrg('claim-second', ['claimed.example']);
    dns.setTxt('_org-domain-ownership.claimed.example', [expectedValue(first, 'claimed.example'), expectedValue(second, 'claimed.example')]);
    expect((await verify(first, 'claimed.example')).json.verified).toBe(true);
    const res = await verify(second, 'claimed.example');
    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      error: 'conflict',
      error_description: `claimed.example is already verified by another organization of this realm (${first}); a domain can be verified by one organization only.`,
    });
    expect((await call(svc, { method: 'GET', url: domainPath('acme', second, 'claimed.example'), token })).json.verified).toBe(false);
    expect((await call(svc, { method: 'GET', url: domainPath('acme', first, 'claimed.example'), token })).json.verified).toBe(true);
  });

  it('keeps the verification of domains that stay when the list changes, and drops the ones that leave', async () => {
    const orgId = await createOrg('changing', ['stays.example', 'leaves.example']);
    for (const domain of ['stays.example', 'leaves.example']) {
      dns.setTxt(`_org-domain-ownership.${domain}`, [expectedValue(orgId, domain)]);
      expect((await verify(orgId, domain)).json.verified).toBe(true);
    }
    const put = await call(svc, { method: 'PUT', url: orgPath('acme', orgId), token, payload: { name: 'changing', domains: ['new.example', 'stays.example'] } });
    expect(put.status).toBe(204);
    // An update without `domains` leaves the list, and so every verification, alone.
    expect((await call(svc, { method: 'PUT', url: orgPath('acme', orgId), token, payload: { name: 'changing', displayName: 'Changing' } })).status).toBe(204);
    const listed = await call(svc, { method: 'GET', url: domainsPath('acme', orgId), token });
    expect(listed.json.map((d: { domain_name: string; verified: boolean }) => [d.domain_name, d.verified])).toEqual([
      ['new.example', false],
      ['stays.example', true],
    ]);
    // Listed again, the domain that left needs verifying again; another organization may now take it.
    await call(svc, { method: 'PUT', url: orgPath('acme', orgId), token, payload: { name: 'changing', domains: ['stays.example', 'leaves.example'] } });
    expect((await call(svc, { method: 'GET', url: domainPath('acme', orgId, 'leaves.example'), token })).json.verified).toBe(false);
  });

  it('frees a verified domain when its organization is deleted', async () => {
    const gone = await createOrg('gone', ['freed.example']);
    dns.setTxt('_org-domain-ownership.freed.example', [expectedValue(gone, 'freed.example')]);
    expect((await verify(gone, 'freed.example')).json.verified).toBe(true);
    expect((await call(svc, { method: 'DELETE', url: orgPath('acme', gone), token })).status).toBe(204);
    const next = await createOrg('next', ['freed.example']);
    dns.setTxt('_org-domain-ownership.freed.example', [expectedValue(next, 'freed.example')]);
    expect((await verify(next, 'freed.example')).json.verified).toBe(true);
  });

  it('needs manage-organizations', async () => {
    const orgId = await createOrg('perm', ['perm.example']);
    const res = await verify(orgId, 'perm.example', viewToken);
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('insufficient_scope');
    expect((await call(svc, { method: 'POST', url: domainVerifyPath('acme', orgId, 'perm.example') })).status).toBe(401);
  });

  it('says so when the DNS server does not answer, and changes nothing', async () => {
    const silent = await startDnsServer();
    const address = silent.address;
    await silent.close();
    const other = await startTestService({ app: { dnsServer: address } });
    try {
      const key = await createTestRealm(other, 'acme');
      const otherToken = await getToken(other, 'acme', key.clientId, key.clientSecret);
      const created = await call(other, { method: 'POST', url: orgsPath('acme'), token: otherToken, payload: { name: 'silent', domains: ['silent.example'] } });
      const orgId = decodeURIComponent(String(created.headers.location).split('/').pop()!);
      const res = await call(other, { method: 'POST', url: domainVerifyPath('acme', orgId, 'silent.example'), token: otherToken });
      expect(res.status).toBe(202);
      expect(res.json.verified).toBe(false);
      expect(res.json.verification.outcome).toBe('lookup_failed');
      expect(res.json.verification.detail).toMatch(/^The DNS lookup of _org-domain-ownership\.silent\.example failed \((ECONNREFUSED|ETIMEOUT|ESERVFAIL)\); nothing was changed\.$/);
    } finally {
      await other.close();
    }
  });
});
