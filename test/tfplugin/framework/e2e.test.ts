/**
 * The framework runtime driven by the real Terraform CLI: a tiny demo provider (fixtures/) is
 * bundled with esbuild into a filesystem mirror, then init, apply, plan, drift, import, replace,
 * diagnostics, the schema JSON and destroy run against it.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderProviderSchemaJson } from '../../../src/tfplugin/framework/schema-json';
import { demoProvider, readStore } from './fixtures/demo-provider';
import { DemoTerraform } from './helpers/demo-terraform';

const SOURCE = 'registry.terraform.io/example/demo';

let demo: DemoTerraform;
let storePath: string;

function run(args: string[]): ReturnType<DemoTerraform['run']> {
  return demo.run(args);
}

function writeConfig(resourceBody: string, extra = ''): void {
  demo.writeConfig(`resource "demo_thing" "a" {
${resourceBody}
}
${extra}`);
}

const BASE_CONFIG = `  name   = "alpha"
  size   = 3
  tags   = ["x", "y"]
  labels = { team = ["a", "b"] }
  secret = "hunter2"`;

function providerProcesses(): string[] {
  return demo.providerProcesses();
}

beforeAll(async () => {
  // Stray console.log calls in the provider must not break anything.
  demo = await DemoTerraform.create('framework-e2e-', { DEMO_PROVIDER_CHATTY: '1' });
  storePath = demo.storePath;
  writeConfig(BASE_CONFIG);
  const init = await run(['init', '-no-color', '-input=false']);
  if (init.code !== 0) throw new Error(`terraform init failed:\n${init.stdout}\n${init.stderr}`);
}, 60_000);

afterAll(() => {
  demo.cleanup();
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
    expect(readdirSync(join(demo.root, 'tmp')).filter((name) => name.startsWith('plugin'))).toEqual([]);
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
