/**
 * Writing one provider package directory (`<mirror>/<host>/<ns>/<type>/<version>/<os>_<arch>/`) so
 * that Terraform never sees a half-written one, and telling whether an existing one already holds
 * the same files.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One file of the package directory. */
export interface PackageFile {
  name: string;
  content: Buffer;
  mode: number;
}

/**
 * True when `dir` holds exactly `files`, byte for byte, with the executable bit where expected,
 * plus the file named `generated` when given (its content is not compared: a code cache made twice
 * from the same bundle need not be byte-identical, and replacing it would change the lock hash).
 */
export async function holdsExactly(dir: string, files: readonly PackageFile[], generated?: string): Promise<boolean> {
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

/** The size of each write of {@link writeInPieces}. */
export const WRITE_PIECE_BYTES = 64 * 1024;

/**
 * Writes `content` to a new file at `path` in pieces of {@link WRITE_PIECE_BYTES}.
 *
 * Why not one write: Linux (6.x, ext4 here) keeps the pages of a file written in one large write
 * in the page cache as large folios, and a process that runs the file maps it a folio at a time:
 * its resident set counts every page of each folio it touched one byte of. For the self-contained
 * executable, written whole, that put much more of the binary into each provider process's RSS
 * than the same code costs when run by `/usr/bin/node`, with the same anonymous memory. Written in
 * small pieces, as Terraform's own unzip writes a provider from a registry, the configured provider
 * process of a small plan peaks far lower (bench/README.md, bench:provider, memory; the (e) rows).
 * The kernel decides again when it re-reads an evicted file.
 */
export async function writeInPieces(path: string, content: Buffer, mode: number): Promise<void> {
  const handle = await open(path, 'w', mode);
  try {
    let offset = 0;
    while (offset < content.length) {
      const { bytesWritten } = await handle.write(content, offset, Math.min(WRITE_PIECE_BYTES, content.length - offset));
      offset += bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Writes `files` as the package directory `<versionDir>/<platform>`, replacing what is there: built
 * under a temporary name in the same directory (same filesystem) and renamed into place. Returns
 * true when a previous package was replaced.
 */
export async function writePackage(versionDir: string, platform: string, files: readonly PackageFile[]): Promise<boolean> {
  const target = join(versionDir, platform);
  await mkdir(versionDir, { recursive: true });
  // Dot-prefixed so that Terraform, should it scan the mirror meanwhile, does not take it for a platform.
  const staging = await mkdtemp(join(versionDir, `.staging-${platform}-${digest(files)}-`));
  try {
    for (const file of files) {
      const path = join(staging, file.name);
      await writeInPieces(path, file.content, file.mode);
      await chmod(path, file.mode); // open()'s mode is filtered by the umask.
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
