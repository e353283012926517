/**
 * The checked-in bindings of both toolkits (`src/constructs/gen` for cdktf, `src/cdktn/gen` for
 * cdktn) must be exactly what `npm run generate` writes from the provider's current schema, and
 * that schema JSON must be what Terraform itself reports for the installed provider.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_OUT_DIRS, generateBindings, listFiles, TOOLKITS } from '../../scripts/generate-bindings';
import { orgadminProvider, PROVIDER_SOURCE_ADDRESS } from '../../src/provider';
import { renderProviderSchemaJson } from '../../src/tfplugin/framework/schema-json';
import { ensureProviderBundle } from '../e2e/helpers/bundle';
import { createProviderMirror, REQUIRED_PROVIDERS, TerraformWorkspace, type ProviderMirror } from '../e2e/helpers/terraform';

jest.setTimeout(120_000);

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(TOOLKITS)('generated %s bindings', (toolkit) => {
  const checkedInDir = DEFAULT_OUT_DIRS[toolkit];

  it('match a fresh generation from the provider schema (run `npm run generate` when this fails)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgadmin-gen-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const fresh = join(dir, 'gen');
    const freshFiles = await generateBindings({ outDir: fresh, toolkit });
    const checkedIn = await listFiles(checkedInDir);
    expect(checkedIn).toEqual(freshFiles);
    const stale: string[] = [];
    for (const file of freshFiles) {
      const [a, b] = await Promise.all([readFile(join(fresh, file), 'utf8'), readFile(join(checkedInDir, file), 'utf8')]);
      if (a !== b) stale.push(file);
    }
    expect(stale).toEqual([]);
  });

  it('carry the provider source address and the package version', async () => {
    const providerBinding = await readFile(join(checkedInDir, 'provider', 'index.ts'), 'utf8');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { version } = require('../../package.json') as { version: string };
    expect(providerBinding).toContain(`terraformProviderSource: '${PROVIDER_SOURCE_ADDRESS}'`);
    expect(providerBinding).toContain(`providerVersion: '${version}'`);
  });

  it(`import only from ${toolkit}, whose stacks they are for`, async () => {
    const toolkitImports = new Set<string>();
    for (const file of await listFiles(checkedInDir)) {
      const text = await readFile(join(checkedInDir, file), 'utf8');
      for (const match of text.matchAll(/from '(cdkt[fn])'/g)) toolkitImports.add(match[1]!);
    }
    expect([...toolkitImports]).toEqual([toolkit]);
  });
});

describe('provider schema JSON', () => {
  let mirror: ProviderMirror;

  beforeAll(async () => {
    ensureProviderBundle();
    mirror = await createProviderMirror();
    cleanups.push(() => mirror.cleanup());
  });

  it('equals what `terraform providers schema -json` prints for the installed provider', async () => {
    const workspace = await TerraformWorkspace.create(mirror);
    cleanups.push(() => workspace.cleanup());
    await workspace.writeConfig({ 'main.tf': REQUIRED_PROVIDERS });
    await workspace.init();
    const result = await workspace.run(['providers', 'schema', '-json']);
    expect(result.code).toBe(0);
    const fromTerraform = JSON.parse(result.stdout) as unknown;
    expect(renderProviderSchemaJson(orgadminProvider, PROVIDER_SOURCE_ADDRESS)).toEqual(fromTerraform);
  });
});
