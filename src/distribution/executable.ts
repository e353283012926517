/**
 * Builds the provider as a self-contained executable: the provider bundle compiled by Bun
 * (`bun build --compile`) onto Bun's runtime for the platform, which runs with no Node.js, npm or
 * shell on the machine. Every platform is built from any machine Bun runs on: the target's runtime
 * is fetched from the npm registry (./bun-runtime.ts).
 *
 * The bundle is the esbuild bundle of src/provider/main.ts (scripts/build-provider.mjs), which
 * already holds the npm `undici` the SDK is written for: Bun's bundler would resolve `undici` to
 * Bun's own partial look-alike, which lacks what the SDK uses. Bun compiles that one file as it is.
 *
 * Options given to Bun, each for a reason:
 * - `--bytecode`: the executable holds the bundle compiled to JavaScriptCore bytecode, so a start
 *   does not parse the 0.8 MB bundle (bench:provider shows the start-up of a build without it).
 *   The bytecode is made by the building Bun, for every target alike; the build stays byte-for-byte
 *   reproducible (same bundle, same Bun, same runtime: same executable).
 * - `--no-compile-autoload-dotenv`, `--no-compile-autoload-bunfig`: Terraform starts the provider in
 *   the user's working directory, whose `.env` or `bunfig.toml` must not change the provider.
 * - `--compile-exec-argv=--use-system-ca`: HTTPS trusts the operating system's certificate store
 *   (OpenSSL's files and directories, `SSL_CERT_FILE` and `SSL_CERT_DIR` on Linux; the keychain on
 *   macOS; the certificate store on Windows) besides Bun's bundled roots and `NODE_EXTRA_CA_CERTS`,
 *   as Terraform's Go providers trust the system's.
 *
 * A macOS executable must carry a code signature that matches it (arm64: Bun signs it ad hoc), or
 * none (x86-64, where Bun leaves its own binary's signature, now stale: removed here; see
 * ./macho-signature.ts).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bunCompiler, bunRuntime } from './bun-runtime';
import { failureDetail } from './command-output';
import { codeSignature, isMachO64 } from './macho-signature';
import { executableName } from './package-info';
import { ProviderInstallError, type ExecutablePlatform } from './platforms';

const execFileAsync = promisify(execFile);

/** Name of the file recording what an executable was built from, next to it. */
const BUILD_INFO_FILE = 'build.json';

/** Bun's options besides the target, the runtime and the files (see the module comment). */
const BUN_OPTIONS: readonly string[] = [
  '--compile',
  '--format=cjs',
  '--no-compile-autoload-dotenv',
  '--no-compile-autoload-bunfig',
  '--compile-exec-argv=--use-system-ca',
];

/**
 * A macOS executable as it may run: kept when its code signature is valid; without its signature
 * when that is stale and the platform runs unsigned code (x86-64).
 *
 * @throws ProviderInstallError for an arm64 executable whose signature does not match it (macOS
 * would kill it at its first page).
 */
export function fitCodeSignature(content: Buffer, platform: ExecutablePlatform): Buffer {
  if (platform.os !== 'darwin' || !isMachO64(content)) return content;
  const state = codeSignature(content);
  if (state !== 'invalid') return content;
  if (platform.arch === 'arm64') {
    throw new ProviderInstallError(`Bun's ${platform.name} executable carries a code signature that does not match it: macOS would not run it.`);
  }
  const { unsign } = require('macho-unsign') as typeof import('macho-unsign');
  const unsigned = unsign(content);
  if (unsigned === null) throw new ProviderInstallError(`cannot remove the stale code signature of the ${platform.name} executable.`);
  return Buffer.from(unsigned);
}

/** Options of {@link buildExecutable}. */
export interface BuildExecutableOptions {
  platform: ExecutablePlatform;
  /** The provider bundle (dist/provider/terraform-provider-orgadmin.js). */
  bundle: Buffer;
  /** The provider version, in the executable's name. */
  version: string;
  /** Output directory: the executable goes to `<outDir>/<platform>/terraform-provider-orgadmin_v<version>[.exe]`. */
  outDir: string;
  /**
   * Compile the bundle to bytecode (default true). False only to measure what the bytecode saves
   * (bench:provider); such a build goes to `<outDir>/<platform>.no-bytecode`.
   */
  bytecode?: boolean;
  /** Where Bun runtimes are cached (default {@link bunRuntimeCacheDir}). */
  runtimeCacheDir?: string;
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
  /** Whether the bundle is compiled to bytecode inside. */
  bytecode: boolean;
  /** The Bun version it was built with. */
  bun: string;
  /** True when an up-to-date executable was already there. */
  reused: boolean;
}

/** What {@link BUILD_INFO_FILE} records. */
interface BuildInfo {
  version: string;
  bun: string;
  runtime: string;
  bundleSha256: string;
  /** Bun's options: another recipe, another build. */
  options: string;
  sha256: string;
  size: number;
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** Bun's options for a build with or without bytecode. */
function bunOptions(bytecode: boolean): string[] {
  return bytecode ? [...BUN_OPTIONS, '--bytecode'] : [...BUN_OPTIONS];
}

/** The executable's directory under `options.outDir`. */
function platformDir(options: BuildExecutableOptions): string {
  return join(options.outDir, options.bytecode === false ? `${options.platform.name}.no-bytecode` : options.platform.name);
}

/** The path of the executable {@link buildExecutable} writes for `options`. */
export function executablePath(options: BuildExecutableOptions): string {
  return join(platformDir(options), executableName(options.version, options.platform.suffix));
}

/** What an executable built now from `options` would record, except its own hash and size. */
function expectedInfo(options: BuildExecutableOptions, bun: string): Omit<BuildInfo, 'sha256' | 'size'> {
  return {
    version: options.version,
    bun,
    runtime: options.platform.runtime,
    bundleSha256: sha256(options.bundle),
    options: `${bunOptions(options.bytecode ?? true).join(' ')}; macOS signatures fitted`,
  };
}

/** The executable already built in `outDir` from exactly this bundle, version, Bun and options, or undefined. */
export async function findExecutable(options: BuildExecutableOptions, bunVersion: string = bunCompiler().version): Promise<BuiltExecutable | undefined> {
  const path = executablePath(options);
  let info: BuildInfo;
  let content: Buffer;
  try {
    info = JSON.parse(await readFile(join(platformDir(options), BUILD_INFO_FILE), 'utf8')) as BuildInfo;
    content = await readFile(path);
  } catch {
    return undefined;
  }
  const expected = expectedInfo(options, bunVersion);
  for (const key of Object.keys(expected) as Array<keyof typeof expected>) if (info[key] !== expected[key]) return undefined;
  if (sha256(content) !== info.sha256) return undefined;
  return { platform: options.platform.name, path, size: content.length, sha256: info.sha256, bytecode: options.bytecode ?? true, bun: info.bun, reused: true };
}

/**
 * Builds the executable for `options.platform` into `options.outDir`, unless an identical build is
 * already there. Needs the `bun` dev dependency and, once per machine and target, npm registry
 * access for the target's runtime.
 *
 * @throws ProviderInstallError when Bun is missing, the runtime cannot be fetched or Bun fails.
 */
export async function buildExecutable(options: BuildExecutableOptions): Promise<BuiltExecutable> {
  const compiler = bunCompiler();
  const found = await findExecutable(options, compiler.version);
  if (found) return found;
  const info = expectedInfo(options, compiler.version);
  const runtime = await bunRuntime(options.platform, compiler.version, options.runtimeCacheDir);
  const name = executableName(options.version, options.platform.suffix);
  const work = await mkdtemp(join(tmpdir(), 'orgadmin-executable-'));
  try {
    // Relative names inside one fresh directory: the executable names its entry and itself
    // (`/$bunfs/root/<name>`), never a directory of this machine.
    await writeFile(join(work, 'provider.js'), options.bundle);
    const args = ['build', 'provider.js', ...bunOptions(options.bytecode ?? true), `--target=bun-${options.platform.runtime}`, `--compile-executable-path=${runtime}`, '--outfile', name];
    try {
      await execFileAsync(compiler.path, args, { cwd: work, env: { PATH: process.env.PATH, HOME: work, TMPDIR: work }, maxBuffer: 16 << 20, timeout: 300_000 });
    } catch (error) {
      throw new ProviderInstallError(`bun build --compile for ${options.platform.name} failed: ${failureDetail(error)}`);
    }
    const content = fitCodeSignature(await readFile(join(work, name)), options.platform);
    await writeFile(join(work, name), content);
    const dir = platformDir(options);
    await mkdir(dir, { recursive: true });
    const path = join(dir, name);
    await rm(join(dir, BUILD_INFO_FILE), { force: true });
    await copyFile(join(work, name), `${path}.partial`);
    await chmod(`${path}.partial`, 0o755);
    await rename(`${path}.partial`, path);
    const built: BuildInfo = { ...info, sha256: sha256(content), size: content.length };
    await writeFile(join(dir, BUILD_INFO_FILE), `${JSON.stringify(built, null, 2)}\n`);
    return { platform: options.platform.name, path, size: content.length, sha256: built.sha256, bytecode: options.bytecode ?? true, bun: compiler.version, reused: false };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
