/**
 * The provider executable through npm, as esbuild, biome and turbo ship theirs: `orgadmin-provider`
 * with one optional dependency per platform. Packed tarballs, the platform packages served by a
 * registry for the `@orgadmin` scope on 127.0.0.1 (everything else from npm's usual registry):
 * npm downloads the package of this machine's platform and no other, `npx orgadmin provider
 * install` installs its executable, and Terraform runs it without Node.js; an app of the
 * constructs alone downloads none of them.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executableInPackage, packPlatformPackage, platformPackageDir, platformPackageName, PROVIDER_NPM_PACKAGE } from '../../src/distribution/npm-packages';
import { EXECUTABLE_PLATFORMS } from '../../src/distribution/platforms';
import { ROOT } from '../cli/compiled-cli';
import { ensureHostExecutable, hostPlatform } from '../distribution/release/helpers';
import { runTerraform, terraformEnv } from '../e2e/helpers/terraform';
import { npmChildEnv } from '../helpers/npm-env';
import { devVersion, emptyApp, installedPackages, npmInstall, packPackages, runOk } from '../helpers/packed-package';
import { startScopeRegistry, type ScopeRegistry } from './npm-registry';

jest.setTimeout(300_000);

const version = (require('../../package.json') as { version: string }).version;
const manifestOf = async (dir: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('the packages in the repository', () => {
  it('one per platform the executable is built for, with the npm os and cpu it installs on and the version of orgadmin', async () => {
    for (const platform of Object.values(EXECUTABLE_PLATFORMS)) {
      expect(await manifestOf(platformPackageDir(platform, ROOT))).toMatchObject({
        name: platformPackageName(platform),
        version,
        os: [platform.nodePlatform],
        cpu: [platform.nodeArch],
        files: ['bin', 'README.md'],
      });
    }
  });

  it('orgadmin-provider depends on each of them, optionally, and on orgadmin, all at this version', async () => {
    const manifest = await manifestOf(join(ROOT, 'packages', PROVIDER_NPM_PACKAGE));
    expect(manifest.version).toBe(version);
    expect(manifest.dependencies).toEqual({ orgadmin: version });
    expect(manifest.optionalDependencies).toEqual(Object.fromEntries(Object.values(EXECUTABLE_PLATFORMS).map((p) => [platformPackageName(p), version])));
  });
});

describe('installed from packed tarballs', () => {
  let work: string;
  let registry: ScopeRegistry;
  let orgadmin: string;
  let provider: string;
  let executable: string;
  const host = hostPlatform();

  beforeAll(async () => {
    executable = ensureHostExecutable(version);
    work = await mkdtemp(join(tmpdir(), 'orgadmin-provider-packages-'));
    const packs = join(work, 'packs');
    orgadmin = (await packPackages(packs)).orgadmin;
    provider = join(packs, (await runOk('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: join(ROOT, 'packages', PROVIDER_NPM_PACKAGE), env: npmChildEnv() })).stdout.trim().split('\n').pop()!);
    // This platform's package holds the real executable; the others a stand-in, since npm must
    // never download them here (their manifests are what it reads).
    const standIn = join(work, 'stand-in');
    await writeFile(standIn, 'not for this platform');
    const tarballs: string[] = [];
    for (const platform of Object.values(EXECUTABLE_PLATFORMS)) {
      tarballs.push(await packPlatformPackage(platform, version, platform === host ? executable : standIn, join(packs, 'platforms')));
    }
    registry = await startScopeRegistry(tarballs);
  });

  afterAll(async () => {
    await registry?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** An empty app whose `@orgadmin` scope comes from the test registry. */
  async function app(name: string): Promise<string> {
    const dir = await emptyApp(work, name);
    await writeFile(join(dir, '.npmrc'), `@orgadmin:registry=${registry.url}\n`);
    return dir;
  }

  it('a constructs-only app downloads no executable', async () => {
    const dir = await app('constructs-only');
    const before = registry.requests.length;
    await npmInstall(dir, [orgadmin, `cdktf@${devVersion('cdktf')}`, `constructs@${devVersion('constructs')}`]);
    expect(registry.requests.slice(before)).toEqual([]);
    const installed = installedPackages(dir);
    expect(installed.filter((name) => name.startsWith('@orgadmin/') || name === PROVIDER_NPM_PACKAGE || name === 'bun' || name.startsWith('@oven/'))).toEqual([]);
  });

  it("orgadmin-provider brings this platform's executable only; orgadmin provider install installs it and Terraform runs it without Node.js", async () => {
    const dir = await app('with-provider');
    const before = registry.requests.length;
    // A cache of its own: npm finds a tarball it has seen before by its hash, without asking.
    await npmInstall(dir, ['--cache', join(work, 'npm-cache'), orgadmin, provider]);
    // One tarball downloaded: this platform's.
    expect(registry.requests.slice(before).filter((path) => path.startsWith('/tarballs/'))).toEqual([
      `/tarballs/${platformPackageName(host).slice(1).replace('/', '-')}-${version}.tgz`,
    ]);
    expect(installedPackages(dir).filter((name) => name.startsWith('@orgadmin/'))).toEqual([platformPackageName(host)]);
    const packaged = join(dir, 'node_modules', ...platformPackageName(host).split('/'), executableInPackage(host));
    expect((await stat(packaged)).mode & 0o111).toBe(0o111);

    const home = join(work, 'home');
    await mkdir(home, { recursive: true });
    const { stdout } = await runOk('npx', ['orgadmin', 'provider', 'install'], { cwd: dir, env: npmChildEnv(process.env, { HOME: home }) });
    expect(stdout).toContain(`(${host.name}, self-contained executable from ${platformPackageName(host)})`);
    const installed = join(home, '.terraform.d', 'plugins', 'registry.terraform.io', 'orgadmin', 'orgadmin', version, host.name, `terraform-provider-orgadmin_v${version}${host.suffix}`);
    expect((await readFile(installed)).equals(await readFile(executable))).toBe(true);

    // Terraform finds it in the implied mirror and starts it with no PATH (so no Node.js).
    const tf = join(work, 'tf');
    await mkdir(tf);
    await writeFile(join(tf, 'main.tf'), `terraform {\n  required_providers {\n    orgadmin = { source = "orgadmin/orgadmin", version = "${version}" }\n  }\n}\n`);
    const env = terraformEnv({ HOME: home, PATH: '' });
    const init = await runTerraform(tf, ['init', '-no-color', '-input=false'], env);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const schema = await runTerraform(tf, ['providers', 'schema', '-json'], env);
    expect(schema.code).toBe(0);
    const parsed = JSON.parse(schema.stdout) as { provider_schemas: Record<string, { resource_schemas: Record<string, unknown> }> };
    expect(Object.keys(parsed.provider_schemas['registry.terraform.io/orgadmin/orgadmin']!.resource_schemas)).toContain('orgadmin_organization');
  });
});
