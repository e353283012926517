/**
 * Where a provider package sits in a Terraform filesystem mirror (the "unpacked" layout:
 * `<mirror>/<host>/<namespace>/<type>/<version>/<os>_<arch>/`). One rule for the installer, which
 * writes packages there, and the constructs, which look for one at synth; this module loads
 * nothing else, so a synth does not load the installer.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The default mirror directory, which Terraform searches without any CLI configuration:
 * `~/.terraform.d/plugins`, and on Windows `%APPDATA%/terraform.d/plugins`.
 */
export function defaultPluginDir(home: string = homedir(), platform: string = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'terraform.d', 'plugins');
  return join(home, '.terraform.d', 'plugins');
}

/** The directory of one provider version's package for one platform (`linux_amd64`) in `mirror`. */
export function mirrorPackageDir(mirror: string, address: string, version: string, platform: string): string {
  return join(mirror, ...address.split('/'), version, platform);
}
