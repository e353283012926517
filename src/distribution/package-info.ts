/**
 * Where the orgadmin package is and which provider version it carries. The provider's version is
 * the npm package's version; everything built from the package is found relative to its root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ProviderInstallError } from './platforms';

/** The registry host, namespace and type the provider is installed and released under. */
export const PROVIDER_INSTALL_ADDRESS = 'registry.terraform.io/orgadmin/orgadmin';

/** The provider type, the last part of {@link PROVIDER_INSTALL_ADDRESS}, as in `terraform-provider-<type>`. */
export const PROVIDER_TYPE = PROVIDER_INSTALL_ADDRESS.slice(PROVIDER_INSTALL_ADDRESS.lastIndexOf('/') + 1);

/** The package root of orgadmin: the nearest directory above this file holding orgadmin's package.json. */
export function packageRoot(): string {
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

/** Where `npm run build:provider` writes the bundle. */
export function defaultBundlePath(): string {
  return join(packageRoot(), 'dist', 'provider', 'terraform-provider-orgadmin.js');
}

/** Where `npm run build` (scripts/build-executables.mjs) writes the executables, one directory per platform. */
export function defaultExecutablesDir(): string {
  return join(packageRoot(), 'dist', 'provider', 'executables');
}

/**
 * The executable's file name as Terraform's registry convention has it: `terraform-provider-orgadmin_v0.1.0`,
 * with `suffix` (`.exe` on Windows) at the end.
 */
export function executableName(version: string, suffix = ''): string {
  return `terraform-provider-${PROVIDER_TYPE}_v${version}${suffix}`;
}
