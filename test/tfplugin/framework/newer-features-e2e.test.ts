/**
 * Terraform 1.8–1.11 provider features of the framework, driven by the real terraform 1.11 against
 * the demo provider: a function called in `locals` (and its errors, pointing at the argument), the
 * write-only `secret_wo` / `secret_wo_version` pattern (never in state or plan files; a version bump
 * sends a new secret), and an ephemeral resource opened, renewed and closed around a write-only
 * attribute that consumes it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readStore } from './fixtures/demo-provider';
import { DemoTerraform } from './helpers/demo-terraform';

const FIRST_SECRET = 'first-Secret-7b1e';
const SECOND_SECRET = 'second-Secret-c94d';

let demo: DemoTerraform;

/** Terraform's output with its line wrapping undone. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** Everything terraform keeps: the state file and every entry of the plan file. */
function persisted(): string {
  const state = readFileSync(join(demo.workDir, 'terraform.tfstate'), 'utf8');
  const plan = execFileSync('unzip', ['-p', join(demo.workDir, 'tfplan')]).toString('latin1');
  return `${state}\n${plan}`;
}

const CREDENTIAL = (version: number) => `variable "secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "demo_credential" "ci" {
  name              = "ci"
  secret_wo         = var.secret
  secret_wo_version = ${version}
}
`;

beforeAll(async () => {
  demo = await DemoTerraform.create('framework-newer-');
  demo.writeConfig('');
  await demo.succeed(['init', '-no-color', '-input=false']);
}, 60_000);

afterAll(() => demo.cleanup());

describe('provider functions with terraform', () => {
  it('computes values in locals, with null and variadic arguments', async () => {
    demo.writeConfig(`locals {
  pair   = provider::demo::parse_pair("team=platform=core")
  joined = provider::demo::join_parts(null, "a", "b", "c")
}

output "key" { value = local.pair.key }
output "value" { value = local.pair.value }
output "joined" { value = local.joined }
`);
    const apply = await demo.succeed(['apply', '-auto-approve', '-no-color', '-input=false']);
    expect(apply.stdout).toContain('key = "team"');
    expect(apply.stdout).toContain('value = "platform=core"');
    expect(apply.stdout).toContain('joined = "a-b-c"');
  });

  it('shows a function error on the argument at fault, variadic ones counted one by one', async () => {
    demo.writeConfig(`locals {
  pair = provider::demo::parse_pair("=nothing")
}

output "key" { value = local.pair.key }
`);
    const plan = await demo.run(['plan', '-no-color', '-input=false']);
    expect(plan.code).toBe(1);
    expect(flat(plan.stderr)).toContain('Invalid value for "pair" parameter: "=nothing" is not KEY=VALUE: it needs a key before "=".');
    expect(plan.stderr).toMatch(/on main\.tf line 12, in locals:\s+12:\s+pair = provider::demo::parse_pair\("=nothing"\)/);

    demo.writeConfig(`locals {
  joined = provider::demo::join_parts("/", "a", "", "c")
}

output "joined" { value = local.joined }
`);
    const variadic = await demo.run(['plan', '-no-color', '-input=false']);
    expect(variadic.code).toBe(1);
    expect(flat(variadic.stderr)).toContain('Invalid value for "parts" parameter: part 2 is empty.');
  });
});

describe('a write-only secret with terraform', () => {
  it('sends the secret on create and keeps it out of state and plan files', async () => {
    demo.writeConfig(CREDENTIAL(1));
    const env = ['-var', `secret=${FIRST_SECRET}`];
    const plan = await demo.succeed(['plan', '-no-color', '-input=false', '-out=tfplan', ...env]);
    expect(plan.stdout).toMatch(/secret_wo\s+= \(write-only attribute\)/);
    await demo.succeed(['apply', '-no-color', '-input=false', ...env, 'tfplan']);
    const stored = Object.values(readStore(demo.storePath).credentials ?? {});
    expect(stored).toEqual([{ name: 'ci', secret: FIRST_SECRET, writes: 1 }]);
    expect(persisted()).not.toContain(FIRST_SECRET);
    const state = JSON.parse(readFileSync(join(demo.workDir, 'terraform.tfstate'), 'utf8'));
    const attributes = state.resources.find((r: { type: string }) => r.type === 'demo_credential').instances[0].attributes;
    expect(attributes).toMatchObject({ name: 'ci', secret_wo: null, secret_wo_version: 1 });
  });

  it('plans nothing for a new secret alone, and an update that sends it when the version is bumped', async () => {
    const unchanged = await demo.run(['plan', '-detailed-exitcode', '-no-color', '-input=false', '-var', `secret=${SECOND_SECRET}`]);
    expect(unchanged.code).toBe(0);

    demo.writeConfig(CREDENTIAL(2));
    const env = ['-var', `secret=${SECOND_SECRET}`];
    const plan = await demo.succeed(['plan', '-no-color', '-input=false', '-out=tfplan', ...env]);
    expect(plan.stdout).toContain('update in-place');
    expect(plan.stdout).toMatch(/secret_wo_version\s+= 1 -> 2/);
    await demo.succeed(['apply', '-no-color', '-input=false', ...env, 'tfplan']);
    expect(Object.values(readStore(demo.storePath).credentials ?? {})).toEqual([{ name: 'ci', secret: SECOND_SECRET, writes: 2 }]);
    expect(persisted()).not.toContain(SECOND_SECRET);
    expect((await demo.run(['plan', '-detailed-exitcode', '-no-color', '-input=false', ...env])).code).toBe(0);
  });
});

describe('an ephemeral resource with terraform', () => {
  const LEASE = `ephemeral "demo_lease" "db" {
  name     = "db"
  renewals = 2
}

resource "demo_credential" "from_lease" {
  name              = "from-lease"
  secret_wo         = ephemeral.demo_lease.db.token
  secret_wo_version = 1
}
`;

  it('opens, renews and closes it, feeding a write-only attribute, with nothing of it in state or plan files', async () => {
    demo.writeConfig(LEASE);
    await demo.succeed(['plan', '-no-color', '-input=false', '-out=tfplan']);
    const apply = await demo.succeed(['apply', '-no-color', '-input=false', 'tfplan']);
    expect(apply.stdout).toContain('ephemeral.demo_lease.db: Opening...');
    expect(apply.stdout).toContain('ephemeral.demo_lease.db: Closing...');
    const store = readStore(demo.storePath);
    const leases = Object.entries(store.leases ?? {});
    // One open in the plan, one in the apply; Terraform closed both.
    expect(leases.map(([, lease]) => lease.closed)).toEqual([true, true]);
    const credential = Object.values(store.credentials ?? {}).find((c) => c.name === 'from-lease');
    const [applyLeaseId, applyLease] = leases.find(([, lease]) => lease.token === credential?.secret)!;
    // The credential's create waited for the apply's lease to be renewed twice (demo-credential.ts).
    expect(applyLease).toMatchObject({ wanted: 2, renewals: 2, closed: true });
    expect(persisted()).not.toContain('token-of-lease');
    expect(persisted()).not.toContain(applyLeaseId);
  });

  it('is refused by terraform where a value would be stored', async () => {
    demo.writeConfig(`${LEASE}
resource "demo_thing" "leaky" {
  name = ephemeral.demo_lease.db.token
}
`);
    const plan = await demo.run(['plan', '-no-color', '-input=false']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('Invalid use of ephemeral value');
  });

  it('leaves no provider process behind', () => {
    expect(demo.providerProcesses()).toEqual([]);
  });
});
