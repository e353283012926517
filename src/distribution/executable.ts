/**
 * Builds the provider as a self-contained executable: a Node.js single executable application
 * (the official Node.js binary of the platform with the provider injected as a blob), which runs
 * with no Node.js, npm or shell on the machine.
 *
 * The blob holds a small main script ({@link bundleLoaderSource}`('executable')`), the provider
 * bundle as an asset and, for the platform this runs on, the bundle's V8 code cache as another
 * asset. Node's own `useCodeCache` option only caches the main script's top-level code; the cache
 * made here (by running the bundle to its handshake, as the launcher's installation does) covers the
 * start-up path. A code cache must be made by the target's V8 on the target's CPU, so executables
 * for other platforms have none; V8 also makes caches that differ from run to run, so only builds
 * without a code cache are byte-for-byte reproducible (`codeCache: false`).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundleLoaderSource, EXECUTABLE_ASSETS } from './bundle-loader';
import { CODE_CACHE_GENERATOR, makeCodeCache } from './code-cache';
import { nodeBinary } from './node-binary';
import { executableName } from './package-info';
import { hostExecutablePlatform, ProviderInstallError, type ExecutablePlatform } from './platforms';

const execFileAsync = promisify(execFile);

/** The fuse string Node.js looks for to know that a blob was injected (its `NODE_SEA_FUSE_...`). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Name of the file recording what an executable was built from, next to it. */
const BUILD_INFO_FILE = 'build.json';

/** Options of {@link buildExecutable}. */
export interface BuildExecutableOptions {
  platform: ExecutablePlatform;
  /** The provider bundle (dist/provider/terraform-provider-orgadmin.js). */
  bundle: Buffer;
  /** The provider version, in the executable's name. */
  version: string;
  /** Output directory: the executable goes to `<outDir>/<platform>/terraform-provider-orgadmin_v<version>` (see {@link platformDir}). */
  outDir: string;
  /**
   * Embed a V8 code cache when building for this machine's platform (default true). False gives a
   * byte-for-byte reproducible executable that starts a little slower.
   */
  codeCache?: boolean;
  /** Where Node.js binaries are cached (default {@link nodeBinaryCacheDir}). */
  nodeCacheDir?: string;
}

/** An executable built (or found up to date) by {@link buildExecutable}. */
export interface BuiltExecutable {
  /** Terraform platform, `linux_amd64`. */
  platform: string;
  /** Absolute path of the executable. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** SHA-256 of the executable, hex. */
  sha256: string;
  /** Whether a V8 code cache is embedded. */
  codeCache: boolean;
  /** True when an up-to-date executable was already there. */
  reused: boolean;
}

/** What {@link BUILD_INFO_FILE} records. */
interface BuildInfo {
  version: string;
  node: string;
  bundleSha256: string;
  /** Hash of the code that makes the executable's contents (main script, code-cache generator). */
  recipeSha256: string;
  codeCache: boolean;
  sha256: string;
  size: number;
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/**
 * The executable's directory under `options.outDir`: `<platform>`, or `<platform>.no-code-cache`
 * for this machine's platform built without a code cache, so that a reproducible build does not
 * replace the faster one `orgadmin provider install` takes.
 */
function platformDir(options: BuildExecutableOptions): string {
  const withoutCache = options.codeCache === false && hostExecutablePlatform()?.name === options.platform.name;
  return join(options.outDir, withoutCache ? `${options.platform.name}.no-code-cache` : options.platform.name);
}

/** What an executable built now from `bundle` would record, except its own hash and size. */
function expectedInfo(options: BuildExecutableOptions): Omit<BuildInfo, 'sha256' | 'size'> {
  return {
    version: options.version,
    node: process.versions.node,
    bundleSha256: sha256(options.bundle),
    recipeSha256: sha256(`${bundleLoaderSource('executable')}\n${CODE_CACHE_GENERATOR}`),
    codeCache: (options.codeCache ?? true) && hostExecutablePlatform()?.name === options.platform.name,
  };
}

/**
 * The executable already built in `outDir` from exactly this bundle, version, Node.js and code-cache
 * choice, or undefined.
 */
export async function findExecutable(options: BuildExecutableOptions): Promise<BuiltExecutable | undefined> {
  const dir = platformDir(options);
  const path = join(dir, executableName(options.version));
  let info: BuildInfo;
  let content: Buffer;
  try {
    info = JSON.parse(await readFile(join(dir, BUILD_INFO_FILE), 'utf8')) as BuildInfo;
    content = await readFile(path);
  } catch {
    return undefined;
  }
  const expected = expectedInfo(options);
  for (const key of Object.keys(expected) as Array<keyof typeof expected>) if (info[key] !== expected[key]) return undefined;
  if (sha256(content) !== info.sha256) return undefined;
  return { platform: options.platform.name, path, size: content.length, sha256: info.sha256, codeCache: info.codeCache, reused: true };
}

/** postject's `inject`, loaded on first use: it is a development dependency. */
function loadPostject(): { inject(file: string, name: string, data: Buffer, options: { sentinelFuse: string }): Promise<void> } {
  try {
    return require('postject') as ReturnType<typeof loadPostject>;
  } catch {
    throw new ProviderInstallError('building the provider executable needs postject: run "npm install" in the orgadmin repository (it is a dev dependency).');
  }
}

/**
 * Builds the executable for `options.platform` into `options.outDir`, unless an identical build is
 * already there. Needs npm (to fetch the platform's Node.js binary once) and this very Node.js
 * version on the npm registry.
 *
 * @throws ProviderInstallError when the Node.js binary cannot be fetched or has no SEA fuse.
 */
export async function buildExecutable(options: BuildExecutableOptions): Promise<BuiltExecutable> {
  const found = await findExecutable(options);
  if (found) return found;
  const info = expectedInfo(options);
  const node = await nodeBinary(options.platform, process.versions.node, options.nodeCacheDir);
  const nodeBytes = await readFile(node);
  if (!nodeBytes.includes(`${SEA_FUSE}:0`)) throw new ProviderInstallError(`${node} is not a Node.js binary that can become a single executable application.`);

  const work = await mkdtemp(join(tmpdir(), 'orgadmin-sea-'));
  try {
    const assets: Record<string, string> = { [EXECUTABLE_ASSETS.bundle]: 'bundle.js' };
    await writeFile(join(work, 'bundle.js'), options.bundle);
    await writeFile(join(work, 'main.js'), bundleLoaderSource('executable'));
    if (info.codeCache) {
      const cache = await makeCodeCache(options.bundle);
      if (cache) {
        await writeFile(join(work, 'bundle.v8cache'), cache);
        assets[EXECUTABLE_ASSETS.codeCache] = 'bundle.v8cache';
      } else {
        info.codeCache = false;
      }
    }
    // Relative paths only: nothing of this machine's file system goes into the blob. Node's own
    // options stay off: `useCodeCache` caches only main.js (a dozen lines), and `useSnapshot` cannot
    // take this bundle (the snapshot builders of Node 20 and 22 fail on node:tls, which the plugin
    // server loads at start); both would also tie the blob to the build machine's CPU.
    const config = { main: 'main.js', output: 'blob', disableExperimentalSEAWarning: true, useCodeCache: false, useSnapshot: false, assets };
    await writeFile(join(work, 'sea-config.json'), JSON.stringify(config));
    await execFileAsync(process.execPath, ['--experimental-sea-config', 'sea-config.json'], { cwd: work, env: { PATH: process.env.PATH } });
    const blob = await readFile(join(work, 'blob'));

    const dir = platformDir(options);
    await mkdir(dir, { recursive: true });
    const staging = join(work, 'executable');
    await copyFile(node, staging);
    await chmod(staging, 0o755);
    await quietly(() => loadPostject().inject(staging, 'NODE_SEA_BLOB', blob, { sentinelFuse: SEA_FUSE }));
    const content = await readFile(staging);
    const path = join(dir, executableName(options.version));
    await rm(join(dir, BUILD_INFO_FILE), { force: true });
    await copyFile(staging, `${path}.partial`);
    await chmod(`${path}.partial`, 0o755);
    await rename(`${path}.partial`, path);
    const built: BuildInfo = { ...info, sha256: sha256(content), size: content.length };
    await writeFile(join(dir, BUILD_INFO_FILE), `${JSON.stringify(built, null, 2)}\n`);
    return { platform: options.platform.name, path, size: content.length, sha256: built.sha256, codeCache: built.codeCache, reused: false };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Runs `action` with console output dropped: postject's ELF library prints a warning per note
 * section of Node's binary ("Can't find string offset for section name"), which is noise here.
 */
async function quietly<T>(action: () => Promise<T>): Promise<T> {
  const { log, warn, error } = console;
  console.log = console.warn = console.error = () => undefined;
  try {
    return await action();
  } finally {
    Object.assign(console, { log, warn, error });
  }
}
