/**
 * The Bun that compiles the provider, and the Bun runtimes it compiles onto.
 *
 * The compiler is the `bun` npm package, a development dependency (its version is the lock file's).
 * Each target's runtime is Bun's own per-platform npm package at exactly that version
 * (`@oven/bun-linux-aarch64@1.4.5` holds `bin/bun`), fetched with `npm pack`, so npm checks the
 * registry's integrity hash, and kept in a cache directory outside the repository. Bun is handed the
 * runtime (`--compile-executable-path`) instead of downloading it itself: every download goes
 * through npm, its registry configuration and its checks, once per machine.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { failureDetail } from './command-output';
import { packageRoot } from './package-info';
import { ProviderInstallError, type ExecutablePlatform } from './platforms';

const execFileAsync = promisify(execFile);

/** The Bun that compiles: its binary and version. */
export interface BunCompiler {
  readonly path: string;
  readonly version: string;
}

/**
 * The `bun` development dependency of the orgadmin checkout.
 *
 * @throws ProviderInstallError when it is not installed (an installed orgadmin package, or no `npm ci`).
 */
export function bunCompiler(): BunCompiler {
  let manifest: string;
  try {
    manifest = require.resolve('bun/package.json', { paths: [packageRoot()] });
  } catch {
    throw new ProviderInstallError('building the provider executable needs Bun: run "npm ci" in the orgadmin repository (bun is a dev dependency).');
  }
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  // The package's install script puts the platform's binary there, under this name on every OS.
  const path = join(dirname(manifest), 'bin', 'bun.exe');
  if (!existsSync(path)) throw new ProviderInstallError(`${path} is missing: its install script did not run; run "npm rebuild bun".`);
  return { path, version };
}

/**
 * The cache directory of Bun runtimes: `ORGADMIN_BUN_CACHE`, else `$XDG_CACHE_HOME/orgadmin/bun`,
 * else `~/.cache/orgadmin/bun`. Outside the repository, so `npm ci` does not wipe it.
 */
export function bunRuntimeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ORGADMIN_BUN_CACHE) return env.ORGADMIN_BUN_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'orgadmin', 'bun');
}

/** The npm package holding Bun's runtime for `platform`. */
export function bunRuntimePackage(platform: ExecutablePlatform): string {
  return `@oven/bun-${platform.runtime}`;
}

/** The content of the file `wanted` inside a (ustar or pax) tar archive, or undefined. */
export function tarEntry(tar: Buffer, wanted: string): Buffer | undefined {
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return undefined;
    const field = (start: number, length: number): string => header.toString('utf8', start, start + length).replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    const body = tar.subarray(offset + 512, offset + 512 + size);
    longName = undefined;
    if (type === 'x') {
      // A pax header: its `path` record names the next entry.
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (path) longName = path[1];
    } else if ((type === '0' || type === '') && name === wanted) {
      return Buffer.from(body);
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

/**
 * The path of Bun `version`'s runtime for `platform`, fetched into `cacheDir` when not there.
 *
 * @throws ProviderInstallError when npm cannot fetch the package (offline, no such version).
 */
export async function bunRuntime(platform: ExecutablePlatform, version: string, cacheDir: string = bunRuntimeCacheDir()): Promise<string> {
  const spec = `${bunRuntimePackage(platform)}@${version}`;
  const binary = `bun${platform.suffix}`;
  const dir = join(cacheDir, `bun-${platform.runtime}-${version}`);
  const target = join(dir, binary);
  if (existsSync(target)) return target;
  await mkdir(cacheDir, { recursive: true });
  const work = await mkdtemp(join(cacheDir, '.fetch-'));
  try {
    try {
      await execFileAsync('npm', ['pack', spec, '--silent', '--pack-destination', work], { cwd: work, timeout: 300_000, maxBuffer: 1 << 20 });
    } catch (error) {
      throw new ProviderInstallError(`cannot fetch the Bun runtime ${spec} from the npm registry: ${failureDetail(error)}`);
    }
    const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new ProviderInstallError(`npm pack ${spec} wrote no tarball.`);
    const content = tarEntry(gunzipSync(await readFile(join(work, tarball))), `package/bin/${binary}`);
    if (content === undefined) throw new ProviderInstallError(`${spec} has no bin/${binary}.`);
    await mkdir(dir, { recursive: true });
    const partial = join(work, binary);
    await writeFile(partial, content);
    await chmod(partial, 0o755);
    await rename(partial, target);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
