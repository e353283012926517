/**
 * Test helper: runs the real `terraform` binary in a temporary working directory, against the
 * orgadmin provider as users get it from a release (the release zip of this platform's
 * executable, in a temporary filesystem mirror).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mirrorCliConfig, PROVIDER_INSTALL_ADDRESS, providerVersion } from '../../../src/distribution/install';
import { defaultBundlePath, defaultExecutablesDir } from '../../../src/distribution/package-info';
import { hostExecutablePlatform } from '../../../src/distribution/platforms';
import { releaseProvider } from '../../../src/distribution/release';
import { REPO_ROOT } from './bundle';

/** The terraform binary the tests drive. */
export const TERRAFORM_BIN = process.env.TERRAFORM_BIN ?? '/usr/local/bin/terraform';

/** What one terraform command did. */
export interface TerraformResult {
  /** Exit code (a signal counts as -1). */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * An environment for terraform that depends on nothing of the developer's: every inherited `TF_*`
 * and `ORGADMIN_*` variable is dropped (a `TF_CLI_CONFIG_FILE` of the machine would otherwise
 * decide where providers come from), the update check is off, then `extra` is applied.
 */
export function terraformEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('TF_') || name.startsWith('ORGADMIN_')) continue;
    env[name] = value;
  }
  env.CHECKPOINT_DISABLE = '1';
  env.TF_IN_AUTOMATION = '1';
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Runs `terraform ...args` in `cwd`; never throws for a non-zero exit, only on timeout. */
export function runTerraform(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<TerraformResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(TERRAFORM_BIN, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`terraform ${args.join(' ')} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** A filesystem mirror holding the provider, and the CLI configuration that makes terraform use it. */
export interface ProviderMirror {
  /** The mirror directory. */
  dir: string;
  /** A CLI configuration file: this mirror for orgadmin, nothing else allowed from the network. */
  cliConfigFile: string;
  /** The release archive the mirror holds (Terraform unpacks it at init). */
  archive: string;
  /** Removes the mirror. */
  cleanup(): Promise<void>;
}

/**
 * A fresh temporary mirror holding what users get from a release: this platform's release zip, as
 * `orgadmin provider release` writes it, in Terraform's packed mirror layout
 * (`<mirror>/registry.terraform.io/orgadmin/orgadmin/terraform-provider-orgadmin_<version>_<os>_<arch>.zip`),
 * which `terraform init` unpacks. The executable is built first when missing or stale.
 */
export async function createProviderMirror(): Promise<ProviderMirror> {
  const root = await mkdtemp(join(tmpdir(), 'orgadmin-mirror-'));
  try {
    const version = providerVersion();
    const platform = hostExecutablePlatform();
    if (platform === undefined) throw new Error(`no provider executable is built for ${process.platform}/${process.arch}`);
    execFileSync('flock', ['/tmp/orgadmin-provider-executables.lock', process.execPath, join(REPO_ROOT, 'scripts', 'build-executables.mjs'), '--platforms', platform.name], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    });
    const release = await releaseProvider({
      outDir: join(root, 'release'),
      version,
      bundle: await readFile(defaultBundlePath()),
      platforms: [platform],
      executablesDir: defaultExecutablesDir(),
    });
    const dir = join(root, 'mirror');
    const archive = join(dir, ...PROVIDER_INSTALL_ADDRESS.split('/'), release.archives[0]!.name);
    await mkdir(dirname(archive), { recursive: true });
    await rename(join(release.dir, release.archives[0]!.name), archive);
    await rm(release.dir, { recursive: true, force: true });
    const cliConfigFile = join(root, 'terraform.rc');
    await writeFile(cliConfigFile, mirrorCliConfig(dir));
    return { dir, cliConfigFile, archive, cleanup: () => rm(root, { recursive: true, force: true }) };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** The `terraform { required_providers }` block every test configuration starts with. */
export const REQUIRED_PROVIDERS = `terraform {
  required_providers {
    orgadmin = {
      source = "orgadmin/orgadmin"
    }
  }
}
`;

/** Commands that accept `-no-color` right after the command word. */
const NO_COLOR_COMMANDS = new Set(['init', 'validate', 'plan', 'apply', 'destroy', 'import', 'refresh', 'show', 'output']);

/** A temporary terraform working directory bound to a mirror and an environment. */
export class TerraformWorkspace {
  private constructor(
    /** The working directory. */
    readonly dir: string,
    /** The environment every command runs with. */
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Makes an empty working directory whose commands use `mirror` and the `ORGADMIN_*` settings in `env`. */
  static async create(mirror: ProviderMirror, env: Record<string, string | undefined> = {}): Promise<TerraformWorkspace> {
    const dir = await mkdtemp(join(tmpdir(), 'orgadmin-tf-'));
    return new TerraformWorkspace(dir, terraformEnv({ TF_CLI_CONFIG_FILE: mirror.cliConfigFile, ...env }));
  }

  /** Replaces every `*.tf` file with `files` (name → content); other files (state) stay. */
  async writeConfig(files: Record<string, string>): Promise<void> {
    for (const name of await readdir(this.dir)) {
      if (name.endsWith('.tf')) await rm(join(this.dir, name));
    }
    for (const [name, content] of Object.entries(files)) {
      await mkdir(dirname(join(this.dir, name)), { recursive: true });
      await writeFile(join(this.dir, name), content);
    }
  }

  /** Runs `terraform ...args` here (with `-no-color` added for the commands that accept it). */
  run(args: readonly string[], extraEnv: Record<string, string | undefined> = {}): Promise<TerraformResult> {
    const env = { ...this.env };
    for (const [name, value] of Object.entries(extraEnv)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    const [command, ...rest] = args;
    const withColorFlag = command !== undefined && NO_COLOR_COMMANDS.has(command) ? [command, '-no-color', ...rest] : [...args];
    return runTerraform(this.dir, withColorFlag, env);
  }

  /** `terraform init`; throws with terraform's output when it fails. */
  async init(): Promise<TerraformResult> {
    return expectSuccess(await this.run(['init', '-input=false']), 'terraform init');
  }

  /** `terraform apply -auto-approve`; throws with terraform's output when it fails. */
  async apply(...extra: string[]): Promise<TerraformResult> {
    return expectSuccess(await this.run(['apply', '-auto-approve', '-input=false', ...extra]), 'terraform apply');
  }

  /** `terraform plan -detailed-exitcode` (0 = no changes, 2 = changes, 1 = error). */
  plan(...extra: string[]): Promise<TerraformResult> {
    return this.run(['plan', '-detailed-exitcode', '-input=false', ...extra]);
  }

  /** Removes the working directory. */
  cleanup(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
  }
}

/** Returns `result` when terraform exited 0, otherwise throws an error carrying its output. */
export function expectSuccess(result: TerraformResult, what: string): TerraformResult {
  if (result.code !== 0) {
    throw new Error(`${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}
