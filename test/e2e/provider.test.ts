/**
 * End to end: the real terraform binary drives the installed provider against a real service.
 * The steps share one service and one working directory and run in order, like a user's day:
 * apply, drift, repair, rename, delete, member-set change, destroy.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { orgAdminUsername } from '../../src/api';
import { memberIds, organizationNames, requestsSince, startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(120_000);

let fx: E2EFixture;
let ws: TerraformWorkspace;

/** The configuration under test; `setUsers` are the authoritative member set of "operations". */
function config(setUsers: readonly string[]): string {
  const id = (username: string): string => JSON.stringify(fx.users[username]!.id);
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

resource "orgadmin_organization" "eng" {
  name         = "engineering"
  display_name = "Engineering"
}

resource "orgadmin_organization" "ops" {
  name = "operations"
}

# Its name is unknown until "eng" exists: planned as "known after apply".
resource "orgadmin_organization" "derived" {
  name = "derived-\${orgadmin_organization.eng.id}"
}

resource "orgadmin_membership" "eng_alice" {
  organization_id = orgadmin_organization.eng.id
  user_id         = ${id('alice')}
}

resource "orgadmin_membership" "eng_bob" {
  organization_id = orgadmin_organization.eng.id
  user_id         = ${id('bob')}
}

resource "orgadmin_organization_members" "ops" {
  organization_id = orgadmin_organization.ops.id
  user_ids        = [${setUsers.map(id).join(', ')}]
}

output "eng_id" {
  value = orgadmin_organization.eng.id
}

output "ops_id" {
  value = orgadmin_organization.ops.id
}
`;
}

async function output(name: string): Promise<string> {
  const result = await ws.run(['output', '-raw', name]);
  expect(result.code).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  fx = await startE2E({ usernames: ['alice', 'bob', 'carol', 'dave'] });
  ws = await fx.workspace();
  await ws.writeConfig({ 'main.tf': config(['alice', 'carol']) });
  await ws.init();
});

afterAll(async () => {
  await fx?.close();
});

describe('terraform with the orgadmin provider', () => {
  it('plans a name that depends on an id unknown at plan time, and applies it', async () => {
    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/orgadmin_organization\.derived will be created[\s\S]*name\s+= \(known after apply\)/);

    const apply = await ws.apply();
    expect(apply.stdout).toContain('Apply complete! Resources: 6 added, 0 changed, 0 destroyed.');
    const state = await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8');
    expect(`${plan.stdout}${plan.stderr}${apply.stdout}${apply.stderr}${state}`).not.toContain(fx.clientSecret);

    const engId = await output('eng_id');
    expect(await organizationNames(fx)).toEqual(['derived-' + engId, 'engineering', 'operations'].sort());
    expect(await memberIds(fx, engId)).toEqual([fx.users.alice!.id, fx.users.bob!.id].sort());
    expect(await memberIds(fx, await output('ops_id'))).toEqual([fx.users.alice!.id, fx.users.carol!.id].sort());
  });

  it('plans no changes right after apply', async () => {
    const plan = await ws.plan();
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('refreshes N memberships with exactly N check requests and one token request', async () => {
    const since = fx.svc.requests.length;
    const plan = await ws.plan();
    expect(plan.code).toBe(0);
    const requests = requestsSince(fx, since);
    const engId = await output('eng_id');
    const checks = requests.filter((r) => /^GET \/realms\/acme\/orgs\/[^/]+\/members\/[^/]+$/.test(r));
    expect(checks.sort()).toEqual(
      [`GET /realms/acme/orgs/${engId}/members/${fx.users.alice!.id}`, `GET /realms/acme/orgs/${engId}/members/${fx.users.bob!.id}`].sort(),
    );
    // Terraform starts three provider processes per plan, but only one configures the provider
    // and talks to the service: one token for the whole refresh.
    expect(requests.filter((r) => r === 'POST /realms/acme/protocol/openid-connect/token')).toHaveLength(1);
    // Three organizations (one GET each) and one member set (one page of its members).
    expect(requests.filter((r) => /^GET \/realms\/acme\/orgs\/[^/]+$/.test(r))).toHaveLength(3);
    expect(requests.filter((r) => /^GET \/realms\/acme\/orgs\/[^/]+\/members$/.test(r))).toHaveLength(1);
    expect(requests).toHaveLength(1 + 2 + 3 + 1);
  });

  it('plans to add back a membership removed outside Terraform, and apply restores it', async () => {
    const engId = await output('eng_id');
    await fx.client.removeMember(engId, fx.users.bob!.id);

    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('orgadmin_membership.eng_bob will be created');
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');

    const apply = await ws.apply();
    expect(apply.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
    expect(await fx.client.isMember(engId, fx.users.bob!.id)).toBe(true);
    expect((await ws.plan()).code).toBe(0);
  });

  it('plans an in-place update for an organization renamed outside Terraform', async () => {
    const engId = await output('eng_id');
    const org = await fx.client.getOrganization(engId);
    await fx.client.updateOrganization(engId, { name: 'engineering-renamed', displayName: org.displayName, url: org.url, attributes: org.attributes });

    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('orgadmin_organization.eng will be updated in-place');
    expect(plan.stdout).toMatch(/~ name\s+= "engineering-renamed" -> "engineering"/);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');

    await ws.apply();
    expect((await fx.client.getOrganization(engId)).name).toBe('engineering');
    expect((await ws.plan()).code).toBe(0);
  });

  it('plans to re-create an organization deleted outside Terraform, with its member set', async () => {
    const opsId = await output('ops_id');
    await fx.client.deleteOrganization(opsId);

    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('orgadmin_organization.ops will be created');
    expect(plan.stdout).toContain('orgadmin_organization_members.ops will be created');

    await ws.apply();
    const newOpsId = await output('ops_id');
    expect(newOpsId).not.toBe(opsId);
    expect(await memberIds(fx, newOpsId)).toEqual([fx.users.alice!.id, fx.users.carol!.id].sort());
    expect((await ws.plan()).code).toBe(0);
  });

  it('adds and removes members of a member set in one apply, keeping the default admin user', async () => {
    await ws.writeConfig({ 'main.tf': config(['bob', 'carol', 'dave']) });
    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('orgadmin_organization_members.ops will be updated in-place');

    const apply = await ws.apply();
    expect(apply.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    const opsId = await output('ops_id');
    expect(await memberIds(fx, opsId)).toEqual([fx.users.bob!.id, fx.users.carol!.id, fx.users.dave!.id].sort());
    const all = await fx.client.listAllMembers(opsId);
    expect(all.map((m) => m.username)).toContain(orgAdminUsername(opsId));
    expect((await ws.plan()).code).toBe(0);
  });

  it('removes a member added to a member set outside Terraform', async () => {
    const opsId = await output('ops_id');
    await fx.client.addMember(opsId, fx.users.alice!.id);

    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('orgadmin_organization_members.ops will be updated in-place');
    expect(plan.stdout).toContain(`- "${fx.users.alice!.id}",`);

    await ws.apply();
    expect(await memberIds(fx, opsId)).toEqual([fx.users.bob!.id, fx.users.carol!.id, fx.users.dave!.id].sort());
    // Removing the membership did not delete the user.
    expect((await fx.client.findUsers({ username: 'alice', exact: true })).map((u) => u.id)).toEqual([fx.users.alice!.id]);
  });

  it('reads what Terraform manages through the data sources', async () => {
    const reader = await fx.workspace();
    await reader.writeConfig({
      'main.tf': `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

data "orgadmin_organization" "ops" {
  name = "operations"
}

data "orgadmin_organizations" "named" {
  search = "e"
}

data "orgadmin_organization_members" "ops" {
  organization_id = data.orgadmin_organization.ops.id
}

data "orgadmin_user" "dave" {
  email = "dave@example.com"
}

output "result" {
  value = {
    ops_id   = data.orgadmin_organization.ops.id
    names    = data.orgadmin_organizations.named.organizations[*].name
    members  = sort(data.orgadmin_organization_members.ops.user_ids)
    dave_id  = data.orgadmin_user.dave.id
  }
}
`,
    });
    await reader.init();
    await reader.apply();
    const result = await reader.run(['output', '-json', 'result']);
    const engId = await output('eng_id');
    expect(JSON.parse(result.stdout)).toEqual({
      ops_id: await output('ops_id'),
      names: [`derived-${engId}`, 'engineering', 'operations'],
      members: [fx.users.bob!.id, fx.users.carol!.id, fx.users.dave!.id].sort(),
      dave_id: fx.users.dave!.id,
    });
  });

  it('destroys everything and leaves the service with no organizations', async () => {
    const destroy = await ws.run(['destroy', '-auto-approve', '-input=false']);
    expect(destroy.stderr).toBe('');
    expect(destroy.stdout).toContain('Destroy complete! Resources: 6 destroyed.');
    expect(destroy.code).toBe(0);
    expect(await organizationNames(fx)).toEqual([]);
  });
});
