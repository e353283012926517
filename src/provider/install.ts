/**
 * Installs the orgadmin Terraform provider into a filesystem mirror, so that `terraform init` finds
 * it without a registry or network access.
 *
 * What gets installed is one provider package directory in Terraform's "unpacked" mirror layout:
 *
 * ```
 * <dir>/registry.terraform.io/orgadmin/orgadmin/<version>/<os>_<arch>/
 *   terraform-provider-orgadmin_v<version>   executable `#!/usr/bin/env -S node --use-openssl-ca` launcher
 *   orgadmin-provider-bundle.js              the self-contained provider bundle
 *   orgadmin-provider-bundle.<v8>.v8cache    V8 code cache of the bundle (when it could be made)
 * ```
 *
 * The code cache spares each provider start the parsing and compiling of the bundle (Terraform
 * starts the provider three times per command). It is written here, at install time, before
 * `terraform init` hashes the directory, and never afterwards: a file added later would fail the
 * lock-file checksum. Its name carries the V8 version it was made with, so another Node.js simply
 * finds no cache; V8 itself rejects a cache that does not fit (other flags, other source), and the
 * launcher then compiles the bundle as usual.
 *
 * Everything the provider runs lives in that directory, so the `h1:` hash `terraform init` writes
 * into `.terraform.lock.hcl` covers all of its code (a launcher that required code from elsewhere
 * would let that code change under a locked hash).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { generateCertificate } from './protocol/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from './protocol/plugin-server';

/** The registry host, namespace and type the provider is installed under. */
export const PROVIDER_INSTALL_ADDRESS = 'registry.terraform.io/orgadmin/orgadmin';

/**
 * File name of the bundle inside the installed package directory. It must not start with
 * `terraform-provider-orgadmin`: Terraform runs the first file of the package directory whose name
 * has that prefix, and `terraform-provider-orgadmin.js` sorts before the launcher.
 */
export const PROVIDER_BUNDLE_FILE = 'orgadmin-provider-bundle.js';

/**
 * File name of the bundle's V8 code cache inside the installed package directory, for the V8
 * version `v8Version` (default: this process's). A cache only fits the V8 that made it.
 */
export function providerCodeCacheFile(v8Version: string = process.versions.v8): string {
  return `orgadmin-provider-bundle.${v8Version}.v8cache`;
}

/**
 * The script the launcher compiles from the bundle's text: the bundle wrapped in a CommonJS-style
 * function, its `#!` line turned into a comment (V8 accepts `#!` only at the very start of a
 * script). Line numbers stay those of the bundle file. The launcher and the code-cache generator
 * must compile exactly this text, or V8 rejects the cache.
 */
export function bundleScriptSource(bundleText: string): string {
  const body = bundleText.startsWith('#!') ? `//${bundleText.slice(2)}` : bundleText;
  return `(function (exports, require, module, __filename, __dirname) {${body}\n})`;
}

/**
 * The Node.js flags the launcher starts the provider with (on its `#!/usr/bin/env -S node ...`
 * line). The code cache is made under them too, so it records the start-up path the launcher
 * runs (V8 itself only checks its own flags, which these are not: a cache fits either way).
 *
 * `--use-openssl-ca`: trust the system's CA store (OpenSSL's default paths, e.g. /etc/ssl/certs,
 * and `SSL_CERT_FILE` / `SSL_CERT_DIR` when set) instead of the ~140 Mozilla roots compiled into
 * Node.js. Terraform's Go providers trust the same store (Go's system pool), so the provider's HTTPS
 * calls to the orgadmin service verify like theirs do. It is also cheaper: the root store is built
 * for every TLS context, the plugin server's included, and parsing the bundled roots was about half
 * of the start-up work before the handshake, three times per Terraform command. Where the system
 * store is a hashed directory (Debian, Ubuntu), certificates are only read on demand; a CA bundle
 * file (`SSL_CERT_FILE`, or a distribution whose default is one) is parsed whole, so the saving
 * there is smaller. `NODE_EXTRA_CA_CERTS` still adds its certificates on top.
 */
export const PROVIDER_NODE_FLAGS: readonly string[] = ['--use-openssl-ca'];

/** How long making the code cache may take before the install goes on without one. */
const CODE_CACHE_TIMEOUT_MS = 30_000;

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

/**
 * The launcher: tiny, and the same for every version, so that the bundle carries all the code. It
 * compiles the bundle with its V8 code cache when there is one that fits (see the module comment),
 * and runs it as CommonJS would. The wrapping must stay identical to {@link bundleScriptSource}.
 */
function launcherSource(): string {
  return [
    // `env -S` splits the rest of the line into arguments (a `#!` line passes one argument only):
    // GNU coreutils 8.30 and later, and the BSDs' and macOS's env (not BusyBox's).
    `#!/usr/bin/env -S node ${PROVIDER_NODE_FLAGS.join(' ')}`,
    '// Launcher of the orgadmin Terraform provider, written by `orgadmin provider install`.',
    '// It runs the bundle next to it, so the lock-file hash of this directory covers all the code;',
    '// the V8 code cache next to it (made at install time) saves compiling the bundle at every start.',
    "'use strict';",
    "const { readFileSync } = require('fs');",
    "const { Script } = require('vm');",
    `const file = __dirname + '/${PROVIDER_BUNDLE_FILE}';`,
    "let text = readFileSync(file, 'utf8');",
    "if (text.startsWith('#!')) text = '//' + text.slice(2);",
    'let cachedData;',
    'try {',
    `  cachedData = readFileSync(__dirname + '/orgadmin-provider-bundle.' + process.versions.v8 + '.v8cache');`,
    '} catch {',
    '  // No cache for this Node.js: compile from source.',
    '}',
    "const script = new Script('(function (exports, require, module, __filename, __dirname) {' + text + '\\n})', { filename: file, cachedData });",
    'const bundleModule = { exports: {} };',
    'script.runInThisContext().call(bundleModule.exports, bundleModule.exports, require, bundleModule, file, __dirname);',
    '',
  ].join('\n');
}

/**
 * Node.js code run in a child process (with {@link PROVIDER_NODE_FLAGS}, as the launcher runs) to
 * make the code cache: it compiles the bundle exactly as the launcher does, runs it as Terraform
 * would start it until the handshake line (so that the functions of the start-up path are
 * compiled and land in the cache), then writes the cache and
 * exits. A bundle that ends without a handshake gets the cache of what it ran.
 * Arguments: bundle path, script source path, cache path.
 */
const CODE_CACHE_GENERATOR = [
  "'use strict';",
  "const fs = require('fs');",
  "const { Script } = require('vm');",
  'const [file, sourceFile, out] = process.argv.slice(1);',
  "const script = new Script(fs.readFileSync(sourceFile, 'utf8'), { filename: file });",
  'let written = false;',
  'const save = () => {',
  '  if (written) return;',
  '  written = true;',
  '  fs.writeFileSync(out, script.createCachedData());',
  '};',
  "process.once('exit', save);",
  'const writeSync = fs.writeSync;',
  'fs.writeSync = function (fd, ...rest) {',
  '  if (fd !== 1) return writeSync.call(this, fd, ...rest);',
  '  save();',
  '  process.exit(0);',
  '};',
  'const bundleModule = { exports: {} };',
  "script.runInThisContext().call(bundleModule.exports, bundleModule.exports, require, bundleModule, file, require('path').dirname(file));",
].join('\n');

/**
 * Makes the V8 code cache of `bundle` with this Node.js, or returns undefined when that fails
 * (the provider then runs without one; nothing else depends on it).
 */
async function makeCodeCache(bundle: Buffer): Promise<Buffer | undefined> {
  const work = await mkdtemp(join(tmpdir(), 'orgadmin-code-cache-'));
  try {
    // The bundle runs from its own name inside a scratch directory, as it will in the package.
    const file = join(work, PROVIDER_BUNDLE_FILE);
    const sourceFile = join(work, 'script.js');
    const out = join(work, 'cache');
    await writeFile(file, bundle);
    await writeFile(sourceFile, bundleScriptSource(bundle.toString('utf8')));
    const sockets = join(work, 'tmp');
    await mkdir(sockets);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      TMPDIR: sockets,
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '6',
      // TLS on, as under Terraform, so the certificate code is in the cache too.
      PLUGIN_CLIENT_CERT: generateCertificate().certPem,
      TF_LOG: 'off',
    };
    // A bundle that fails after starting still leaves the cache of what it ran (written on exit),
    // and V8 checks any cache before using it; only a killed generator leaves none.
    await new Promise<void>((resolvePromise) => {
      execFile(
        process.execPath,
        [...PROVIDER_NODE_FLAGS, '-e', CODE_CACHE_GENERATOR, file, sourceFile, out],
        { env, cwd: work, timeout: CODE_CACHE_TIMEOUT_MS, killSignal: 'SIGKILL' },
        () => resolvePromise(),
      );
    });
    const cache = await readFile(out).catch(() => undefined);
    return cache && cache.length > 0 ? cache : undefined;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** One file of the package directory. */
interface PackageFile {
  name: string;
  content: Buffer;
  mode: number;
}

/**
 * True when `dir` holds exactly `files`, byte for byte, with the executable bit where expected,
 * plus the file named `generated` when given (its content is not compared: a code cache made twice
 * from the same bundle need not be byte-identical, and replacing it would change the lock hash).
 */
async function holdsExactly(dir: string, files: readonly PackageFile[], generated?: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return false;
  }
  if (names.length !== files.length + (generated === undefined ? 0 : 1)) return false;
  if (generated !== undefined && !names.includes(generated)) return false;
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

  const cacheName = providerCodeCacheFile();
  if (await holdsExactly(target, files, cacheName)) return { ...result, status: 'unchanged' };
  const cache = await makeCodeCache(bundle);
  if (cache) files.push({ name: cacheName, content: cache, mode: 0o644 });
  // Without a cache this time, an installation that has none either is still the same.
  else if (await holdsExactly(target, files)) return { ...result, status: 'unchanged' };

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
