/**
 * Test helper: runs a construct test file of test/constructs against the cdktn build instead of
 * the cdktf sources, so that every construct test runs for both toolkits from one copy.
 *
 * Those files import the constructs from `src/constructs` (and bindings from `src/constructs/gen/...`)
 * and the toolkit from `cdktf`. Here, before such a file is loaded, each of those modules is
 * redirected: the constructs and bindings to the same files of `dist/cdktn` (what `orgadmin/cdktn`
 * is), the toolkit and its jest adapter to `cdktn`. The test file then exercises the cdktn build
 * exactly as a cdktn user's test would, with cdktn's `Testing` helpers.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const SOURCES = join(ROOT, 'src', 'constructs');
/** The cdktn build of the constructs, written by `npm run build`. */
export const CDKTN_BUILD = join(ROOT, 'dist', 'cdktn');

/** Newest modification time of the files under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(file) : statSync(file).mtimeMs);
  }
  return latest;
}

/** The module paths under src/constructs that test files import: the files and each binding's folder. */
function constructModules(): string[] {
  const modules: string[] = [''];
  for (const entry of readdirSync(SOURCES, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) modules.push(entry.name.slice(0, -'.ts'.length));
  }
  for (const entry of readdirSync(join(SOURCES, 'gen'), { withFileTypes: true })) {
    if (entry.isDirectory()) modules.push(`gen/${entry.name}`);
  }
  modules.push('gen');
  return modules;
}

/**
 * Redirects the constructs and the toolkit to the cdktn build for every module loaded after this
 * call. Throws when the build is missing or older than the sources (run `npm run build`).
 */
function useCdktnBuild(): void {
  const built = join(CDKTN_BUILD, 'index.js');
  if (!existsSync(built) || statSync(built).mtimeMs < Math.max(newest(SOURCES), newest(join(ROOT, 'src', 'cdktn')))) {
    throw new Error(`${relative(ROOT, CDKTN_BUILD)} is missing or older than src/constructs: run "npm run build"`);
  }
  jest.doMock('cdktf', () => jest.requireActual('cdktn'));
  jest.doMock('cdktf/lib/testing/adapters/jest', () => jest.requireActual('cdktn/lib/testing/adapters/jest'));
  for (const module of constructModules()) {
    jest.doMock(join(SOURCES, module), () => jest.requireActual(join(CDKTN_BUILD, module)));
  }
}

/**
 * Runs the construct tests of `test/constructs/<name>.test.ts` against the cdktn build, after a
 * test that the redirection took: the constructs loaded are cdktn constructs, not cdktf ones.
 */
export function runConstructTestsOnCdktn(name: string): void {
  useCdktnBuild();
  describe('orgadmin/cdktn', () => {
    it('loads the constructs from the cdktn build, on cdktn', () => {
      /* eslint-disable @typescript-eslint/no-require-imports */
      const constructs = require(SOURCES) as typeof import('../../../src/constructs');
      const cdktn = jest.requireActual<typeof import('cdktn')>('cdktn');
      const cdktf = jest.requireActual<typeof import('cdktf')>('cdktf');
      expect(constructs.OrgAdminProvider.prototype).toBeInstanceOf(cdktn.TerraformProvider);
      expect(constructs.OrgAdminProvider.prototype).not.toBeInstanceOf(cdktf.TerraformProvider);
      expect(constructs.gen.organization.Organization.prototype).toBeInstanceOf(cdktn.TerraformResource);
    });
    require(join(ROOT, 'test', 'constructs', `${name}.test`));
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
}
