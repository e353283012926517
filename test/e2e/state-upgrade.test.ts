/**
 * End to end: a state of `orgadmin_organization_members` written by the provider before `user_ids`
 * became a list (schema version 0, `user_ids` a set; test/e2e/fixtures/organization-members-v0.tfstate)
 * is upgraded by today's provider under the real terraform binary: the plan after the upgrade is
 * empty, the state is rewritten at the current schema version, and changes plan and apply as before.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newUser } from '../../src/service/store/store';
import { memberIds, startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(120_000);

const FIXTURE = join(__dirname, 'fixtures', 'organization-members-v0.tfstate');

/** What the fixture's one resource instance holds. */
interface StoredInstance {
  schema_version: number;
  attributes: { id: string; organization_id: string; realm: string; user_ids: string[] };
}

async function storedInstance(path: string): Promise<StoredInstance> {
  const state = JSON.parse(await readFile(path, 'utf8')) as { resources: Array<{ type: string; instances: StoredInstance[] }> };
  const resource = state.resources.find((r) => r.type === 'orgadmin_organization_members');
  if (!resource || resource.instances.length !== 1) throw new Error(`${path} holds no single orgadmin_organization_members instance`);
  return resource.instances[0]!;
}

function config(orgId: string, userIds: readonly string[]): string {
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

resource "orgadmin_organization_members" "legacy" {
  organization_id = ${JSON.stringify(orgId)}
  user_ids        = ${JSON.stringify(userIds)}
}
`;
}

let fx: E2EFixture;
let ws: TerraformWorkspace;
let stored: StoredInstance;

beforeAll(async () => {
  stored = await storedInstance(FIXTURE);
  fx = await startE2E({ realm: stored.attributes.realm });
  // The service the fixture was written against: the same organization and users, by id.
  const orgId = stored.attributes.organization_id;
  await fx.client.createOrganization({ id: orgId, name: 'legacy' });
  for (const [index, id] of stored.attributes.user_ids.entries()) {
    await fx.svc.store.createUser(newUser({ id, realm: fx.realm, username: `legacy-${index}`, kind: 'user', createdTimestamp: Date.now() }));
    await fx.client.addMember(orgId, id);
  }
  ws = await fx.workspace();
  await copyFile(FIXTURE, join(ws.dir, 'terraform.tfstate'));
});

afterAll(async () => {
  await fx?.close();
});

describe('a member set state written at schema version 0 (user_ids a set)', () => {
  it('is a version 0 state with the ids sorted, as the set was stored', () => {
    expect(stored.schema_version).toBe(0);
    expect(stored.attributes.user_ids).toEqual([...stored.attributes.user_ids].sort());
  });

  it('plans no change after the upgrade, with the ids listed in another order than the state', async () => {
    const reordered = [...stored.attributes.user_ids].reverse();
    await ws.writeConfig({ 'main.tf': config(stored.attributes.organization_id, reordered) });
    await ws.init();
    const plan = await ws.plan();
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).not.toContain('changed outside of Terraform');
  });

  it('writes the state back at the current schema version (2) with the same ids', async () => {
    const apply = await ws.apply();
    expect(apply.stdout).toContain('0 added, 0 changed, 0 destroyed');
    const upgraded = await storedInstance(join(ws.dir, 'terraform.tfstate'));
    expect(upgraded.schema_version).toBe(2);
    expect([...upgraded.attributes.user_ids].sort()).toEqual(stored.attributes.user_ids);
    expect((await ws.plan()).code).toBe(0);
  });

  it('plans and applies a removal after the upgrade as one removed id', async () => {
    const [removed, ...kept] = stored.attributes.user_ids;
    await ws.writeConfig({ 'main.tf': config(stored.attributes.organization_id, kept) });
    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(`- "${removed}"`);
    expect(plan.stdout).toContain('0 to add, 1 to change, 0 to destroy');
    await ws.apply();
    expect(await memberIds(fx, stored.attributes.organization_id)).toEqual([...kept].sort());
    expect((await ws.plan()).code).toBe(0);
  });
});
