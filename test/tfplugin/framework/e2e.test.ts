/**
 * The framework runtime driven by the real Terraform CLI: a tiny demo provider (fixtures/) is
 * bundled with esbuild into a filesystem mirror, then init, apply, plan, drift, import, replace,
 * diagnostics, the schema JSON and destroy run against it.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderProviderSchemaJson } from '../../../src/tfplugin/framework/schema-json';
import { demoProvider, readStore } from './fixtures/demo-provider';

const TERRAFORM = '/usr/local/bin/terraform';
const SOURCE = 'registry.terraform.io/example/demo';
const REPO = resolve(__dirname, '../../..');

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

let root: string;
let workDir: string;
let storePath: string;
let mirror: string;

function run(args: string[]): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(TERRAFORM, [...args], {
      cwd: workDir,
      env: {
        PATH: process.env.PATH,
        HOME: root,
        CHECKPOINT_DISABLE: '1',
        TF_IN_AUTOMATION: '1',
        TF_CLI_CONFIG_FILE: join(root, 'cli.tfrc'),
        TMPDIR: join(root, 'tmp'), // where the providers put their sockets
        DEMO_PROVIDER_CHATTY: '1', // stray console.log calls in the provider must not break anything
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}

function writeConfig(resourceBody: string, extra = ''): void {
  writeFileSync(
    join(workDir, 'main.tf'),
    `terraform {
  required_providers {
    demo = { source = "example/demo", version = "1.0.0" }
  }
}

provider "demo" {
  store_path = ${JSON.stringify(storePath)}
}

resource "demo_thing" "a" {
${resourceBody}
}
${extra}`,
  );
}

const BASE_CONFIG = `  name   = "alpha"
  size   = 3
  tags   = ["x", "y"]
  labels = { team = ["a", "b"] }
  secret = "hunter2"`;

/** Process ids whose command line mentions the mirror (the provider executables). */
function providerProcesses(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(mirror)) found.push(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'framework-e2e-'));
  workDir = join(root, 'work');
  storePath = join(root, 'store.json');
  mirror = join(root, 'mirror');
  mkdirSync(workDir);
  mkdirSync(join(root, 'tmp'));
  const platformDir = join(mirror, 'registry.terraform.io/example/demo/1.0.0/linux_amd64');
  mkdirSync(platformDir, { recursive: true });
  // The project's bundle script, as the real provider is built.
  await new Promise<void>((resolvePromise, reject) =>
    execFile(
      process.execPath,
      [join(REPO, 'scripts/build-provider.mjs'), resolve(__dirname, 'fixtures/demo-main.ts'), '--out', join(platformDir, 'terraform-provider-demo_v1.0.0')],
      (error, _stdout, stderr) => (error ? reject(new Error(`build failed: ${stderr}`)) : resolvePromise()),
    ),
  );
  writeFileSync(
    join(root, 'cli.tfrc'),
    `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(mirror)}
    include = ["registry.terraform.io/example/*"]
  }
  direct {
    exclude = ["registry.terraform.io/example/*"]
  }
}
`,
  );
  writeConfig(BASE_CONFIG);
  const init = await run(['init', '-no-color', '-input=false']);
  if (init.code !== 0) throw new Error(`terraform init failed:\n${init.stdout}\n${init.stderr}`);
}, 60_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('a provider served by the framework, driven by terraform', () => {
  it('creates a resource on apply, with computed attributes known after apply', async () => {
    const apply = await run(['apply', '-auto-approve', '-no-color', '-input=false']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('id=thing-1');
    const stored = readStore(storePath).things['thing-1'];
    expect(stored).toMatchObject({ name: 'alpha', size: 3, enabled: true, revision: 1, labels: { team: ['a', 'b'] } });
    expect([...(stored!.tags as string[])].sort()).toEqual(['x', 'y']);
    // The sensitive value is in state but never printed.
    expect(apply.stdout).not.toContain('hunter2');
  });

  it('plans no changes right after apply (plan -detailed-exitcode exits 0)', async () => {
    const plan = await run(['plan', '-detailed-exitcode', '-no-color', '-input=false']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes');
  });

  it('leaves no provider process and no socket behind after a command', async () => {
    await run(['plan', '-no-color', '-input=false']);
    expect(providerProcesses()).toEqual([]);
    expect(readdirSync(join(root, 'tmp')).filter((name) => name.startsWith('plugin'))).toEqual([]);
  });

  it('plans an in-place update with the non-preserved computed attribute unknown', async () => {
    writeConfig(BASE_CONFIG.replace('size   = 3', 'size   = 4'));
    const plan = await run(['plan', '-detailed-exitcode', '-no-color', '-input=false']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('update in-place');
    expect(plan.stdout).toMatch(/revision\s+= 1 -> \(known after apply\)/);
    // useStateForUnknown keeps the id and creation time out of the diff.
    expect(plan.stdout).not.toMatch(/id\s+= "thing-1" ->/);
    expect(plan.stdout).not.toMatch(/created_at\s+=.*->/);
    writeConfig(BASE_CONFIG);
  });

  it('plans a replacement when a requiresReplace attribute changes', async () => {
    writeConfig(BASE_CONFIG.replace('"alpha"', '"beta"'));
    const plan = await run(['plan', '-no-color', '-input=false']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('must be replaced');
    expect(plan.stdout).toMatch(/name\s+= "alpha" -> "beta" # forces replacement/);
    writeConfig(BASE_CONFIG);
  });

  it('accepts refined unknown values (msgpack extension 12) in the configuration Terraform sends', async () => {
    // Replacing "a" makes its id unknown; the template gives "b" an unknown name with a known
    // prefix, which Terraform 1.11 encodes as a refined unknown.
    writeConfig(BASE_CONFIG.replace('"alpha"', '"beta"'), 'resource "demo_thing" "b" {\n  name = "pre-${demo_thing.a.id}"\n}\n');
    const plan = await run(['plan', '-no-color', '-input=false']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/# demo_thing\.b will be created[\s\S]*name\s+= \(known after apply\)/);
    expect(plan.stdout).toContain('Plan: 2 to add, 0 to change, 1 to destroy.');
    writeConfig(BASE_CONFIG);
  });

  it('shows a validation diagnostic against the attribute line of the configuration', async () => {
    writeConfig(BASE_CONFIG.replace('"alpha"', '"al pha"'));
    const plan = await run(['plan', '-no-color', '-input=false']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('Error: Invalid name');
    expect(plan.stderr).toMatch(/on main\.tf line 12, in resource "demo_thing" "a":\s+12:\s+name\s+= "al pha"/);
    expect(plan.stderr).toContain('contains spaces');
    writeConfig(BASE_CONFIG);
  });

  it('turns an exception in resource code into an internal error diagnostic', async () => {
    writeConfig(BASE_CONFIG.replace('"alpha"', '"explode"'));
    const plan = await run(['plan', '-no-color', '-input=false']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('internal error in demo_thing.plan: boom in modifyPlan');
    writeConfig(BASE_CONFIG);
  });

  it('detects a resource deleted outside Terraform (plan exits 2) and recreates it', async () => {
    const store = readStore(storePath);
    store.things = {};
    writeFileSync(storePath, JSON.stringify(store));
    const plan = await run(['plan', '-detailed-exitcode', '-no-color', '-input=false']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('# demo_thing.a will be created');
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    const apply = await run(['apply', '-auto-approve', '-no-color', '-input=false']);
    expect(apply.code).toBe(0);
    expect(Object.keys(readStore(storePath).things)).toEqual(['thing-2']);
  });

  it('imports an existing object by id, after which the plan is empty', async () => {
    expect((await run(['state', 'rm', 'demo_thing.a'])).code).toBe(0);
    const imported = await run(['import', '-no-color', '-input=false', 'demo_thing.a', 'thing-2']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Import successful');
    const plan = await run(['plan', '-detailed-exitcode', '-no-color', '-input=false']);
    expect(plan.code).toBe(0);
  });

  it('reports an import of a missing object as an error', async () => {
    expect((await run(['state', 'rm', 'demo_thing.a'])).code).toBe(0);
    const imported = await run(['import', '-no-color', '-input=false', 'demo_thing.a', 'thing-404']);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain('Thing not found');
    expect((await run(['import', '-no-color', '-input=false', 'demo_thing.a', 'thing-2'])).code).toBe(0);
  });

  it('prints the same schema JSON as renderProviderSchemaJson', async () => {
    const result = await run(['providers', 'schema', '-json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(renderProviderSchemaJson(demoProvider as never, SOURCE));
  });

  it('destroys the resource', async () => {
    const destroy = await run(['destroy', '-auto-approve', '-no-color', '-input=false']);
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toContain('1 destroyed');
    expect(readStore(storePath).things).toEqual({});
    expect(providerProcesses()).toEqual([]);
  });
});
