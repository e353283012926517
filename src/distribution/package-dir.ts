/**
 * Writing one provider package directory (`<mirror>/<host>/<ns>/<type>/<version>/<os>_<arch>/`) so
 * that Terraform never sees a half-written one, and telling whether an existing one already holds
 * the same files.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One file of the package directory. */
export interface PackageFile {
  name: string;
  content: Buffer;
  mode: number;
}

/** True when `dir` holds exactly `files`, byte for byte, with the executable bit where expected. */
export async function holdsExactly(dir: string, files: readonly PackageFile[]): Promise<boolean> {
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
      await writeFile(path, file.content);
      await chmod(path, file.mode); // writeFile's mode would be filtered by the umask.
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
