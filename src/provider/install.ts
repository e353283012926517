/**
 * Installs the orgadmin Terraform provider into a filesystem mirror, so that `terraform init` finds
 * it without a registry or network access.
 *
 * What gets installed is one provider package directory in Terraform's "unpacked" mirror layout:
 *
 * ```
 * <dir>/registry.terraform.io/orgadmin/orgadmin/<version>/<os>_<arch>/
 *   terraform-provider-orgadmin_v<version>   executable `#!/usr/bin/env node` launcher
 *   orgadmin-provider-bundle.js              the self-contained provider bundle
 * ```
 *
 * Everything the provider runs lives in that directory, so the `h1:` hash `terraform init` writes
 * into `.terraform.lock.hcl` covers all of its code (a launcher that required code from elsewhere
 * would let that code change under a locked hash).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The registry host, namespace and type the provider is installed under. */
export const PROVIDER_INSTALL_ADDRESS = 'registry.terraform.io/orgadmin/orgadmin';

/**
 * File name of the bundle inside the installed package directory. It must not start with
 * `terraform-provider-orgadmin`: Terraform runs the first file of the package directory whose name
 * has that prefix, and `terraform-provider-orgadmin.js` sorts before the launcher.
 */
export const PROVIDER_BUNDLE_FILE = 'orgadmin-provider-bundle.js';

/** Where `npm run build:provider` writes the bundle, relative to the package root. */
const BUNDLE_IN_PACKAGE = join('dist', 'provider', 'terraform-provider-orgadmin.js');

/** Options of {@link installProvider}. */
export interface InstallProviderOptions {
  /** The mirror directory. Default: `~/.terraform.d/plugins` (an implied mirror of Terraform). */
  dir?: string;
  /**
   * The provider bundle to install. Default: `dist/provider/terraform-provider-orgadmin.js` of
   * this package, built by `npm run build:provider`.
   */
  bundlePath?: string;
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
}

/** Raised when the provider cannot be installed; the message says what to do. */
export class ProviderInstallError extends Error {
  override readonly name = 'ProviderInstallError';
}

/** Node's `process.platform` → Go's GOOS, for the platforms Terraform runs a script provider on. */
const GO_OS: Readonly<Record<string, string>> = { linux: 'linux', darwin: 'darwin', freebsd: 'freebsd', openbsd: 'openbsd' };

/** Node's `process.arch` → Go's GOARCH. */
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };

/**
 * The Terraform platform string (`linux_amd64`) for a Node platform and architecture.
 *
 * @throws ProviderInstallError on Windows (Terraform there needs an `.exe`, not a script) and on
 * architectures Terraform is not built for.
 */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const os = GO_OS[platform];
  if (os === undefined) {
    throw new ProviderInstallError(
      `cannot install the provider on ${platform}: Terraform there only starts .exe plugins, and this provider is a Node.js script.`,
    );
  }
  const goArch = GO_ARCH[arch];
  if (goArch === undefined) throw new ProviderInstallError(`cannot install the provider on CPU architecture ${arch}: Terraform is not built for it.`);
  return `${os}_${goArch}`;
}

/** The default mirror directory: `~/.terraform.d/plugins`, which Terraform searches without any CLI configuration. */
export function defaultPluginDir(home: string = homedir()): string {
  return join(home, '.terraform.d', 'plugins');
}

/** The package root of orgadmin: the nearest directory above this file holding orgadmin's package.json. */
function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown };
      if (pkg.name === 'orgadmin') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new ProviderInstallError('cannot find the orgadmin package.json above ' + __dirname + '.');
    dir = parent;
  }
}

/** The provider version: the version of the orgadmin npm package. */
export function providerVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string' || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(pkg.version)) {
    throw new ProviderInstallError(`package.json has no usable version (${String(pkg.version)}); Terraform needs a semantic version.`);
  }
  return pkg.version;
}

/** The launcher: tiny, and the same for every version, so that the bundle carries all the code. */
function launcherSource(): string {
  return [
    '#!/usr/bin/env node',
    '// Launcher of the orgadmin Terraform provider, written by `orgadmin provider install`.',
    '// It runs the bundle next to it, so the lock-file hash of this directory covers all the code.',
    "'use strict';",
    `require('./${PROVIDER_BUNDLE_FILE}');`,
    '',
  ].join('\n');
}

/** One file of the package directory. */
interface PackageFile {
  name: string;
  content: Buffer;
  mode: number;
}

/** True when `dir` holds exactly `files`, byte for byte, with the executable bit where expected. */
async function holdsExactly(dir: string, files: readonly PackageFile[]): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return false;
  }
  if (names.length !== files.length) return false;
  for (const file of files) {
    if (!names.includes(file.name)) return false;
    const path = join(dir, file.name);
    const info = await stat(path);
    if (!info.isFile() || (info.mode & 0o111) !== (file.mode & 0o111)) return false;
    const content = await readFile(path);
    if (!content.equals(file.content)) return false;
  }
  return true;
}

/** Short content digest for log-friendly temporary names. */
function digest(files: readonly PackageFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.name).update(file.content);
  return hash.digest('hex').slice(0, 12);
}

/**
 * Installs the bundled provider into the filesystem mirror `options.dir`.
 *
 * Idempotent: identical files already in place are left alone (`status: 'unchanged'`). Different
 * files are replaced by building the new package directory under a temporary name in the mirror
 * (same filesystem) and renaming it into place, so Terraform never sees a half-written package.
 *
 * @throws ProviderInstallError when the bundle has not been built, or the platform is not supported.
 */
export async function installProvider(options: InstallProviderOptions = {}): Promise<InstalledProvider> {
  const mirror = resolve(options.dir ?? defaultPluginDir());
  const bundlePath = resolve(options.bundlePath ?? join(packageRoot(), BUNDLE_IN_PACKAGE));
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

  const executableName = `terraform-provider-orgadmin_v${version}`;
  const files: PackageFile[] = [
    { name: executableName, content: Buffer.from(launcherSource(), 'utf8'), mode: 0o755 },
    { name: PROVIDER_BUNDLE_FILE, content: bundle, mode: 0o644 },
  ];

  const versionDir = join(mirror, ...PROVIDER_INSTALL_ADDRESS.split('/'), version);
  const target = join(versionDir, platform);
  const result = { address: PROVIDER_INSTALL_ADDRESS, version, path: join(target, executableName), platform };

  if (await holdsExactly(target, files)) return { ...result, status: 'unchanged' };

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

/**
 * Writes `files` as the package directory `<versionDir>/<platform>`, replacing what is there.
 * Returns true when a previous package was replaced.
 */
async function writePackage(versionDir: string, platform: string, files: readonly PackageFile[]): Promise<boolean> {
  const target = join(versionDir, platform);
  await mkdir(versionDir, { recursive: true });
  // Dot-prefixed so that Terraform, should it scan the mirror meanwhile, does not take it for a platform.
  const staging = await mkdtemp(join(versionDir, `.staging-${platform}-${digest(files)}-`));
  try {
    for (const file of files) {
      const path = join(staging, file.name);
      await writeFile(path, file.content, { mode: file.mode });
      await chmod(path, file.mode); // writeFile's mode is filtered by the umask.
    }
    const existed = existsSync(target);
    if (existed) {
      // rename() cannot replace a non-empty directory: move the old one aside first, then swap in
      // the new one, then delete the old one. The window without a package is two renames long.
      const aside = join(versionDir, `.replaced-${platform}-${randomBytes(6).toString('hex')}`);
      await rename(target, aside);
      try {
        await rename(staging, target);
      } catch (error) {
        await rename(aside, target);
        throw error;
      }
      await rm(aside, { recursive: true, force: true });
    } else {
      await rename(staging, target);
    }
    return existed;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
