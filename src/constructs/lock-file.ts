/**
 * The starter dependency lock file that lets `cdktf deploy`/`diff` and `cdktn deploy`/`diff` run on
 * a fresh output directory with the provider installed by `orgadmin provider install`.
 *
 * Both CLIs run `terraform init` and then, when the stack's output directory has no
 * `.terraform.lock.hcl` (a fresh checkout, every CI run), `terraform providers lock
 * -platform=linux_amd64`. That command ignores local mirrors, `~/.terraform.d/plugins` included,
 * and asks the provider's origin registry, so with a locally installed provider it fails
 * ("Could not retrieve providers for locking"). The CLIs skip it when a lock file is already there
 * and locks a version their stack's constraint accepts.
 *
 * So when a stack's output directory has no lock file yet and the provider version the stack
 * requires is installed in the local mirror for this machine's platform, synth writes one that
 * names that version and constraint and no checksums. `terraform init` then installs the package
 * from the mirror and records its `h1:` checksum into the file, as it does in a directory without a
 * lock file (the same trust on first use), so a checksum taken here can never disagree with the
 * package Terraform actually installs. An existing lock file is kept as it is when it locks the
 * required version (after the first init it holds the checksums); when it locks another version of
 * the provider (the package was upgraded), only the provider's block is replaced, since the old
 * version's checksums are of no use for the new one and the CLIs would otherwise run their lock step
 * again, and when it does not name the provider (it was added to the stack later) the block is
 * added. Without a local installation nothing is written and the CLIs lock from the registry or
 * network mirror as before.
 *
 * The CLIs check every provider the stack requires: a stack that also uses providers from a
 * registry still gets their lock step, which then fails for this provider as before (commit the
 * stack's lock file instead).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPluginDir, mirrorPackageDir } from '../distribution/mirror-layout';
import { terraformPlatform } from '../distribution/platforms';

/** The lock file's name, in a stack's output directory (Terraform's working directory). */
export const LOCK_FILE_NAME = '.terraform.lock.hcl';

/** The provider a lock file is written for, as the stack requires it. */
export interface LockedProvider {
  /** Full source address, `registry.terraform.io/orgadmin/orgadmin`. */
  readonly address: string;
  /** The exact version the stack requires (its `required_providers` constraint). */
  readonly version: string;
}

/** What {@link writeStarterLockFile} did, and why. */
export type StarterLockFileOutcome =
  /** The file was written. */
  | 'written'
  /** The lock file locked another version of the provider, or none: its block was replaced or added. */
  | 'updated'
  /** A lock file that locks the required version was already there. */
  | 'kept'
  /** The provider version is not installed in the local mirror: the CLIs can lock it themselves. */
  | 'not-installed-locally';

/**
 * The lock file text: the provider at `version`, constrained to it, without checksums (which
 * `terraform init` adds for the package it installs).
 */
export function starterLockFileText(provider: LockedProvider): string {
  return [
    '# Written at synth by the orgadmin constructs for a provider installed in the local mirror',
    '# (orgadmin provider install); terraform init adds the installed package\'s checksum.',
    '',
    providerBlock(provider),
  ].join('\n');
}

/** The provider's block of the lock file, without checksums. */
function providerBlock(provider: LockedProvider): string {
  return [
    `provider ${JSON.stringify(provider.address)} {`,
    `  version     = ${JSON.stringify(provider.version)}`,
    `  constraints = ${JSON.stringify(provider.version)}`,
    '}',
    '',
  ].join('\n');
}

/**
 * The provider's block in a lock file's text (Terraform writes each as `provider "<address>" {`
 * at the start of a line up to a `}` alone on a line) and the version it locks.
 */
function findProviderBlock(text: string, address: string): { block: string; version: string | undefined } | undefined {
  const start = text.indexOf(`provider ${JSON.stringify(address)} {\n`);
  if (start === -1 || (start > 0 && text[start - 1] !== '\n')) return undefined;
  const end = text.indexOf('\n}\n', start);
  const block = end === -1 ? text.slice(start) : text.slice(start, end + '\n}\n'.length);
  return { block, version: /^\s*version\s*=\s*"([^"]*)"/m.exec(block)?.[1] };
}

/**
 * Whether `provider` is installed for this machine's platform in the filesystem mirror
 * `mirrorDir`, in Terraform's unpacked layout `<mirror>/<host>/<namespace>/<type>/<version>/<os>_<arch>`.
 */
export function installedInMirror(provider: LockedProvider, mirrorDir: string): boolean {
  let platform: string;
  try {
    platform = terraformPlatform();
  } catch {
    // A platform the provider cannot be installed on has no local installation to lock.
    return false;
  }
  return existsSync(mirrorPackageDir(mirrorDir, provider.address, provider.version, platform));
}

/**
 * Writes the starter lock file into `stackDir` when there is none, or replaces or adds the
 * provider's block in one that does not lock the required version, when `provider` is installed in `mirrorDir` (default:
 * `~/.terraform.d/plugins`, where `orgadmin provider install` puts it and `terraform init` finds it
 * without configuration).
 */
export function writeStarterLockFile(stackDir: string, provider: LockedProvider, mirrorDir: string = defaultPluginDir()): StarterLockFileOutcome {
  const file = join(stackDir, LOCK_FILE_NAME);
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    const found = findProviderBlock(text, provider.address);
    if (found?.version === provider.version) return 'kept';
    if (!installedInMirror(provider, mirrorDir)) return 'not-installed-locally';
    const separator = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    writeFileSync(file, found === undefined ? `${text}${separator}${providerBlock(provider)}` : text.replace(found.block, providerBlock(provider)));
    return 'updated';
  }
  if (!installedInMirror(provider, mirrorDir)) return 'not-installed-locally';
  // 'wx': another writer that got there first wins; its file says the same.
  try {
    writeFileSync(file, starterLockFileText(provider), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'kept';
    throw error;
  }
  return 'written';
}
