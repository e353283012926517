/**
 * End to end: bringing existing organizations, memberships and member sets under Terraform with
 * import blocks and with `terraform import`, into an empty state, then an empty plan.
 */
import { startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(120_000);

let fx: E2EFixture;
let ws: TerraformWorkspace;
let acmeId: string;
let globexId: string;

function resources(): string {
  const { alice, bob, carol } = fx.users;
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

# domains and attributes are set to the organization's values (a domain in another case): the
# import reads them, so the plan after it is empty.
resource "orgadmin_organization" "acme" {
  name         = "acme-corp"
  display_name = "ACME Corporation"
  url          = "https://acme.example.com"
  domains      = ["acme.example.com", "mail.acme.example.com"]
  attributes = {
    tier   = ["gold"]
    region = ["eu", "us"]
  }
}

resource "orgadmin_membership" "alice" {
  organization_id = orgadmin_organization.acme.id
  user_id         = "${alice!.id}"
}

# domains and attributes are left out: imported, they stay unmanaged and keep their values.
resource "orgadmin_organization" "globex" {
  name = "globex"
}

resource "orgadmin_organization_members" "globex" {
  organization_id = orgadmin_organization.globex.id
  user_ids        = ["${bob!.id}", "${carol!.id}"]
}
`;
}

beforeAll(async () => {
  fx = await startE2E({ usernames: ['alice', 'bob', 'carol'] });
  acmeId = await fx.client.createOrganization({
    name: 'acme-corp',
    displayName: 'ACME Corporation',
    url: 'https://acme.example.com',
    domains: ['acme.example.com', 'mail.acme.example.com'],
    attributes: { tier: ['gold'], region: ['eu', 'us'] },
  });
  await fx.client.addMember(acmeId, fx.users.alice!.id);
  globexId = await fx.client.createOrganization({ name: 'globex', domains: ['globex.example.com'], attributes: { owner: ['hank'] } });
  await fx.client.addMember(globexId, fx.users.bob!.id);
  await fx.client.addMember(globexId, fx.users.carol!.id);
  ws = await fx.workspace();
});

afterAll(async () => {
  await fx?.close();
});

describe('importing existing objects into an empty state', () => {
  it('imports an organization and a membership with import blocks', async () => {
    await ws.writeConfig({
      'main.tf': resources(),
      'imports.tf': `
import {
  to = orgadmin_organization.acme
  id = "${acmeId}"
}

import {
  to = orgadmin_membership.alice
  id = "${acmeId}/${fx.users.alice!.id}"
}

import {
  to = orgadmin_organization.globex
  id = "${globexId}"
}
`,
    });
    await ws.init();
    const plan = await ws.plan();
    expect(plan.stdout).toContain('Plan: 3 to import, 1 to add, 0 to change, 0 to destroy.');

    // Apply only the imports: the member set is imported separately below with `terraform import`.
    const apply = await ws.apply('-target=orgadmin_organization.acme', '-target=orgadmin_membership.alice', '-target=orgadmin_organization.globex');
    expect(apply.stdout).toContain('Apply complete! Resources: 3 imported, 0 added, 0 changed, 0 destroyed.');
  });

  it('imports a member set with terraform import', async () => {
    const result = await ws.run(['import', '-input=false', 'orgadmin_organization_members.globex', globexId]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Import successful!');
    expect(result.code).toBe(0);
  });

  it('plans no changes once everything is imported, and created nothing', async () => {
    const plan = await ws.plan();
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect((await fx.client.listAllOrganizations()).map((o) => o.id).sort()).toEqual([acmeId, globexId].sort());
    const acme = await fx.client.getOrganization(acmeId);
    expect([...acme.domains].sort()).toEqual(['acme.example.com', 'mail.acme.example.com']);
    expect(acme.attributes).toEqual({ tier: ['gold'], region: ['eu', 'us'] });
    const globex = await fx.client.getOrganization(globexId);
    expect(globex.domains).toEqual(['globex.example.com']);
    expect(globex.attributes).toEqual({ owner: ['hank'] });
  });

  it('records the imported domains and attributes in state, managed or not', async () => {
    const show = await ws.run(['show', '-json']);
    expect(show.code).toBe(0);
    const resources = (JSON.parse(show.stdout) as { values: { root_module: { resources: Array<{ address: string; values: Record<string, unknown> }> } } })
      .values.root_module.resources;
    const values = (address: string): Record<string, unknown> | undefined => resources.find((r) => r.address === address)?.values;
    expect(values('orgadmin_organization.acme')).toMatchObject({ attributes: { tier: ['gold'], region: ['eu', 'us'] } });
    expect([...(values('orgadmin_organization.acme')!['domains'] as string[])].sort()).toEqual(['acme.example.com', 'mail.acme.example.com']);
    expect(values('orgadmin_organization.globex')).toMatchObject({ domains: ['globex.example.com'], attributes: { owner: ['hank'] } });
  });

  it('plans an in-place update once a configured attribute differs, and applies it', async () => {
    await ws.writeConfig({ 'main.tf': resources().replace('tier   = ["gold"]', 'tier   = ["platinum"]') });
    const plan = await ws.plan();
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    const apply = await ws.apply();
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
    expect((await fx.client.getOrganization(acmeId)).attributes).toEqual({ tier: ['platinum'], region: ['eu', 'us'] });
    expect((await fx.client.getOrganization(globexId)).attributes).toEqual({ owner: ['hank'] });
    await ws.writeConfig({ 'main.tf': resources() });
  });

  it('refuses a membership import id without the user, naming the expected form', async () => {
    await ws.writeConfig({
      'main.tf': resources() + `
resource "orgadmin_membership" "bad" {
  organization_id = orgadmin_organization.acme.id
  user_id         = "${fx.users.bob!.id}"
}
`,
    });
    const result = await ws.run(['import', '-input=false', 'orgadmin_membership.bad', acmeId]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ORG\/USER/);
  });
});
