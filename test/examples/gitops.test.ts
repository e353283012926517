/**
 * examples/gitops end to end against a real PostgreSQL state backend: apply, a scheduled drift
 * check that reports a member added by hand to an authoritative set, and two applies started at
 * once that the backend's lock serializes without damaging the state.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { memberIds, startE2E, type E2EFixture } from '../e2e/helpers/fixture';
import { terraformEnv } from '../e2e/helpers/terraform';
import { runExampleScript, StackDir, synthExample } from './helpers';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

jest.setTimeout(180_000);

let fixture: E2EFixture;
let postgres: TestPostgres;
/** Terraform's pg backend wants TLS unless told otherwise; the test cluster has none. */
const stateUrl = (): string => `${postgres.url}?sslmode=disable`;
let work: string;
let stack: StackDir;

beforeAll(async () => {
  [fixture, postgres] = await Promise.all([startE2E({ usernames: ['alice', 'bob', 'carol'] }), startPostgres()]);
  work = await mkdtemp(join(tmpdir(), 'orgadmin-example-gitops-'));
  const env = terraformEnv({ TF_CLI_CONFIG_FILE: fixture.mirror.cliConfigFile, ...fixture.providerEnv });
  const dir = await synthExample('gitops', 'gitops', join(work, 'cdktf.out'), { PG_CONN_STR: stateUrl() });
  stack = new StackDir(dir, env);
});

afterAll(async () => {
  await fixture?.close();
  await postgres?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function organizationId(name: string): Promise<string> {
  const org = (await fixture.client.listAllOrganizations()).find((o) => o.name === name);
  if (!org) throw new Error(`organization ${name} not found`);
  return org.id;
}

/** The state rows the pg backend keeps (one per workspace). */
async function stateRows(): Promise<Array<{ name: string; lineage: string; serial: number; resources: number }>> {
  const client = new Client({ connectionString: stateUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; data: string }>('SELECT name, data FROM terraform_remote_state.states ORDER BY name');
    return rows.map((row) => {
      const state = JSON.parse(row.data) as { lineage: string; serial: number; resources: unknown[] };
      return { name: row.name, lineage: state.lineage, serial: state.serial, resources: state.resources.length };
    });
  } finally {
    await client.end();
  }
}

/** Waits until some session holds an advisory lock (what the pg backend takes for a run). */
async function waitForAdvisoryLock(timeoutMs = 30_000): Promise<void> {
  const client = new Client({ connectionString: stateUrl() });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted");
      if (Number(rows[0]!.n) > 0) return;
      await new Promise((resolveDelay) => setTimeout(resolveDelay, 20));
    }
    throw new Error('no terraform run took the state lock');
  } finally {
    await client.end();
  }
}

describe('examples/gitops', () => {
  it('applies the declared organizations with the state in PostgreSQL, then plans no changes', async () => {
    await stack.ok('init', '-input=false');
    await stack.ok('apply', '-auto-approve', '-input=false');
    expect((await stack.plan()).code).toBe(0);
    const { alice, bob, carol } = fixture.users;
    expect(await memberIds(fixture, await organizationId('platform'))).toEqual([alice!.id, bob!.id].sort());
    expect(await memberIds(fixture, await organizationId('partners'))).toEqual([carol!.id]);
    const rows = await stateRows();
    expect(rows.map((row) => row.name)).toEqual(['default']);
    expect(rows[0]!.resources).toBeGreaterThan(0);
  });

  it('the drift check exits 2 and names the member set when someone joins an authoritative organization by hand', async () => {
    const platform = await organizationId('platform');
    const carol = fixture.users.carol!;
    await fixture.client.addMember(platform, carol.id);

    const drift = await runExampleScript('examples/gitops/drift-check.ts', [stack.dir], stack.env);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(/~ orgadmin_organization_members\.platform_Members_[0-9A-F]{8} \(gitops\/platform\/Members\): changed outside Terraform/);
    // Named by email (the fixture's key may look users up), not by id.
    expect(drift.stdout).toContain('user_ids: -carol@example.com');
    expect(drift.stdout).not.toContain(carol.id);

    await stack.ok('apply', '-auto-approve', '-input=false');
    expect(await memberIds(fixture, platform)).not.toContain(carol.id);
    expect((await runExampleScript('examples/gitops/drift-check.ts', [stack.dir], stack.env)).code).toBe(0);
  });

  it('the drift check names the member and the role when a role is revoked by hand, and the apply grants it again', async () => {
    const platform = await organizationId('platform');
    const alice = fixture.users.alice!;
    expect((await fixture.client.listMemberRoles(platform, alice.id)).map((role) => role.name)).toEqual(['manage-members', 'on-call']);
    await fixture.client.revokeRole(platform, 'on-call', alice.id);

    const drift = await runExampleScript('examples/gitops/drift-check.ts', [stack.dir], stack.env);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(/~ orgadmin_organization_member_roles\.platform_Roles-alice_at_examplecom_[0-9A-F]{8} \(gitops\/platform\/Roles-alice_at_example\.com\): member's roles changed outside Terraform/);
    expect(drift.stdout).toContain(`member alice@example.com in organization "${platform}"`);
    expect(drift.stdout).toContain('revoked outside Terraform: "on-call"');
    expect(drift.stdout).toContain(`grant "on-call" to alice@example.com in organization "${platform}"`);

    await stack.ok('apply', '-auto-approve', '-input=false');
    expect((await fixture.client.listMemberRoles(platform, alice.id)).map((role) => role.name)).toEqual(['manage-members', 'on-call']);
    expect((await runExampleScript('examples/gitops/drift-check.ts', [stack.dir], stack.env)).code).toBe(0);
  });

  it('an apply started while another holds the state lock fails with a clear message, and the state stays intact', async () => {
    const partners = await organizationId('partners');
    await fixture.client.removeMember(partners, fixture.users.carol!.id);
    const before = await stateRows();

    // The second apply starts once the first holds the backend's lock (a PostgreSQL advisory
    // lock), so the two overlap for sure instead of by luck of scheduling.
    const first = stack.run('apply', '-auto-approve', '-input=false', '-lock-timeout=0s');
    await waitForAdvisoryLock();
    const second = await stack.run('apply', '-auto-approve', '-input=false', '-lock-timeout=0s');
    const firstResult = await first;

    expect(firstResult.code).toBe(0);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('Error acquiring the state lock');

    expect((await stack.plan()).code).toBe(0);
    expect(await memberIds(fixture, partners)).toEqual([fixture.users.carol!.id]);
    // The re-created membership has the same attributes, so the state is the same state: one row,
    // same lineage, same resources, and a serial that never went backwards.
    const after = await stateRows();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ name: 'default', lineage: before[0]!.lineage, resources: before[0]!.resources });
    expect(after[0]!.serial).toBeGreaterThanOrEqual(before[0]!.serial);
  });

  it('two applies started at once both end well: the lock makes the later one wait its turn', async () => {
    const partners = await organizationId('partners');
    await fixture.client.removeMember(partners, fixture.users.carol!.id);
    const results = await Promise.all([
      stack.run('apply', '-auto-approve', '-input=false', '-lock-timeout=60s'),
      stack.run('apply', '-auto-approve', '-input=false', '-lock-timeout=60s'),
    ]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect((await stack.plan()).code).toBe(0);
    expect(await memberIds(fixture, partners)).toEqual([fixture.users.carol!.id]);
    expect(await stateRows()).toHaveLength(1);
  });
});
