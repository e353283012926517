/**
 * End to end: a realm that already has 50 organizations with 10 members each (500 memberships) is
 * adopted with `orgadmin terraform import-blocks` and the real terraform 1.11: `plan
 * -generate-config-out` writes the configuration and plans imports only, the apply imports them
 * without changing the service, and the next plan is empty. Then the same realm as member sets.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { captureIO } from '../cli/capture-io';
import { memberIds, startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(300_000);

const ORGANIZATIONS = 50;
const MEMBERS_EACH = 10;
const USERS = 100;

let fx: E2EFixture;
/** Each organization's members before the adoption, by organization id. */
const before = new Map<string, string[]>();

beforeAll(async () => {
  fx = await startE2E();
  const users: string[] = [];
  for (let i = 0; i < USERS; i++) users.push((await fx.svc.admin.createUser(fx.realm, { username: `user-${String(i).padStart(3, '0')}` })).id);
  for (let o = 0; o < ORGANIZATIONS; o++) {
    const id = await fx.client.createOrganization({ name: `org-${String(o).padStart(2, '0')}`, domains: [`org-${o}.example.com`], attributes: { tier: [o % 2 ? 'gold' : 'silver'] } });
    // Ten members per organization, drawn from the hundred users with a stride, so that sets overlap.
    await Promise.all(Array.from({ length: MEMBERS_EACH }, (_, m) => fx.client.addMember(id, users[(o * 7 + m * 11) % USERS]!)));
    before.set(id, await memberIds(fx, id));
  }
});

afterAll(async () => {
  await fx?.close();
});

/** Runs `orgadmin terraform import-blocks` in-process, as a user would in the shell running terraform. */
async function importBlocks(ws: TerraformWorkspace, ...flags: string[]): Promise<string> {
  const captured = captureIO(ws.dir, fx.providerEnv);
  const code = await main(['terraform', 'import-blocks', '--realm', fx.realm, '--out', 'imports.tf', ...flags], captured.io);
  if (code !== 0) throw new Error(`import-blocks exited ${code}: ${captured.err()}`);
  return readFile(join(ws.dir, 'imports.tf'), 'utf8');
}

/** Every organization's members, by id, now. */
async function membersNow(): Promise<Map<string, string[]>> {
  const now = new Map<string, string[]>();
  for (const id of before.keys()) now.set(id, await memberIds(fx, id));
  return now;
}

async function adopt(flags: string[], expected: { imports: number }): Promise<TerraformWorkspace> {
  const ws = await fx.workspace();
  await ws.writeConfig({ 'main.tf': `${REQUIRED_PROVIDERS}\nprovider "orgadmin" {}\n` });
  await importBlocks(ws, ...flags);
  await ws.init();

  const plan = await ws.run(['plan', '-input=false', '-generate-config-out=generated.tf', '-out=tfplan']);
  expect(plan.stderr).toBe('');
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain(`Plan: ${expected.imports} to import, 0 to add, 0 to change, 0 to destroy.`);

  const apply = await ws.run(['apply', '-input=false', 'tfplan']);
  expect(apply.code).toBe(0);
  expect(apply.stdout).toContain(`Apply complete! Resources: ${expected.imports} imported, 0 added, 0 changed, 0 destroyed.`);

  const again = await ws.plan();
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);
  return ws;
}

describe('adopting a realm with orgadmin terraform import-blocks', () => {
  it('imports 50 organizations and 500 memberships, changes nothing, and plans no changes afterwards', async () => {
    const ws = await adopt([], { imports: ORGANIZATIONS + ORGANIZATIONS * MEMBERS_EACH });
    const generated = await readFile(join(ws.dir, 'generated.tf'), 'utf8');
    expect(generated.match(/^resource "orgadmin_organization" /gm)).toHaveLength(ORGANIZATIONS);
    expect(generated.match(/^resource "orgadmin_membership" /gm)).toHaveLength(ORGANIZATIONS * MEMBERS_EACH);
    expect(generated).toContain('name         = "org-07"');
    expect(await membersNow()).toEqual(before);
  });

  it('imports the same realm as one member set per organization, also with an empty plan afterwards', async () => {
    const ws = await adopt(['--members', 'set'], { imports: 2 * ORGANIZATIONS });
    const generated = await readFile(join(ws.dir, 'generated.tf'), 'utf8');
    expect(generated.match(/^resource "orgadmin_organization_members" /gm)).toHaveLength(ORGANIZATIONS);
    expect(await membersNow()).toEqual(before);
  });
});
