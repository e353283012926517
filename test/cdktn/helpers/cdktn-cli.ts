/**
 * Test helper: cdktn-cli and the Node.js 22 it needs, in a cache directory under
 * `node_modules/.cache/` (a second run reuses it; CI starts from a fresh clone and installs once).
 *
 * cdktn-cli 0.24 requires Node.js >= 22.19 and is not a dev dependency of this package, which CI
 * runs on Node.js 20 (npm would warn EBADENGINE on every install). Node.js 22 comes from the npm
 * registry's `node` package, whose install script fetches the platform's binary package from the
 * same registry; that Node then runs npm to install cdktn-cli, so its engine check passes. Installs
 * run with the caller's HOME, so npm's own settings (e.g. `nodedir`) apply.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ROOT } from '../../cli/compiled-cli';

/** The Node.js release cdktn-cli runs on (the `node` package's version is Node's). */
export const NODE_22_VERSION = '22.23.3';
/** The cdktn-cli release under test, the same as the `cdktn` dev dependency. */
export const CDKTN_CLI_VERSION = '0.24.0';

/** Where the cache lives. */
export const CDKTN_CLI_CACHE = join(ROOT, 'node_modules', '.cache', 'orgadmin-cdktn-cli');

/** The installed tools. */
export interface CdktnCli {
  /** The Node.js 22 executable. */
  node: string;
  /** Its directory, to put first on PATH. */
  nodeBinDir: string;
  /** cdktn-cli's entry script, run with {@link node}. */
  cli: string;
}

/** The version of the package installed at `dir`, or undefined. */
function installedVersion(dir: string): string | undefined {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
}

/** The npm to run: the one that came with the Node.js running the tests. */
function npmCli(): string {
  const candidates = [join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'), join(process.execPath, '..', 'node_modules', 'npm', 'bin', 'npm-cli.js')];
  const found = candidates.find((file) => existsSync(file));
  if (found === undefined) throw new Error(`npm not found beside ${process.execPath}`);
  return found;
}

/**
 * The environment of an install: the caller's, with `path` as PATH and without the `npm_config_*`
 * variables an `npm test` parent sets for its own run (they would override the cache's prefix and
 * settings; npm reads the same user and global configuration files without them).
 */
function installEnv(path: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.toLowerCase().startsWith('npm_config_')) env[name] = value;
  return { ...env, PATH: path };
}

/** Runs npm install in the cache with `node`; throws with npm's output when it fails. */
function npmInstall(node: string, packages: readonly string[], path: string): void {
  const result = spawnSync(node, [npmCli(), 'install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', CDKTN_CLI_CACHE, ...packages], {
    cwd: CDKTN_CLI_CACHE,
    env: installEnv(path),
    encoding: 'utf8',
    timeout: 540_000,
  });
  if (result.status !== 0) throw new Error(`npm install ${packages.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
}

/**
 * Makes sure Node.js {@link NODE_22_VERSION} and cdktn-cli {@link CDKTN_CLI_VERSION} are in the
 * cache, installing what is missing, and returns them. One test file uses it, so no two jest
 * workers install at once.
 */
export function ensureCdktnCli(): CdktnCli {
  mkdirSync(CDKTN_CLI_CACHE, { recursive: true });
  const modules = join(CDKTN_CLI_CACHE, 'node_modules');
  const nodeBinDir = join(modules, 'node', 'bin');
  const node = join(nodeBinDir, 'node');
  const cli = join(modules, 'cdktn-cli', 'bin', 'cdktn');
  const ready = (): boolean => installedVersion(join(modules, 'node')) === NODE_22_VERSION && installedVersion(join(modules, 'cdktn-cli')) === CDKTN_CLI_VERSION;
  if (!ready()) {
    const callerPath = process.env.PATH ?? '';
    if (installedVersion(join(modules, 'node')) !== NODE_22_VERSION) npmInstall(process.execPath, [`node@${NODE_22_VERSION}`], callerPath);
    // Node 22 runs npm for cdktn-cli; `node` is listed again so that npm keeps it.
    if (!ready()) npmInstall(node, [`node@${NODE_22_VERSION}`, `cdktn-cli@${CDKTN_CLI_VERSION}`], [nodeBinDir, callerPath].join(delimiter));
  }
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  if (version !== `v${NODE_22_VERSION}`) throw new Error(`${node} is ${version}, not Node.js ${NODE_22_VERSION}`);
  return { node, nodeBinDir, cli };
}
