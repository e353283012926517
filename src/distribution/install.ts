/**
 * Installs the orgadmin Terraform provider into a filesystem mirror, so that `terraform init` finds
 * it without a registry or network access (`orgadmin provider install`, the local loop).
 *
 * What gets installed is one provider package directory in Terraform's "unpacked" mirror layout,
 * `<dir>/registry.terraform.io/orgadmin/orgadmin/<version>/<os>_<arch>/`, holding
 *
 * - the self-contained executable `terraform-provider-orgadmin_v<version>` (`.exe` on Windows),
 *   which needs no Node.js when Terraform runs it, taken from the first of:
 *   1. the platform's npm package (`@orgadmin/provider-<os>-<cpu>`, which `npm install
 *      orgadmin-provider` brings for the machine it runs on: ./npm-packages.ts);
 *   2. the executable `npm run build` built for this platform in an orgadmin checkout;
 * - or, asked for explicitly (`launcher`, `bundlePath`), the launcher: the provider bundle as one
 *   `#!/usr/bin/env -S node --use-openssl-ca` script (./launcher.ts), for a platform the executable
 *   is not built for. It needs Node.js on PATH when Terraform runs it.
 *
 * Everything the provider runs lives in that one file, so the `h1:` hash `terraform init` writes
 * into `.terraform.lock.hcl` covers all of its code.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { findExecutable } from './executable';
import { launcherSource } from './launcher';
import { defaultPluginDir, mirrorPackageDir } from './mirror-layout';
import { installedPlatformExecutable, platformPackageName, PROVIDER_NPM_PACKAGE } from './npm-packages';
import { holdsExactly, writePackage, type PackageFile } from './package-dir';
import { defaultBundlePath, defaultExecutablesDir, executableName, packageRoot, PROVIDER_INSTALL_ADDRESS, providerVersion } from './package-info';
import { hostExecutablePlatform, ProviderInstallError, terraformPlatform, type ExecutablePlatform } from './platforms';

export { PROVIDER_NODE_FLAGS } from './launcher';
export { PROVIDER_INSTALL_ADDRESS, providerVersion } from './package-info';
export { ProviderInstallError, terraformPlatform } from './platforms';
export { defaultPluginDir, mirrorPackageDir } from './mirror-layout';

/** Options of {@link installProvider}. */
export interface InstallProviderOptions {
  /** The mirror directory. Default: {@link defaultPluginDir} (an implied mirror of Terraform). */
  dir?: string;
  /** Install the launcher instead of the executable (needs Node.js when Terraform runs it). */
  launcher?: boolean;
  /**
   * The provider bundle the launcher is made of. Default: `dist/provider/terraform-provider-orgadmin.js`
   * of this package, built by `npm run build:provider`. When given, the launcher is installed.
   */
  bundlePath?: string;
  /** Where built executables are looked for (default `dist/provider/executables`, written by `npm run build`). */
  executablesDir?: string;
  /**
   * Directories npm packages are resolved from: the platform's executable package is looked for as
   * Node.js would find it from there. Default: the working directory and this package's root.
   */
  searchFrom?: readonly string[];
}

/** What {@link installProvider} did. */
export interface InstalledProvider {
  /** Provider source address, `registry.terraform.io/orgadmin/orgadmin`. */
  address: string;
  /** Provider version (the npm package's version). */
  version: string;
  /** Absolute path of the executable Terraform starts. */
  path: string;
  /** Terraform platform, `<os>_<arch>` in Go naming (`linux_amd64`). */
  platform: string;
  /**
   * `installed` when nothing was there, `unchanged` when identical files were already installed,
   * `replaced` when different files were swapped for the new ones.
   */
  status: 'installed' | 'unchanged' | 'replaced';
  /** Present (true) when the self-contained executable was installed rather than the launcher. */
  selfContained?: true;
  /** Where the executable came from: the npm package's name, or the build directory. */
  from?: string;
}

/**
 * The Terraform CLI configuration (`TF_CLI_CONFIG_FILE`) that takes orgadmin from the filesystem
 * mirror `mirrorDir` and nothing of it from the network. Only `~/.terraform.d/plugins` (and a few
 * XDG directories) are searched without such a configuration.
 */
export function mirrorCliConfig(mirrorDir: string): string {
  const orgadmin = JSON.stringify(`${PROVIDER_INSTALL_ADDRESS.slice(0, PROVIDER_INSTALL_ADDRESS.lastIndexOf('/'))}/*`);
  return [
    'provider_installation {',
    '  filesystem_mirror {',
    `    path    = ${JSON.stringify(mirrorDir)}`,
    `    include = [${orgadmin}]`,
    '  }',
    '  direct {',
    `    exclude = [${orgadmin}]`,
    '  }',
    '}',
    '',
  ].join('\n');
}

/** Reads the provider bundle, or says how to build it. */
async function readBundle(bundlePath: string): Promise<Buffer> {
  try {
    return await readFile(bundlePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ProviderInstallError(`the provider bundle ${bundlePath} does not exist: run "npm run build:provider" in the orgadmin package first.`);
    }
    throw error;
  }
}

/**
 * The executable for `platform`: the installed npm package's, else the one built in this checkout
 * from the current bundle (when there is a bundle: an installed orgadmin package has none).
 */
async function findProviderExecutable(
  platform: ExecutablePlatform,
  version: string,
  options: InstallProviderOptions,
): Promise<{ path: string; from: string } | undefined> {
  const packaged = installedPlatformExecutable(platform, version, options.searchFrom ?? [process.cwd(), packageRoot()]);
  if (packaged) return { path: packaged.path, from: packaged.name };
  const bundle = await readFile(defaultBundlePath()).catch(() => undefined);
  if (bundle === undefined) return undefined;
  const outDir = options.executablesDir ?? defaultExecutablesDir();
  const built = await findExecutable({ platform, bundle, version, outDir }).catch(() => undefined);
  return built && { path: built.path, from: outDir };
}

/**
 * Installs the provider into the filesystem mirror `options.dir`: the self-contained executable,
 * or the launcher when asked for. Files are replaced by building the new package directory under
 * a temporary name in the mirror (same filesystem) and renaming it into place, so Terraform never
 * sees a half-written package.
 *
 * @throws ProviderInstallError when no executable is installed or built for this platform (saying
 * how to get one), when the launcher is asked for on Windows, or when its bundle is missing.
 */
export async function installProvider(options: InstallProviderOptions = {}): Promise<InstalledProvider> {
  const mirror = resolve(options.dir ?? defaultPluginDir());
  const platformName = terraformPlatform();
  const version = providerVersion();
  const platform = hostExecutablePlatform();
  const wantsLauncher = options.launcher === true || options.bundlePath !== undefined;

  let files: PackageFile[];
  let from: string | undefined;
  if (!wantsLauncher) {
    if (platform === undefined) {
      throw new ProviderInstallError(
        `no provider executable is built for ${platformName}: install the Node.js launcher instead (orgadmin provider install --launcher; needs Node.js when Terraform runs it).`,
      );
    }
    const found = await findProviderExecutable(platform, version, options);
    if (found === undefined) {
      throw new ProviderInstallError(
        `the provider executable for ${platformName} is not installed: run "npm install ${PROVIDER_NPM_PACKAGE}@${version}" ` +
          `(it brings ${platformPackageName(platform)}), or "npm run build" in an orgadmin checkout. ` +
          'orgadmin provider install --launcher installs the Node.js launcher instead.',
      );
    }
    from = found.from;
    files = [{ name: executableName(version, platform.suffix), content: await readFile(found.path), mode: 0o755 }];
  } else {
    if (process.platform === 'win32') {
      throw new ProviderInstallError(`Terraform on Windows starts only .exe plugins, so the launcher cannot run there: run "npm install ${PROVIDER_NPM_PACKAGE}@${version}".`);
    }
    const bundle = await readBundle(resolve(options.bundlePath ?? defaultBundlePath()));
    files = [{ name: executableName(version), content: launcherSource(bundle), mode: 0o755 }];
  }

  const target = mirrorPackageDir(mirror, PROVIDER_INSTALL_ADDRESS, version, platformName);
  const result: InstalledProvider = {
    address: PROVIDER_INSTALL_ADDRESS,
    version,
    path: join(target, files[0]!.name),
    platform: platformName,
    status: 'installed',
    ...(from === undefined ? {} : { selfContained: true as const, from }),
  };
  if (await holdsExactly(target, files)) return { ...result, status: 'unchanged' };
  let existed: boolean;
  try {
    existed = await writePackage(dirname(target), platformName, files);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    // A read-only, missing-permission or file-in-the-way mirror is the user's to fix: say where.
    throw new ProviderInstallError(`cannot install the provider into ${mirror}: ${(error as Error).message}`);
  }
  return { ...result, status: existed ? 'replaced' : 'installed' };
}
