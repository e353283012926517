/**
 * The package as users get it: `npm pack` of this checkout (built) and of packages/orgadmin-service,
 * installed with npm into new empty apps. For tests of what an install brings and what works from it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess, type ProcessResult } from '../../src/cli/process-runner';
import { ensureBuilt, ROOT } from '../cli/compiled-cli';
import { npmChildEnv } from './npm-env';

/** The directory of the service package. */
export const SERVICE_PACKAGE_DIR = join(ROOT, 'packages', 'orgadmin-service');

/** What a child process printed. */
export type Output = Pick<ProcessResult, 'code' | 'stdout' | 'stderr'>;

/** Runs `command` with the project's process runner and collects its output; never rejects for a non-zero exit. */
export function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Output> {
  return runProcess(command, args, { cwd: options.cwd, env: options.env ?? process.env });
}

/** Like {@link run}, but throws with the output when the exit code is not 0. */
export async function runOk(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Output> {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The installed version of one of this repository's dev dependencies: apps install the same, which `npm ci` put in npm's cache. */
export function devVersion(name: string): string {
  return (require(join(ROOT, 'node_modules', name, 'package.json')) as { version: string }).version;
}

/** The two tarballs. */
export interface PackedPackages {
  readonly orgadmin: string;
  readonly service: string;
}

/** Packs the built package and the service package into `dir`. */
export async function packPackages(dir: string): Promise<PackedPackages> {
  ensureBuilt();
  await mkdir(dir, { recursive: true });
  const pack = async (cwd: string): Promise<string> => {
    const { stdout } = await runOk('npm', ['pack', '--silent', '--pack-destination', dir], { cwd, env: npmChildEnv() });
    const name = stdout.trim().split('\n').pop() ?? '';
    const path = join(dir, name);
    if (!existsSync(path)) throw new Error(`npm pack in ${cwd} printed "${name}", which is not in ${dir}`);
    return path;
  };
  return { orgadmin: await pack(ROOT), service: await pack(SERVICE_PACKAGE_DIR) };
}

/** A new empty app (a package.json and nothing else) under `parent`. */
export async function emptyApp(parent: string, name: string): Promise<string> {
  const dir = await mkdtemp(join(parent, `${name}-`));
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true }, null, 2)}\n`);
  return dir;
}

/**
 * `npm install specs...` in `appDir`. `npm` is the command line to run (by default the machine's
 * npm; tests on another Node.js pass that Node with npm's script) and `env` its environment
 * (default {@link npmChildEnv}). Returns npm's output.
 */
export function npmInstall(appDir: string, specs: readonly string[], options: { npm?: readonly string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Output> {
  const [command, ...prefix] = options.npm ?? ['npm'];
  return runOk(command!, [...prefix, 'install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], {
    cwd: appDir,
    env: options.env ?? npmChildEnv(),
  });
}

/** Files under `dir` (recursively, symlinks not followed) for which `match` holds, relative to `dir`. */
export function findFiles(dir: string, match: (name: string) => boolean, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...findFiles(dir, match, relative));
    else if (entry.isFile() && match(entry.name)) found.push(relative);
  }
  return found;
}

/** Installed package names directly under `node_modules` (scoped ones as `@scope/name`). */
export function installedPackages(appDir: string): string[] {
  const modules = join(appDir, 'node_modules');
  const names: string[] = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) for (const scoped of readdirSync(join(modules, entry.name))) names.push(`${entry.name}/${scoped}`);
    else names.push(entry.name);
  }
  return names.sort();
}
