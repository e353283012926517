/**
 * A provider release in the layout the Terraform Registry (and any private registry or network
 * mirror built from the same files) expects:
 *
 * ```
 * terraform-provider-orgadmin_<version>_<os>_<arch>.zip   one per platform: the executable
 * terraform-provider-orgadmin_<version>_manifest.json     {"version":1,"metadata":{"protocol_versions":["6.0"]}}
 * terraform-provider-orgadmin_<version>_SHA256SUMS        "<sha256>  <file>" for the zips and the manifest
 * terraform-provider-orgadmin_<version>_SHA256SUMS.sig    detached binary GPG signature of SHA256SUMS
 * ```
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildExecutable, type BuiltExecutable } from './executable';
import { failureDetail } from './command-output';
import { executableName, PROVIDER_TYPE } from './package-info';
import { ProviderInstallError, type ExecutablePlatform } from './platforms';
import { zipArchive } from './zip';

const execFileAsync = promisify(execFile);

/** The plugin protocol versions the provider speaks, as the manifest and the registry protocol list them. */
export const PROTOCOL_VERSIONS: readonly string[] = ['6.0'];

/** Options of {@link releaseProvider}. */
export interface ReleaseOptions {
  /** Directory the release files are written to (created when missing). */
  outDir: string;
  version: string;
  /** The provider bundle the executables are built from. */
  bundle: Buffer;
  platforms: readonly ExecutablePlatform[];
  /** Where executables are built (and reused from when up to date). */
  executablesDir: string;
  /** GPG key (ID, fingerprint or user ID) to sign SHA256SUMS with; no signature when absent. */
  signingKey?: string;
  /** Environment of `gpg` (e.g. `GNUPGHOME`); default this process's. */
  gpgEnv?: NodeJS.ProcessEnv;
  /** Bun runtime cache directory. */
  runtimeCacheDir?: string;
}

/** One file of the release. */
export interface ReleaseFile {
  name: string;
  sha256: string;
  size: number;
}

/** What {@link releaseProvider} wrote. */
export interface Release {
  version: string;
  dir: string;
  /** The zip archives, one per platform, with the executable each holds. */
  archives: Array<
    ReleaseFile & { platform: string; os: string; arch: string; executable: Omit<BuiltExecutable, 'path' | 'reused'>; executablePath: string }
  >;
  manifest: ReleaseFile;
  shasums: ReleaseFile;
  /** The signature file, when a signing key was given. */
  signature?: ReleaseFile;
}

/** File names of a release, by part. */
export function releaseFileNames(version: string): { prefix: string; manifest: string; shasums: string; signature: string; zip(platform: string): string } {
  const prefix = `terraform-provider-${PROVIDER_TYPE}_${version}`;
  return {
    prefix,
    manifest: `${prefix}_manifest.json`,
    shasums: `${prefix}_SHA256SUMS`,
    signature: `${prefix}_SHA256SUMS.sig`,
    zip: (platform) => `${prefix}_${platform}.zip`,
  };
}

const fileInfo = (name: string, content: Buffer): ReleaseFile => ({ name, sha256: createHash('sha256').update(content).digest('hex'), size: content.length });

/** Runs `gpg --batch ...args`; on failure throws a ProviderInstallError starting with `what` and ending with gpg's last words. */
async function gpg(args: readonly string[], options: ReleaseOptions, what: string): Promise<void> {
  try {
    await execFileAsync('gpg', ['--batch', ...args], { env: options.gpgEnv ?? process.env });
  } catch (error) {
    throw new ProviderInstallError(`${what}: ${failureDetail(error)}`);
  }
}

/**
 * The zip archive holding `built` as `name`: made once per executable and kept next to it
 * (`<executable>.zip`, with the executable's hash in `<executable>.zip.sha256`), since deflating
 * the 100 MiB executable takes seconds and the archive of the same executable is always the same.
 */
async function releaseArchive(built: BuiltExecutable, name: string): Promise<Buffer> {
  const cached = `${built.path}.zip`;
  const recorded = await readFile(`${cached}.sha256`, 'utf8').catch(() => undefined);
  if (recorded === `${built.sha256} ${name}`) {
    const zip = await readFile(cached).catch(() => undefined);
    if (zip !== undefined) return zip;
  }
  const zip = zipArchive([{ name, data: await readFile(built.path), mode: 0o755 }]);
  await rm(`${cached}.sha256`, { force: true });
  await writeWhole(cached, zip);
  await writeFile(`${cached}.sha256`, `${built.sha256} ${name}`);
  return zip;
}

/**
 * Writes `content` to `path` through a temporary name of this process's, so a reader never sees
 * half a file, and two processes writing the same file (the same bytes) do not mix their writes.
 */
async function writeWhole(path: string, content: Buffer | string): Promise<void> {
  const partial = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
  await writeFile(partial, content);
  await rename(partial, path);
}

/**
 * Builds (or reuses) the executables and writes the release files into `options.outDir`.
 *
 * @throws ProviderInstallError when an executable cannot be built or gpg cannot sign.
 */
export async function releaseProvider(options: ReleaseOptions): Promise<Release> {
  const names = releaseFileNames(options.version);
  // A key gpg cannot sign with fails here, before anything is built or written.
  if (options.signingKey !== undefined) await gpg(['--list-secret-keys', options.signingKey], options, `no secret GPG key ${options.signingKey}`);
  await mkdir(options.outDir, { recursive: true });
  const archives: Release['archives'] = [];
  for (const platform of options.platforms) {
    const built = await buildExecutable({
      platform,
      bundle: options.bundle,
      version: options.version,
      outDir: options.executablesDir,
      runtimeCacheDir: options.runtimeCacheDir,
    });
    const zip = await releaseArchive(built, executableName(options.version, platform.suffix));
    const name = names.zip(platform.name);
    await writeWhole(join(options.outDir, name), zip);
    const executable = { platform: built.platform, size: built.size, sha256: built.sha256, bytecode: built.bytecode, bun: built.bun };
    archives.push({ ...fileInfo(name, zip), platform: platform.name, os: platform.os, arch: platform.arch, executable, executablePath: built.path });
  }

  const manifestText = `${JSON.stringify({ version: 1, metadata: { protocol_versions: PROTOCOL_VERSIONS } }, null, 2)}\n`;
  await writeWhole(join(options.outDir, names.manifest), manifestText);
  const manifest = fileInfo(names.manifest, Buffer.from(manifestText));

  const listed = [...archives, manifest].sort((a, b) => (a.name < b.name ? -1 : 1));
  const shasumsText = listed.map((file) => `${file.sha256}  ${file.name}\n`).join('');
  await writeWhole(join(options.outDir, names.shasums), shasumsText);
  const shasums = fileInfo(names.shasums, Buffer.from(shasumsText));

  const release: Release = { version: options.version, dir: options.outDir, archives, manifest, shasums };
  if (options.signingKey !== undefined) {
    const sigPath = join(options.outDir, names.signature);
    // Binary (not armored) detached signature: what Terraform's verifier reads.
    await gpg(
      ['--yes', '--local-user', options.signingKey, '--output', `${sigPath}.partial`, '--detach-sign', join(options.outDir, names.shasums)],
      options,
      `cannot sign ${names.shasums} with GPG key ${options.signingKey}`,
    );
    await rename(`${sigPath}.partial`, sigPath);
    release.signature = fileInfo(names.signature, await readFile(sigPath));
  }
  return release;
}
