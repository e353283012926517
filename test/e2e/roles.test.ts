/**
 * End to end with the real terraform: organization roles declared in HCL (a role of the
 * organization's own, an adopted default role, one member's roles over an additive membership, and
 * a role set for every member of an authoritative member set via for_each), applied, planned again
 * with no change; a grant revoked through the SDK shows in the plan and the apply repairs it; a
 * non-member's grant fails the plan; a role made outside Terraform is imported; destroy. What each
 * step did is read from the service afterwards.
 */
import { startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(180_000);

let fx: E2EFixture;
let ws: TerraformWorkspace;

/** The configuration; `extra` is appended (imports, a broken resource). */
function config(extra = ''): string {
  const { alice, bob, carol } = fx.users;
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

resource "orgadmin_organization" "acme" {
  name = "roles-e2e"
}

resource "orgadmin_organization_role" "billing" {
  organization_id = orgadmin_organization.acme.id
  name            = "billing"
  description     = "Pays the bills"
}

resource "orgadmin_organization_role" "manage_members" {
  organization_id = orgadmin_organization.acme.id
  name            = "manage-members"
  description     = "Runs the team"
}

resource "orgadmin_membership" "alice" {
  organization_id = orgadmin_organization.acme.id
  user_id         = "${alice!.id}"
}

resource "orgadmin_organization_member_roles" "alice" {
  organization_id = orgadmin_organization.acme.id
  user_id         = orgadmin_membership.alice.user_id
  roles           = [orgadmin_organization_role.billing.name, orgadmin_organization_role.manage_members.name]
}

resource "orgadmin_organization" "globex" {
  name = "roles-e2e-globex"
}

resource "orgadmin_organization_members" "team" {
  organization_id = orgadmin_organization.globex.id
  user_ids        = ["${bob!.id}", "${carol!.id}"]
}

resource "orgadmin_organization_member_roles" "team" {
  for_each        = toset(orgadmin_organization_members.team.user_ids)
  organization_id = orgadmin_organization_members.team.organization_id
  user_id         = each.value
  roles           = ["view-members", "view-roles"]
}
${extra}`;
}

/** The id of an organization by name, read from the service. */
async function orgIdOf(name: string): Promise<string> {
  const [org] = (await fx.client.listAllOrganizations({ search: name })).filter((o) => o.name === name);
  if (!org) throw new Error(`no organization ${name}`);
  return org.id;
}
const rolesOf = async (orgId: string, userId: string): Promise<string[]> => (await fx.client.listMemberRoles(orgId, userId)).map((r) => r.name);

beforeAll(async () => {
  fx = await startE2E({ usernames: ['alice', 'bob', 'carol', 'dave'] });
  ws = await fx.workspace();
});
afterAll(async () => {
  await fx?.close();
});

describe('organization roles with the real terraform', () => {
  it('applies roles and grants, and plans no change afterwards', async () => {
    await ws.writeConfig({ 'main.tf': config() });
    expect((await ws.init()).code).toBe(0);
    const apply = await ws.apply();
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toContain('Apply complete! Resources: 9 added, 0 changed, 0 destroyed.');

    const acme = await orgIdOf('roles-e2e');
    const globex = await orgIdOf('roles-e2e-globex');
    expect(await fx.client.getRole(acme, 'billing')).toMatchObject({ name: 'billing', description: 'Pays the bills' });
    expect((await fx.client.getRole(acme, 'manage-members')).description).toBe('Runs the team');
    expect(await rolesOf(acme, fx.users.alice!.id)).toEqual(['billing', 'manage-members']);
    expect(await rolesOf(globex, fx.users.bob!.id)).toEqual(['view-members', 'view-roles']);
    expect(await rolesOf(globex, fx.users.carol!.id)).toEqual(['view-members', 'view-roles']);

    const plan = await ws.plan();
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('shows a grant revoked through the SDK in the plan, and the apply grants it again', async () => {
    const acme = await orgIdOf('roles-e2e');
    await fx.client.revokeRole(acme, 'billing', fx.users.alice!.id);
    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('orgadmin_organization_member_roles.alice will be updated in-place');
    expect(plan.stdout).toMatch(/\+ "billing"/);
    const apply = await ws.apply();
    expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
    expect(await rolesOf(acme, fx.users.alice!.id)).toEqual(['billing', 'manage-members']);
    expect((await ws.plan()).code).toBe(0);
  });

  it('fails the plan on user_id for a grant to a user who is not a member, naming the fix', async () => {
    const acme = await orgIdOf('roles-e2e');
    await ws.writeConfig({
      'main.tf': config(`
resource "orgadmin_organization_member_roles" "dave" {
  organization_id = orgadmin_organization.acme.id
  user_id         = "${fx.users.dave!.id}"
  roles           = ["view-members"]
}
`),
    });
    const plan = await ws.plan();
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('User is not a member of the organization');
    expect(plan.stderr).toContain('user_id = orgadmin_membership.<name>.user_id');
    expect(await fx.client.isMember(acme, fx.users.dave!.id)).toBe(false);
    await ws.writeConfig({ 'main.tf': config() });
  });

  it('imports a role made outside Terraform with an import block, then plans no change', async () => {
    const acme = await orgIdOf('roles-e2e');
    await fx.client.createRole(acme, { name: 'auditor', description: 'Reads everything' });
    await ws.writeConfig({
      'main.tf': config(`
resource "orgadmin_organization_role" "auditor" {
  organization_id = orgadmin_organization.acme.id
  name            = "auditor"
  description     = "Reads everything"
}

import {
  to = orgadmin_organization_role.auditor
  id = "${acme}/auditor"
}
`),
    });
    const apply = await ws.apply();
    expect(apply.stdout).toContain('Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
    expect((await ws.plan()).code).toBe(0);
    // And a member's roles with terraform import: the state gets what the service holds.
    const forgotten = await ws.run(['state', 'rm', 'orgadmin_organization_member_roles.alice']);
    expect(forgotten.code).toBe(0);
    const imported = await ws.run(['import', '-input=false', 'orgadmin_organization_member_roles.alice', `${acme}/${fx.users.alice!.id}`]);
    expect(imported.stdout).toContain('Import successful!');
    expect((await ws.plan()).code).toBe(0);
  });

  it('destroys everything: custom roles deleted, the adopted default role left, grants revoked', async () => {
    const acme = await orgIdOf('roles-e2e');
    // Keep the organizations alive to look at what the role resources did: destroy the roles only.
    const destroy = await ws.run([
      'destroy', '-auto-approve', '-input=false',
      '-target=orgadmin_organization_member_roles.alice', '-target=orgadmin_organization_role.billing',
      '-target=orgadmin_organization_role.manage_members', '-target=orgadmin_organization_role.auditor',
    ]);
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toContain('Destroy complete! Resources: 4 destroyed.');
    expect(await rolesOf(acme, fx.users.alice!.id)).toEqual([]);
    expect(await fx.client.isMember(acme, fx.users.alice!.id)).toBe(true);
    const names = (await fx.client.listRoles(acme)).map((r) => r.name);
    expect(names).not.toContain('billing');
    expect(names).not.toContain('auditor');
    expect(names).toContain('manage-members');

    const all = await ws.run(['destroy', '-auto-approve', '-input=false']);
    expect(all.code).toBe(0);
    expect((await fx.client.listAllOrganizations()).filter((o) => o.name.startsWith('roles-e2e'))).toEqual([]);
  });
});
