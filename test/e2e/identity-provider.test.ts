/**
 * End to end with the real terraform 1.11 and the service: `orgadmin_organization_identity_provider`
 * with its write-only client secret. The secret reaches the service (read back through its sealed
 * store) and never the plan, the state or Terraform's output; a new secret goes only with a new
 * `client_secret_wo_version`; enabled, display name and import by `ORG/ALIAS`; a role mapper
 * (`orgadmin_organization_identity_provider_mapper`) created, changed and imported; destroy removes
 * them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { secretContext } from '../../src/service/admin/identity-providers';
import { startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(180_000);

let fx: E2EFixture;
let ws: TerraformWorkspace;
let output = '';

const flat = (text: string): string => text.replace(/\s+/g, ' ');

function config(opts: { secret: string; version: number; enabled?: boolean; displayName?: string; mapperRole?: string }): string {
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

resource "orgadmin_organization" "globex" {
  name    = "globex"
  domains = ["globex.example"]
}

resource "orgadmin_organization_identity_provider" "okta" {
  organization_id          = orgadmin_organization.globex.id
  alias                    = "globex-okta"
  display_name             = "${opts.displayName ?? 'Globex Okta'}"
  issuer                   = "https://login.globex.example"
  client_id                = "broker"
  client_secret_wo         = "${opts.secret}"
  client_secret_wo_version = ${opts.version}
${opts.enabled === undefined ? '' : `  enabled                  = ${opts.enabled}\n`}}

output "redirect_uri" {
  value = orgadmin_organization_identity_provider.okta.redirect_uri
}
${
  opts.mapperRole
    ? `
resource "orgadmin_organization_role" "role" {
  organization_id = orgadmin_organization.globex.id
  name            = "${opts.mapperRole}"
}

resource "orgadmin_organization_identity_provider_mapper" "first_admins" {
  organization_id         = orgadmin_organization.globex.id
  identity_provider_alias = orgadmin_organization_identity_provider.okta.alias
  name                    = "first administrators"
  mapper_type             = "oidc-hardcoded-org-role-idp-mapper"
  config = {
    org_role = orgadmin_organization_role.role.name
    syncMode = "IMPORT"
  }
}
`
    : ''
}`;
}

/** Applies `text` and keeps what Terraform printed. */
async function apply(text: string): Promise<string> {
  await ws.writeConfig({ 'main.tf': text });
  const result = await ws.apply();
  output += result.stdout + result.stderr;
  return result.stdout;
}

/** The provider as the service keeps it, with its secret opened. */
async function stored() {
  const record = await fx.svc.store.sso.getIdentityProvider('acme', 'globex-okta');
  if (!record) return undefined;
  const secret = record.sealedClientSecret === null ? null : await fx.svc.admin.sealedSecrets.open(record.sealedClientSecret, secretContext('acme', 'globex-okta'));
  return { ...record, secret };
}

beforeAll(async () => {
  fx = await startE2E();
  ws = await fx.workspace();
  await ws.writeConfig({ 'main.tf': config({ secret: 'first-secret-value', version: 1 }) });
  await ws.init();
});

afterAll(async () => {
  await fx?.close();
});

it('creates the provider with its secret at the service, shows the redirect URI, and keeps the secret out of plan and state', async () => {
  const plan = await ws.run(['plan', '-input=false', '-out=tfplan']);
  expect(plan.code).toBe(0);
  output += plan.stdout;
  expect(plan.stdout).toContain('client_secret_wo         = (write-only attribute)');
  const applied = await ws.run(['apply', '-input=false', 'tfplan']);
  expect(applied.code).toBe(0);
  output += applied.stdout;
  const orgId = (await fx.client.listAllOrganizations()).find((org) => org.name === 'globex')!.id;
  expect(await stored()).toMatchObject({ organizationId: orgId, displayName: 'Globex Okta', enabled: true, secret: 'first-secret-value', config: { clientId: 'broker', issuer: 'https://login.globex.example' } });
  expect(JSON.parse((await ws.run(['output', '-json', 'redirect_uri'])).stdout)).toBe(`${fx.svc.baseUrl}/realms/acme/broker/globex-okta/endpoint`);
  const state = await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8');
  expect(state).not.toContain('first-secret-value');
  expect(JSON.parse(state).resources.find((r: { type: string }) => r.type === 'orgadmin_organization_identity_provider').instances[0].attributes.client_secret_wo).toBeNull();
  expect((await ws.run(['plan', '-input=false', '-detailed-exitcode'])).code).toBe(0);
});

it('sends a new secret only with a new version, keeping the stored one otherwise', async () => {
  // The same version with another value: Terraform sees no change, the service keeps the first secret.
  await ws.writeConfig({ 'main.tf': config({ secret: 'second-secret-value', version: 1 }) });
  expect((await ws.run(['plan', '-input=false', '-detailed-exitcode'])).code).toBe(0);
  await apply(config({ secret: 'second-secret-value', version: 1, displayName: 'Globex SSO' }));
  expect(await stored()).toMatchObject({ displayName: 'Globex SSO', secret: 'first-secret-value' });

  const bumped = await apply(config({ secret: 'second-secret-value', version: 2, displayName: 'Globex SSO' }));
  expect(bumped).toContain('1 changed');
  expect((await stored())!.secret).toBe('second-secret-value');
});

it('disables and enables the provider', async () => {
  await apply(config({ secret: 'second-secret-value', version: 2, enabled: false }));
  expect((await stored())!.enabled).toBe(false);
  await apply(config({ secret: 'second-secret-value', version: 2, enabled: true }));
  expect((await stored())!.enabled).toBe(true);
});

it('imports by ORG/ALIAS, keeping the stored secret until the version is applied', async () => {
  const orgId = (await fx.client.listAllOrganizations()).find((org) => org.name === 'globex')!.id;
  await ws.run(['state', 'rm', 'orgadmin_organization_identity_provider.okta']);
  const imported = await ws.run(['import', '-input=false', 'orgadmin_organization_identity_provider.okta', `${orgId}/globex-okta`]);
  expect(imported.code).toBe(0);
  expect((await stored())!.secret).toBe('second-secret-value');
  // Import cannot know the secret's version: the next apply sends the configured secret with it.
  const plan = await ws.run(['plan', '-input=false']);
  expect(flat(plan.stdout)).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  expect(flat(plan.stdout)).toContain('+ client_secret_wo_version = 2');
  await apply(config({ secret: 'third-secret-value', version: 2, enabled: true }));
  expect((await stored())!.secret).toBe('third-secret-value');
});

it('creates a role mapper, changes it in place, and imports it by ORG/ALIAS/MAPPER_ID', async () => {
  const orgId = (await fx.client.listAllOrganizations()).find((org) => org.name === 'globex')!.id;
  await apply(config({ secret: 'third-secret-value', version: 2, mapperRole: 'admin' }));
  const [mapper] = await fx.svc.store.sso.listMappers('acme', 'globex-okta');
  expect(mapper).toMatchObject({ name: 'first administrators', mapperType: 'oidc-hardcoded-org-role-idp-mapper', config: { org_role: 'admin', syncMode: 'IMPORT' } });
  const changed = await apply(config({ secret: 'third-secret-value', version: 2, mapperRole: 'owner' }));
  expect(changed).toContain('orgadmin_organization_identity_provider_mapper.first_admins: Modifications complete');
  expect((await fx.svc.store.sso.listMappers('acme', 'globex-okta')).map((m) => [m.id, m.config.org_role])).toEqual([[mapper!.id, 'owner']]);

  await ws.run(['state', 'rm', 'orgadmin_organization_identity_provider_mapper.first_admins']);
  const imported = await ws.run(['import', '-input=false', 'orgadmin_organization_identity_provider_mapper.first_admins', `${orgId}/globex-okta/${mapper!.id}`]);
  expect(imported.code).toBe(0);
  expect((await ws.run(['plan', '-input=false', '-detailed-exitcode'])).code).toBe(0);
});

it('never prints a secret, and destroy removes the provider', async () => {
  const destroyed = await ws.run(['destroy', '-auto-approve', '-input=false']);
  expect(destroyed.code).toBe(0);
  output += destroyed.stdout + destroyed.stderr;
  expect(await stored()).toBeUndefined();
  expect(await fx.svc.store.sso.listMappers('acme', 'globex-okta')).toEqual([]);
  for (const secret of ['first-secret-value', 'second-secret-value', 'third-secret-value']) expect(output).not.toContain(secret);
});
