/**
 * Installs the orgadmin Terraform provider into a filesystem mirror, so that `terraform init` finds
 * it without a registry or network access (`orgadmin provider install`, the local loop).
 *
 * What gets installed is one provider package directory in Terraform's "unpacked" mirror layout,
 * `<dir>/registry.terraform.io/orgadmin/orgadmin/<version>/<os>_<arch>/`, holding either
 *
 * - the self-contained executable `terraform-provider-orgadmin_v<version>` (a Node.js single
 *   executable application, see `distribution/executable.ts`), when `npm run build` built one for
 *   this platform from the current bundle; it needs no Node.js on the machine; or
 * - otherwise the launcher: `terraform-provider-orgadmin_v<version>`, an executable
 *   `#!/usr/bin/env -S node --use-openssl-ca` script, next to `orgadmin-provider-bundle.js` (the
 *   bundle) and `orgadmin-provider-bundle.<v8>.v8cache` (its V8 code cache, when it could be made).
 *
 * The launcher's code cache spares each provider start the parsing and compiling of the bundle
 * (Terraform starts the provider three times per command). It is written here, at install time,
 * before `terraform init` hashes the directory, and never afterwards: a file added later would fail
 * the lock-file checksum. Its name carries the V8 version it was made with, so another Node.js
 * simply finds no cache; V8 itself rejects a cache that does not fit, and the launcher then compiles
 * the bundle as usual.
 *
 * Everything the provider runs lives in that directory, so the `h1:` hash `terraform init` writes
 * into `.terraform.lock.hcl` covers all of its code.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { bundleLoaderSource, PROVIDER_BUNDLE_FILE, PROVIDER_NODE_FLAGS, providerCodeCacheFile } from './bundle-loader';
import { makeCodeCache } from './code-cache';
import { findExecutable } from './executable';
import { holdsExactly, writePackage, type PackageFile } from './package-dir';
import { defaultBundlePath, defaultExecutablesDir, executableName, PROVIDER_INSTALL_ADDRESS, providerVersion } from './package-info';
import { defaultPluginDir, mirrorPackageDir } from './mirror-layout';
import { hostExecutablePlatform, ProviderInstallError, terraformPlatform } from './platforms';

export { bundleScriptSource, PROVIDER_BUNDLE_FILE, PROVIDER_NODE_FLAGS, providerCodeCacheFile } from './bundle-loader';
export { PROVIDER_INSTALL_ADDRESS, providerVersion } from './package-info';
export { ProviderInstallError, terraformPlatform } from './platforms';
export { defaultPluginDir, mirrorPackageDir } from './mirror-layout';

/** Options of {@link installProvider}. */
export interface InstallProviderOptions {
  /** The mirror directory. Default: `~/.terraform.d/plugins` (an implied mirror of Terraform). */
  dir?: string;
  /**
   * The provider bundle to install behind the launcher. Default: `dist/provider/terraform-provider-orgadmin.js`
   * of this package, built by `npm run build:provider`. When given, the launcher is installed.
   */
  bundlePath?: string;
  /**
   * Where self-contained executables are looked for (default `dist/provider/executables`, written
   * by `npm run build`). Ignored when `bundlePath` is given.
   */
  executablesDir?: string;
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

/**
 * The self-contained executable built for this platform from exactly `bundle` (with or without
 * code cache), or undefined when there is none or it is out of date.
 */
async function builtExecutable(bundle: Buffer, version: string, executablesDir: string): Promise<string | undefined> {
  const platform = hostExecutablePlatform();
  if (platform === undefined) return undefined;
  for (const codeCache of [true, false]) {
    const found = await findExecutable({ platform, bundle, version, outDir: executablesDir, codeCache });
    if (found) return found.path;
  }
  return undefined;
}

/**
 * Installs the provider into the filesystem mirror `options.dir`: the self-contained executable
 * when one was built for this platform from the current bundle, the launcher and bundle otherwise.
 * Files are replaced by building the new package directory under a temporary name in the mirror
 * (same filesystem) and renaming it into place, so Terraform never sees a half-written package.
 *
 * @throws ProviderInstallError when the bundle has not been built, or the platform is not supported.
 */
export async function installProvider(options: InstallProviderOptions = {}): Promise<InstalledProvider> {
  const mirror = resolve(options.dir ?? defaultPluginDir());
  const bundlePath = resolve(options.bundlePath ?? defaultBundlePath());
  const platform = terraformPlatform();
  const version = providerVersion();

  let bundle: Buffer;
  try {
    bundle = await readFile(bundlePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ProviderInstallError(
        `the provider bundle ${bundlePath} does not exist: run "npm run build:provider" in the orgadmin package first.`,
      );
    }
    throw error;
  }

  const name = executableName(version);
  const target = mirrorPackageDir(mirror, PROVIDER_INSTALL_ADDRESS, version, platform);
  const versionDir = dirname(target);
  const result: InstalledProvider = { address: PROVIDER_INSTALL_ADDRESS, version, path: join(target, name), platform, status: 'installed' };

  const executable =
    options.bundlePath === undefined ? await builtExecutable(bundle, version, options.executablesDir ?? defaultExecutablesDir()) : undefined;
  let files: PackageFile[];
  if (executable !== undefined) {
    result.selfContained = true;
    files = [{ name, content: await readFile(executable), mode: 0o755 }];
    if (await holdsExactly(target, files)) return { ...result, status: 'unchanged' };
  } else {
    files = [
      { name, content: Buffer.from(bundleLoaderSource('launcher'), 'utf8'), mode: 0o755 },
      { name: PROVIDER_BUNDLE_FILE, content: bundle, mode: 0o644 },
    ];
    const cacheName = providerCodeCacheFile();
    if (await holdsExactly(target, files, cacheName)) return { ...result, status: 'unchanged' };
    const cache = await makeCodeCache(bundle, PROVIDER_NODE_FLAGS);
    if (cache) files.push({ name: cacheName, content: cache, mode: 0o644 });
    // Without a cache this time, an installation that has none either is still the same.
    else if (await holdsExactly(target, files)) return { ...result, status: 'unchanged' };
  }

  let existed: boolean;
  try {
    existed = await writePackage(versionDir, platform, files);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    // A read-only, missing-permission or file-in-the-way mirror is the user's to fix: say where.
    throw new ProviderInstallError(`cannot install the provider into ${mirror}: ${(error as Error).message}`);
  }
  return { ...result, status: existed ? 'replaced' : 'installed' };
}
