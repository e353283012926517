/**
 * Test helper: makes sure `dist/provider/terraform-provider-orgadmin.js` (what the installer
 * copies) exists and is not older than the sources, building it with `scripts/build-provider.mjs`
 * otherwise. `npm test` builds first, so this only matters when a developer runs one test file.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The repository root. */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/** The bundle the installer copies. */
export const PROVIDER_BUNDLE = join(REPO_ROOT, 'dist', 'provider', 'terraform-provider-orgadmin.js');

/**
 * Checked and built inside one `flock`, so that parallel jest workers neither build twice nor read
 * a bundle while another worker rewrites it.
 */
const CHECK_AND_BUILD = `
const fs = require('node:fs');
const path = require('node:path');
const [root, bundle] = process.argv.slice(1);
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full));
    else if (/\\.(ts|json|proto)$/.test(entry.name)) latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}
const built = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
if (built < newest(path.join(root, 'src'))) {
  require('node:child_process').execFileSync(process.execPath, [path.join(root, 'scripts', 'build-provider.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
`;

/** Builds the provider bundle when it is missing or older than any source file. */
export function ensureProviderBundle(): void {
  execFileSync('flock', ['/tmp/orgadmin-provider-bundle.lock', process.execPath, '-e', CHECK_AND_BUILD, REPO_ROOT, PROVIDER_BUNDLE], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 120_000,
  });
}
