/**
 * The provider executable on npm, the way the ecosystem ships native tools (esbuild, biome, turbo):
 * one package per platform holding that platform's executable, with `os` and `cpu` set so that npm
 * installs only the one that fits, all of them optional dependencies of one package,
 * `orgadmin-provider`. The `orgadmin` package itself does not depend on them: a user of the
 * constructs alone downloads no executable.
 *
 * The packages' manifests are in the repository (`packages/orgadmin-provider`,
 * `packages/provider-<os>-<cpu>`); the executables are added when the packages are packed for
 * publishing ({@link packPlatformPackage}).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { failureDetail } from './command-output';
import { packageRoot } from './package-info';
import { ProviderInstallError, type ExecutablePlatform } from './platforms';

const execFileAsync = promisify(execFile);

/** The package that brings the executable of the platform it is installed on. */
export const PROVIDER_NPM_PACKAGE = 'orgadmin-provider';

/** The npm package holding `platform`'s executable: `@orgadmin/provider-linux-x64`. */
export function platformPackageName(platform: ExecutablePlatform): string {
  return `@orgadmin/provider-${platform.nodePlatform}-${platform.nodeArch}`;
}

/** The directory of `platform`'s package in the repository: `packages/provider-linux-x64`. */
export function platformPackageDir(platform: ExecutablePlatform, root: string = packageRoot()): string {
  return join(root, 'packages', `provider-${platform.nodePlatform}-${platform.nodeArch}`);
}

/** The executable's path inside its platform package (the same file name for every version). */
export function executableInPackage(platform: ExecutablePlatform): string {
  return `bin/terraform-provider-orgadmin${platform.suffix}`;
}

/** An executable found in an installed platform package. */
export interface PackagedExecutable {
  /** The package's name and version. */
  readonly name: string;
  readonly version: string;
  /** Absolute path of the executable. */
  readonly path: string;
}

/** The resolved `package.json` of `name` seen from any of `from`, or undefined. */
function resolveManifest(name: string, from: readonly string[]): string | undefined {
  try {
    return require.resolve(`${name}/package.json`, { paths: [...from] });
  } catch {
    return undefined;
  }
}

/**
 * The executable of `platform`'s package as npm installed it, seen from `from` (an app's directory,
 * the orgadmin package) directly or through `orgadmin-provider` (whose dependency it is, wherever a
 * package manager put it), or undefined when it is not installed.
 *
 * @throws ProviderInstallError when the installed package is of another version than `version`,
 * or lacks its executable.
 */
export function installedPlatformExecutable(platform: ExecutablePlatform, version: string, from: readonly string[]): PackagedExecutable | undefined {
  const name = platformPackageName(platform);
  const viaProvider = resolveManifest(PROVIDER_NPM_PACKAGE, from);
  const manifest = resolveManifest(name, viaProvider === undefined ? from : [dirname(viaProvider), ...from]);
  if (manifest === undefined) return undefined;
  const found = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '';
  if (found !== version) {
    throw new ProviderInstallError(
      `${name} ${found} is installed, but this orgadmin is ${version}: run "npm install ${PROVIDER_NPM_PACKAGE}@${version}" so that both agree.`,
    );
  }
  const path = join(dirname(manifest), executableInPackage(platform));
  if (!existsSync(path)) throw new ProviderInstallError(`${name} ${found} has no ${executableInPackage(platform)}: reinstall it.`);
  return { name, version: found, path };
}

/**
 * Packs `platform`'s package with `executable` in it (`npm pack`) into `outDir`, from a copy of its
 * directory in the repository. Returns the tarball's path.
 *
 * @throws ProviderInstallError when the package's manifest does not name this platform and version.
 */
export async function packPlatformPackage(platform: ExecutablePlatform, version: string, executable: string, outDir: string): Promise<string> {
  const source = platformPackageDir(platform);
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { name?: string; version?: string };
  if (manifest.name !== platformPackageName(platform) || manifest.version !== version) {
    throw new ProviderInstallError(
      `${join(source, 'package.json')} is ${manifest.name}@${manifest.version}, expected ${platformPackageName(platform)}@${version}: update it with the version.`,
    );
  }
  const work = await mkdtemp(join(tmpdir(), 'orgadmin-npm-package-'));
  try {
    const staged = join(work, 'package');
    await cp(source, staged, { recursive: true });
    const target = join(staged, executableInPackage(platform));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(executable, target);
    // npm records the executable bit in the tarball; the installer sets it again anyway.
    await chmod(target, 0o755);
    await mkdir(outDir, { recursive: true });
    let stdout: string;
    try {
      ({ stdout } = await execFileAsync('npm', ['pack', '--silent', '--pack-destination', outDir], { cwd: staged, maxBuffer: 1 << 20 }));
    } catch (error) {
      throw new ProviderInstallError(`npm pack of ${platformPackageName(platform)} failed: ${failureDetail(error)}`);
    }
    return join(outDir, stdout.trim().split('\n').pop() ?? '');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
