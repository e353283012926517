/**
 * Test helper: cdktn-cli and the Node.js 22 it needs. cdktn-cli 0.24 requires Node.js >= 22.19 and
 * is not a dev dependency of this package, which CI runs on Node.js 20 (npm would warn EBADENGINE
 * on every install). Node.js 22 comes from test/helpers/node22.ts (the npm registry's `node`
 * package); that Node then runs npm to install cdktn-cli into a cache directory under
 * `node_modules/.cache/`, so its engine check passes and a second run reuses it (CI starts from a
 * fresh clone and installs once). Installs run with the caller's HOME, so npm's own settings apply.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../cli/compiled-cli';
import { ensureNode22, node22Env, npmCliScript } from '../../helpers/node22';

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

/**
 * Makes sure Node.js 22 and cdktn-cli {@link CDKTN_CLI_VERSION} are there, installing what is
 * missing, and returns them. One test file uses it, so no two jest workers install cdktn-cli at
 * once (Node.js 22 itself is shared, and safe to ask for concurrently).
 */
export async function ensureCdktnCli(): Promise<CdktnCli> {
  const node22 = await ensureNode22();
  mkdirSync(CDKTN_CLI_CACHE, { recursive: true });
  const cliPackage = join(CDKTN_CLI_CACHE, 'node_modules', 'cdktn-cli');
  if (installedVersion(cliPackage) !== CDKTN_CLI_VERSION) {
    const result = spawnSync(
      node22.node,
      [npmCliScript(), 'install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', CDKTN_CLI_CACHE, `cdktn-cli@${CDKTN_CLI_VERSION}`],
      { cwd: CDKTN_CLI_CACHE, env: node22Env(node22), encoding: 'utf8', timeout: 540_000 },
    );
    if (result.status !== 0) throw new Error(`npm install cdktn-cli@${CDKTN_CLI_VERSION} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
  return { node: node22.node, nodeBinDir: node22.binDir, cli: join(cliPackage, 'bin', 'cdktn') };
}
