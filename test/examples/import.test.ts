/**
 * examples/import end to end: an organization and its members made by hand are adopted by import
 * blocks; the apply changes nothing on the service and the plan after it is empty.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberIds, startE2E, type E2EFixture } from '../e2e/helpers/fixture';
import { terraformEnv } from '../e2e/helpers/terraform';
import { StackDir, synthExample } from './helpers';

jest.setTimeout(180_000);

let fixture: E2EFixture;
let work: string;

beforeAll(async () => {
  fixture = await startE2E({ usernames: ['alice', 'bob', 'carol'] });
  work = await mkdtemp(join(tmpdir(), 'orgadmin-example-import-'));
});

afterAll(async () => {
  await fixture?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('examples/import', () => {
  it('adopts an existing organization and its members, then plans no changes', async () => {
    const { alice, bob } = fixture.users;
    const orgId = await fixture.client.createOrganization({ name: 'legacy', displayName: 'Legacy Ltd' });
    await fixture.client.addMember(orgId, alice!.id);
    await fixture.client.addMember(orgId, bob!.id);

    const dir = await synthExample('import', 'import', join(work, 'cdktf.out'), {
      ORGADMIN_IMPORT_ORGANIZATION_ID: orgId,
      ORGADMIN_STATE_FILE: join(work, 'import.tfstate'),
    });
    const stack = new StackDir(dir, terraformEnv({ TF_CLI_CONFIG_FILE: fixture.mirror.cliConfigFile, ...fixture.providerEnv }));
    await stack.ok('init', '-input=false');

    const plan = await stack.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.');

    const since = fixture.svc.requests.length;
    const apply = await stack.ok('apply', '-auto-approve', '-input=false');
    expect(apply.stdout).toContain('Apply complete! Resources: 2 imported, 0 added, 0 changed, 0 destroyed.');
    // Adopting writes nothing: every request of the apply was a read.
    const writes = fixture.svc.requests.slice(since).filter((r) => r.method !== 'GET' && !r.url.includes('/protocol/openid-connect/token'));
    expect(writes).toEqual([]);

    expect((await stack.plan()).code).toBe(0);
    expect((await fixture.client.listAllOrganizations()).filter((o) => o.name === 'legacy').map((o) => o.id)).toEqual([orgId]);
    expect(await memberIds(fixture, orgId)).toEqual([alice!.id, bob!.id].sort());
  });
});
