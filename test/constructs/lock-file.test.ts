/**
 * The starter lock file (src/constructs/lock-file.ts): written into a stack's fresh output
 * directory at synth when the required provider version is installed in the local mirror; an
 * existing lock file kept when it locks that version, its provider block replaced or added when
 * not; nothing written without a local installation. The CLIs' use of it is tested end
 * to end in cdktf-cli.test.ts and test/cdktn/cli.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LOCK_FILE_NAME, starterLockFileText, writeStarterLockFile } from '../../src/constructs/lock-file';
import { defaultPluginDir, terraformPlatform } from '../../src/distribution/install';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const version = (require('../../package.json') as { version: string }).version;
const address = 'registry.terraform.io/orgadmin/orgadmin';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'orgadmin-lock-file-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Makes `<mirror>/<address>/<version>/<this platform>` as `orgadmin provider install` does. */
async function installInto(mirror: string, installedVersion = version): Promise<void> {
  await mkdir(join(mirror, ...address.split('/'), installedVersion, terraformPlatform()), { recursive: true });
}

describe('writeStarterLockFile', () => {
  it('writes the provider version and constraint without checksums when the version is installed locally', async () => {
    const mirror = join(work, 'plugins');
    await installInto(mirror);
    expect(writeStarterLockFile(work, { address, version }, mirror)).toBe('written');
    const text = await readFile(join(work, LOCK_FILE_NAME), 'utf8');
    expect(text).toBe(starterLockFileText({ address, version }));
    expect(text).toContain(`provider "${address}" {\n  version     = "${version}"\n  constraints = "${version}"\n}\n`);
    expect(text).not.toContain('hashes');
  });

  it('keeps an existing lock file that locks the required version, with the checksums of an earlier init', async () => {
    const mirror = join(work, 'plugins');
    await installInto(mirror);
    const earlier = `provider "${address}" {\n  version     = "${version}"\n  constraints = "${version}"\n  hashes = [\n    "h1:abc=",\n  ]\n}\n`;
    await writeFile(join(work, LOCK_FILE_NAME), earlier);
    expect(writeStarterLockFile(work, { address, version }, mirror)).toBe('kept');
    expect(await readFile(join(work, LOCK_FILE_NAME), 'utf8')).toBe(earlier);
  });

  it("replaces only this provider's block when the lock file locks another version of it", async () => {
    const mirror = join(work, 'plugins');
    await installInto(mirror);
    const other = 'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n  hashes = [\n    "h1:xyz=",\n  ]\n}\n';
    const old = `provider "${address}" {\n  version     = "0.0.9"\n  constraints = "0.0.9"\n  hashes = [\n    "h1:old=",\n  ]\n}\n`;
    await writeFile(join(work, LOCK_FILE_NAME), `# header\n\n${old}\n${other}`);
    expect(writeStarterLockFile(work, { address, version }, mirror)).toBe('updated');
    expect(await readFile(join(work, LOCK_FILE_NAME), 'utf8')).toBe(
      `# header\n\nprovider "${address}" {\n  version     = "${version}"\n  constraints = "${version}"\n}\n\n${other}`,
    );
  });

  it("adds this provider's block to a lock file that does not name it", async () => {
    const mirror = join(work, 'plugins');
    await installInto(mirror);
    const other = 'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n}\n';
    await writeFile(join(work, LOCK_FILE_NAME), other);
    expect(writeStarterLockFile(work, { address, version }, mirror)).toBe('updated');
    expect(await readFile(join(work, LOCK_FILE_NAME), 'utf8')).toBe(
      `${other}\nprovider "${address}" {\n  version     = "${version}"\n  constraints = "${version}"\n}\n`,
    );
  });

  it('writes nothing when the required version is not installed in the mirror (the CLIs then lock from a registry)', async () => {
    const mirror = join(work, 'plugins');
    await installInto(mirror, '0.0.1-other');
    expect(writeStarterLockFile(work, { address, version }, mirror)).toBe('not-installed-locally');
    expect(writeStarterLockFile(work, { address, version }, join(work, 'no-mirror'))).toBe('not-installed-locally');
    expect(existsSync(join(work, LOCK_FILE_NAME))).toBe(false);
    // Nor over a lock file of another version: the CLIs' lock step can handle that provider source.
    const old = `provider "${address}" {\n  version = "0.0.9"\n}\n`;
    await writeFile(join(work, LOCK_FILE_NAME), old);
    expect(writeStarterLockFile(work, { address, version }, mirror)).toBe('not-installed-locally');
    expect(await readFile(join(work, LOCK_FILE_NAME), 'utf8')).toBe(old);
  });
});

describe('OrgAdminProvider at synth', () => {
  const root = resolve(__dirname, '..', '..');

  /**
   * Synthesizes a stack with two provider configurations and one organization into `<work>/out`,
   * in a child process whose HOME is `home` (the home directory is the process's, which a test
   * cannot change for its own process).
   */
  function synth(home: string): string {
    const outdir = join(work, 'out');
    const app = `
      const { App, TerraformStack } = require('cdktf');
      const { OrgAdminProvider, Organization } = require(${JSON.stringify(join(root, 'src', 'constructs'))});
      const app = new App({ outdir: ${JSON.stringify(outdir)} });
      const stack = new TerraformStack(app, 'orgs');
      new OrgAdminProvider(stack, 'orgadmin');
      new OrgAdminProvider(stack, 'other', { alias: 'other' });
      new Organization(stack, 'org', { name: 'acme' });
      app.synth();
    `;
    execFileSync(process.execPath, ['--require', join(root, 'examples', 'register.js'), '-e', app], { cwd: root, env: { ...process.env, HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] });
    return join(outdir, 'stacks', 'orgs');
  }

  it('gives the stack output directory the starter lock file when the provider is in ~/.terraform.d/plugins', async () => {
    const home = join(work, 'home');
    await installInto(defaultPluginDir(home));
    const stackDir = synth(home);
    expect(await readFile(join(stackDir, LOCK_FILE_NAME), 'utf8')).toBe(starterLockFileText({ address, version }));
    expect(existsSync(join(stackDir, 'cdk.tf.json'))).toBe(true);
  });

  it('writes no lock file when the provider is not installed there', async () => {
    const stackDir = synth(join(work, 'empty-home'));
    expect(existsSync(join(stackDir, 'cdk.tf.json'))).toBe(true);
    expect(existsSync(join(stackDir, LOCK_FILE_NAME))).toBe(false);
  });
});
