/**
 * examples/basic end to end: synthesize, init, apply, an empty plan; a member removed behind
 * Terraform's back is drift the drift check names; apply repairs it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberIds, startE2E, type E2EFixture } from '../e2e/helpers/fixture';
import { terraformEnv } from '../e2e/helpers/terraform';
import { runExampleScript, StackDir, synthExample } from './helpers';

jest.setTimeout(180_000);

let fixture: E2EFixture;
let work: string;
let stack: StackDir;

beforeAll(async () => {
  fixture = await startE2E({ usernames: ['alice', 'bob', 'carol'] });
  work = await mkdtemp(join(tmpdir(), 'orgadmin-example-basic-'));
  const env = terraformEnv({ TF_CLI_CONFIG_FILE: fixture.mirror.cliConfigFile, ...fixture.providerEnv });
  const dir = await synthExample('basic', 'basic', join(work, 'cdktf.out'), { ORGADMIN_STATE_FILE: join(work, 'basic.tfstate') });
  stack = new StackDir(dir, env);
});

afterAll(async () => {
  await fixture?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The organization with this name, from the service. */
async function organization(name: string) {
  const org = (await fixture.client.listAllOrganizations()).find((o) => o.name === name);
  if (!org) throw new Error(`organization ${name} not found`);
  return org;
}

describe('examples/basic', () => {
  it('applies two organizations with members named by email, then plans no changes', async () => {
    await stack.ok('init', '-input=false');
    await stack.ok('apply', '-auto-approve', '-input=false');
    expect((await stack.plan()).code).toBe(0);

    const { alice, bob, carol } = fixture.users;
    const acme = await organization('acme');
    expect(acme).toMatchObject({ displayName: 'ACME Corporation', url: 'https://acme.example.com', domains: ['acme.example.com'], attributes: { tier: ['gold'] } });
    expect(await memberIds(fixture, acme.id)).toEqual([alice!.id, bob!.id].sort());
    expect(await memberIds(fixture, (await organization('globex')).id)).toEqual([bob!.id, carol!.id].sort());
  });

  it('reports a member removed outside Terraform as drift naming the membership, and apply restores it', async () => {
    const acme = await organization('acme');
    await fixture.client.removeMember(acme.id, fixture.users.alice!.id);

    const drift = await runExampleScript('examples/gitops/drift-check.ts', [stack.dir], stack.env);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('Drift detected');
    expect(drift.stdout).toMatch(/- orgadmin_membership\.acme_Member-alice_[0-9A-F]{8} \(basic\/acme\/Member-alice\): deleted outside Terraform/);
    expect(drift.stdout).toMatch(/\+ create orgadmin_membership\.acme_Member-alice_[0-9A-F]{8}/);
    expect(drift.stdout).toMatch(/^      was [^\n]*user_id=alice@example\.com/m);
    expect(drift.stdout).not.toContain(fixture.users.alice!.id);
    expect(drift.stdout).not.toContain(fixture.clientSecret);

    await stack.ok('apply', '-auto-approve', '-input=false');
    expect((await stack.plan()).code).toBe(0);
    expect(await memberIds(fixture, acme.id)).toContain(fixture.users.alice!.id);
    const clean = await runExampleScript('examples/gitops/drift-check.ts', [stack.dir], stack.env);
    expect({ code: clean.code, stdout: clean.stdout.trim() }).toEqual({ code: 0, stdout: `No drift: the service matches ${stack.dir}.` });
  });
});
