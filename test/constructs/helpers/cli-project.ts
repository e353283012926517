/**
 * Test helper for the toolkit CLIs (cdktf-cli, cdktn-cli) against the real service: a project
 * directory as a user has it, with the provider installed the documented way and the package
 * linked in, and a runner for CLI commands on a fresh output directory.
 *
 * - `HOME` is a temporary directory and the provider goes into its `~/.terraform.d/plugins` with
 *   `orgadmin provider install` (the compiled CLI, as `npx orgadmin provider install` runs it).
 *   Only this HOME changes: nothing here runs npm, so npm's own settings need not follow.
 * - `node_modules/orgadmin` links to this repository, whose `exports` point at the built dist/, so
 *   the app imports `orgadmin/constructs` or `orgadmin/cdktn` exactly as a user's would; the
 *   toolkit and `constructs` link to this repository's copies, so that the app, the constructs and
 *   the bindings share one toolkit module (two copies of a toolkit in one app break at synth).
 * - The app is TypeScript, compiled with this repository's TypeScript against those links.
 */
import { spawn } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { BIN, ensureBuilt, ROOT } from '../../cli/compiled-cli';
import { ensureProviderBundle } from '../../e2e/helpers/bundle';
import { TERRAFORM_BIN, terraformEnv } from '../../e2e/helpers/terraform';

/** A toolkit with a CLI: its package is linked into the project beside orgadmin. */
export type CliToolkit = 'cdktf' | 'cdktn';

/** What one process did: exit code and stdout and stderr, interleaved. */
export interface ProcessOutput {
  code: number;
  output: string;
}

/** Runs `command args` in `cwd`; never throws for a non-zero exit, only when it cannot start or times out. */
export function runProcess(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<ProcessOutput> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const output = Buffer.concat(chunks).toString('utf8');
      resolveRun({ code: code ?? -1, output: signal ? `${output}\n[killed by ${signal} after ${timeoutMs} ms]` : output });
    });
  });
}

/** Options of {@link createCliProject}. */
export interface CliProjectOptions {
  toolkit: CliToolkit;
  /** An empty directory the project, its HOME and its state live in. */
  work: string;
  /** The CLI's command line before its arguments, e.g. `[node, .../cdktf]`. */
  cli: readonly string[];
  /** Directory of the `node` that runs the app (and the provider's launcher): first on PATH. */
  nodeBinDir: string;
  /** `main.ts` of the app. */
  app: string;
  /** Environment of every CLI command (the provider's `ORGADMIN_*` settings, the app's inputs). */
  env: Record<string, string>;
}

/** A project ready for CLI commands. */
export interface CliProject {
  /** The project directory (with cdktf.json). */
  dir: string;
  /** The stack's output directory, `cdktf.out/stacks/<stack>`. */
  stackDir(stack: string): string;
  /** Removes the output directory, then runs the CLI with `args`: every command starts fresh, as in CI. */
  runFresh(args: readonly string[]): Promise<ProcessOutput>;
}

/**
 * Sets the project up in `options.work`: the provider installed into `<work>/home/.terraform.d/plugins`
 * by `orgadmin provider install`, the links, cdktf.json and the compiled app.
 */
export async function createCliProject(options: CliProjectOptions): Promise<CliProject> {
  ensureBuilt();
  ensureProviderBundle();
  const home = join(options.work, 'home');
  const dir = join(options.work, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(join(dir, 'node_modules'), { recursive: true });

  // Terraform and the CLIs find `node` (the app, the provider's launcher) and nothing of the caller's.
  const path = [options.nodeBinDir, dirname(TERRAFORM_BIN), '/usr/bin', '/bin'].join(delimiter);
  const env = terraformEnv({ HOME: home, PATH: path, ...options.env, TERRAFORM_BINARY_NAME: TERRAFORM_BIN, CI: '1' });

  const install = await runProcess(process.execPath, [BIN, 'provider', 'install'], dir, env);
  if (install.code !== 0) throw new Error(`orgadmin provider install failed:\n${install.output}`);

  for (const name of ['orgadmin', options.toolkit, 'constructs']) {
    const target = name === 'orgadmin' ? ROOT : join(ROOT, 'node_modules', name);
    await symlink(target, join(dir, 'node_modules', name), 'dir');
  }
  await writeFile(join(dir, 'main.ts'), options.app);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, skipLibCheck: true }, files: ['main.ts'] }),
  );
  const tsc = await runProcess(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir, env);
  if (tsc.code !== 0) throw new Error(`the ${options.toolkit} app does not compile:\n${tsc.output}`);
  await writeFile(join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'node main.js', output: 'cdktf.out', sendCrashReports: 'false' }));

  return {
    dir,
    stackDir: (stack) => join(dir, 'cdktf.out', 'stacks', stack),
    async runFresh(args) {
      await rm(join(dir, 'cdktf.out'), { recursive: true, force: true });
      const [command, ...prefix] = options.cli;
      return runProcess(command!, [...prefix, ...args], dir, env);
    },
  };
}
