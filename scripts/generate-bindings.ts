/**
 * Generates the bindings of both toolkits from the provider's own schema: CDK for Terraform
 * (`cdktf`, into `src/constructs/gen/`) and CDK Terrain (`cdktn`, into `src/cdktn/gen/`), each
 * with its own toolkit's generator, since bindings generated for one toolkit do not work in the
 * other's stacks.
 *
 * The schema comes from the provider's code (`renderProviderSchemaJson`), in the format that
 * `terraform providers schema -json` prints, so the bindings never need a Terraform run or a
 * registry. `test/constructs/gen.test.ts` regenerates both into a temporary directory and fails
 * when the checked-in files differ, and checks the schema against what Terraform itself prints.
 *
 * Usage (`npm run generate` runs the first form):
 *
 * ```sh
 * npm run generate                                      # both toolkits, into their checked-in directories
 * npm run generate -- --toolkit cdktn                   # one toolkit
 * npm run generate -- --toolkit cdktf --out /tmp/gen    # one toolkit, somewhere else
 * ```
 *
 * The generators are loaded through their deep module paths: the packages' own entry points
 * require `jsii-pacmak`, which `@cdktf/provider-generator` does not declare (checked when the
 * bindings generator was first set up). The two packages keep their compiled code in different
 * folders (`lib/` for cdktf, `build/` for cdktn). Loading either commons module runs
 * `terraform version -json` once as a side effect.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { orgadminProvider, PROVIDER_SOURCE_ADDRESS } from '../src/provider';
import { renderProviderSchemaJson } from '../src/tfplugin/framework/schema-json';

/** Which CDK flavour the bindings are generated for; each needs its own generator package. */
export type Toolkit = 'cdktf' | 'cdktn';

/** Every toolkit, in the order `npm run generate` writes them. */
export const TOOLKITS: readonly Toolkit[] = ['cdktf', 'cdktn'];

/** Options of {@link generateBindings}. */
export interface GenerateBindingsOptions {
  /** Directory that receives the bindings; its previous content is replaced. */
  readonly outDir: string;
  /** Toolkit the bindings import from. @default 'cdktf' */
  readonly toolkit?: Toolkit;
  /**
   * Provider version written into the bindings (and from there into `required_providers` at
   * synth). @default the package version
   */
  readonly providerVersion?: string;
}

/** The version constraint the bindings (and `cdktf.json`) ask for. */
export const PROVIDER_VERSION_CONSTRAINT = '~> 0.1';

/** The package version, which is also the provider's version. */
export function packageVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../package.json') as { version: string }).version;
}

/** The provider schema JSON with the version recorded where the generator looks for it. */
export function schemaForGenerator(providerVersion: string): Record<string, unknown> {
  const schema = renderProviderSchemaJson(orgadminProvider, PROVIDER_SOURCE_ADDRESS) as unknown as Record<string, unknown>;
  // `terraform providers schema -json` has no versions; `cdktf get` adds them the same way.
  return { ...schema, provider_versions: { [PROVIDER_SOURCE_ADDRESS]: providerVersion } };
}

/**
 * Loading the toolkit's commons module runs `terraform version -json`. A `TF_CLI_CONFIG_FILE` that
 * names a missing file makes that print a scary "problems with the CLI configuration" error, which
 * is noise for a generator that never uses Terraform's configuration: drop such a setting.
 */
function quietTerraformVersionCheck(): void {
  const configFile = process.env.TF_CLI_CONFIG_FILE;
  if (configFile !== undefined && !existsSync(configFile)) delete process.env.TF_CLI_CONFIG_FILE;
  process.env.CHECKPOINT_DISABLE ??= '1';
}

/** Module paths of one toolkit's generator pieces (cdktf compiles into `lib/`, cdktn into `build/`). */
function toolkitModules(toolkit: Toolkit): { generator: string; commons: string } {
  if (toolkit === 'cdktf') {
    return { generator: '@cdktf/provider-generator/lib/get/generator/provider-generator', commons: '@cdktf/commons' };
  }
  return { generator: '@cdktn/provider-generator/build/get/generator/provider-generator', commons: '@cdktn/commons' };
}

/**
 * Writes the TypeScript bindings for the orgadmin provider into `outDir`, flattened so that
 * `outDir/index.ts` is the barrel and each resource has its own folder. Returns the file names
 * written, relative to `outDir`, sorted.
 */
export async function generateBindings(options: GenerateBindingsOptions): Promise<string[]> {
  const toolkit = options.toolkit ?? 'cdktf';
  const providerVersion = options.providerVersion ?? packageVersion();
  const modules = toolkitModules(toolkit);
  quietTerraformVersionCheck();
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { TerraformProviderGenerator } = require(modules.generator) as {
    TerraformProviderGenerator: new (code: unknown, schema: unknown) => { generate(target: unknown): void; save(dir: string): Promise<void> };
  };
  const commons = require(modules.commons) as {
    ConstructsMakerProviderTarget: new (constraint: unknown, language: unknown) => unknown;
    TerraformProviderConstraint: new (spec: string) => unknown;
    Language: { TYPESCRIPT: unknown };
  };
  // The CodeMaker the toolkit's generator was built against (cdktn pins a newer one than cdktf).
  const { CodeMaker } = require(require.resolve('codemaker', { paths: [require.resolve(modules.generator)] })) as {
    CodeMaker: new () => unknown;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */

  const code = new CodeMaker();
  const generator = new TerraformProviderGenerator(code, schemaForGenerator(providerVersion));
  const constraint = new commons.TerraformProviderConstraint(`${PROVIDER_SOURCE_ADDRESS}@${PROVIDER_VERSION_CONSTRAINT}`);
  generator.generate(new commons.ConstructsMakerProviderTarget(constraint, commons.Language.TYPESCRIPT));

  // Generate beside the target and swap it in, so a failure never leaves half a directory.
  const outDir = resolve(options.outDir);
  const staging = await mkdtemp(join(tmpdir(), 'orgadmin-bindings-'));
  try {
    await generator.save(staging);
    const providerDir = join(staging, 'providers', 'orgadmin');
    await rm(outDir, { recursive: true, force: true });
    await mkdir(resolve(outDir, '..'), { recursive: true });
    await rename(providerDir, outDir).catch(async (error: NodeJS.ErrnoException) => {
      // A rename across file systems (tmpfs to disk) is not possible: copy instead.
      if (error.code !== 'EXDEV') throw error;
      await cp(providerDir, outDir, { recursive: true });
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return listFiles(outDir);
}

/** Every file under `dir`, relative, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** Where `npm run generate` writes each toolkit's checked-in bindings. */
export const DEFAULT_OUT_DIRS: Readonly<Record<Toolkit, string>> = {
  cdktf: resolve(__dirname, '..', 'src', 'constructs', 'gen'),
  cdktn: resolve(__dirname, '..', 'src', 'cdktn', 'gen'),
};

/** Parses the command line of `npm run generate` into one run per toolkit. */
function parseCommandLine(argv: readonly string[]): GenerateBindingsOptions[] {
  let outDir: string | undefined;
  let toolkit: Toolkit | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--out' && value) {
      outDir = resolve(value);
      i += 1;
    } else if (arg === '--toolkit' && (value === 'cdktf' || value === 'cdktn')) {
      toolkit = value;
      i += 1;
    } else {
      throw new Error(`unexpected argument "${arg}"; usage: generate-bindings [--toolkit cdktf|cdktn [--out DIR]]`);
    }
  }
  if (outDir !== undefined && toolkit === undefined) {
    throw new Error('--out needs --toolkit: each toolkit has its own bindings');
  }
  const toolkits = toolkit === undefined ? TOOLKITS : [toolkit];
  return toolkits.map((one) => ({ toolkit: one, outDir: outDir ?? DEFAULT_OUT_DIRS[one] }));
}

if (require.main === module) {
  (async () => {
    for (const options of parseCommandLine(process.argv.slice(2))) {
      const files = await generateBindings(options);
      process.stdout.write(`generate-bindings: wrote ${files.length} files (${options.toolkit}) to ${options.outDir}\n`);
    }
  })().catch((error: unknown) => {
    process.stderr.write(`generate-bindings: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
