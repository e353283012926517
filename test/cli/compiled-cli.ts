/**
 * Test helper for real-process tests: the compiled command line (`bin/orgadmin.js` → dist/).
 * `npm test` builds before jest; a bare `npx jest` run may not have dist/ yet, so this builds it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root. */
export const ROOT = join(__dirname, '..', '..');
/** The `orgadmin` executable. */
export const BIN = join(ROOT, 'bin', 'orgadmin.js');

/** Builds dist/ with `npm run build` when the compiled CLI is missing; throws when it still is. */
export function ensureBuilt(): void {
  const main = join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(main)) spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  if (!existsSync(main)) throw new Error('dist/cli/main.js is missing after "npm run build"; run the build to see why.');
}

/** The environment for a child CLI: this process's, without `ORGADMIN_DATA` (tests choose the data file). */
export function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.ORGADMIN_DATA;
  return env;
}
