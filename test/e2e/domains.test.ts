/**
 * End to end with the real terraform 1.11, the service and a DNS server started by the test: an
 * organization's domain verified in the apply that creates the organization. The record comes
 * from `provider::orgadmin::domain_verification_record` (offline, known at plan); the
 * verification fails with a diagnostic naming the record before the record exists and succeeds
 * after; the waiting resource succeeds when the record appears while it waits; the
 * `orgadmin_organization_domain` data source reads the state back; import by `ORG/DOMAIN`.
 * Every outcome is checked in the service's own data.
 */
import { domainRecordValue } from '../../src/api';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server';
import { startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(180_000);

let dns: TestDnsServer;
let fx: E2EFixture;
let ws: TerraformWorkspace;

/** Terraform's output with its line wrapping undone. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

/** The configuration: organization globex with two domains, the record, and (optionally) the verification and data source. */
function config(opts: { verify?: string; timeout?: string; dataSource?: boolean }): string {
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

resource "orgadmin_organization" "globex" {
  name    = "globex"
  domains = ["globex.example", "globex-two.example"]
}

locals {
  record = provider::orgadmin::domain_verification_record(orgadmin_organization.globex.id, "globex.example")
}

output "record" {
  value = local.record
}
${
  opts.verify
    ? `
resource "orgadmin_organization_domain_verification" "globex" {
  organization_id = orgadmin_organization.globex.id
  domain          = "${opts.verify}"
  timeouts = {
    create = "${opts.timeout ?? '2m'}"
  }
}
`
    : ''
}${
  opts.dataSource
    ? `
data "orgadmin_organization_domain" "globex" {
  organization_id = orgadmin_organization.globex.id
  domain          = "globex.example"
  depends_on      = [orgadmin_organization_domain_verification.globex]
}

output "verified" {
  value = data.orgadmin_organization_domain.globex.verified
}
`
    : ''
}`;
}

beforeAll(async () => {
  dns = await startDnsServer();
  fx = await startE2E({ dnsServer: dns.address });
  ws = await fx.workspace();
  await ws.writeConfig({ 'main.tf': config({}) });
  await ws.init();
  await ws.apply();
});

afterAll(async () => {
  await fx?.close();
  await dns?.close();
});

const globexId = async (): Promise<string> => (await fx.client.listAllOrganizations()).find((org) => org.name === 'globex')!.id;

it('computes the record offline, the same the service checks', async () => {
  const orgId = await globexId();
  const out = JSON.parse((await ws.run(['output', '-json', 'record'])).stdout) as { name: string; value: string };
  expect(out).toEqual({ name: '_org-domain-ownership.globex.example', value: domainRecordValue(orgId, 'globex.example') });
  expect((await fx.client.getDomain(orgId, 'globex.example')).record_value).toBe(out.value);
});

it('fails before the record exists, naming the record that was looked up, and succeeds after it is published', async () => {
  const orgId = await globexId();
  await ws.writeConfig({ 'main.tf': config({ verify: 'globex.example', timeout: '1s' }) });
  const failed = await ws.run(['apply', '-auto-approve', '-input=false']);
  expect(failed.code).toBe(1);
  const text = flat(failed.stderr);
  expect(text).toContain('Error: Domain not verified in time');
  expect(text).toContain(`It looks up the TXT record "_org-domain-ownership.globex.example", which must hold "${domainRecordValue(orgId, 'globex.example')}"`);
  expect(text).toContain('with orgadmin_organization_domain_verification.globex');
  expect((await fx.client.getDomain(orgId, 'globex.example')).verified).toBe(false);
  expect(dns.queries.filter((query) => query.name === '_org-domain-ownership.globex.example').length).toBeGreaterThanOrEqual(2);

  dns.setTxt('_org-domain-ownership.globex.example', [domainRecordValue(orgId, 'globex.example')]);
  await ws.writeConfig({ 'main.tf': config({ verify: 'globex.example', dataSource: true }) });
  const applied = await ws.apply();
  expect(applied.stdout).toContain('orgadmin_organization_domain_verification.globex: Creation complete');
  expect(JSON.parse((await ws.run(['output', '-json', 'verified'])).stdout)).toBe(true);
  expect((await fx.client.getDomain(orgId, 'globex.example')).verified).toBe(true);
  const again = await ws.run(['plan', '-input=false', '-detailed-exitcode']);
  expect(again.code).toBe(0);
});

it('succeeds when the record appears while the resource waits', async () => {
  const orgId = await globexId();
  const name = '_org-domain-ownership.globex-two.example';
  // The first lookup finds nothing; the record is published when the second lookup arrives,
  // which only a wait after a failed attempt makes.
  let seen = 0;
  const stop = dns.onQuery((query) => {
    if (query.name !== name) return;
    seen += 1;
    if (seen === 2) dns.setTxt(name, [domainRecordValue(orgId, 'globex-two.example')]);
  });
  try {
    await ws.writeConfig({ 'main.tf': config({ verify: 'globex-two.example' }) });
    const applied = await ws.apply();
    expect(applied.stdout).toContain('orgadmin_organization_domain_verification.globex: Creation complete');
  } finally {
    stop();
  }
  expect(seen).toBe(2);
  expect((await fx.client.getDomain(orgId, 'globex-two.example')).verified).toBe(true);
  // The replacement of the verification (another domain) left the first domain verified.
  expect((await fx.client.getDomain(orgId, 'globex.example')).verified).toBe(true);
});

it('imports a verification by ORG/DOMAIN, and refuses an unverified one', async () => {
  const orgId = await globexId();
  await ws.run(['state', 'rm', 'orgadmin_organization_domain_verification.globex']);
  const imported = await ws.run(['import', '-input=false', 'orgadmin_organization_domain_verification.globex', `${orgId}/globex-two.example`]);
  expect(imported.code).toBe(0);
  // Import cannot know the configuration's timeouts: the next plan only sets them, in place.
  const plan = await ws.run(['plan', '-input=false']);
  expect(plan.code).toBe(0);
  expect(flat(plan.stdout)).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  expect(flat(plan.stdout)).toContain('+ timeouts = {');

  await fx.client.updateOrganization(orgId, { name: 'globex', domains: ['globex.example', 'globex-two.example', 'pending.example'] });
  await ws.run(['state', 'rm', 'orgadmin_organization_domain_verification.globex']);
  const refused = await ws.run(['import', '-input=false', 'orgadmin_organization_domain_verification.globex', `${orgId}/pending.example`]);
  expect(refused.code).toBe(1);
  expect(flat(refused.stderr)).toContain('Cannot import: not verified');
});
