/**
 * Terraform platforms (`<os>_<arch>` in Go's naming) and what the provider is built as for each:
 * a self-contained executable (the provider bundle compiled by Bun), delivered in release zips and
 * in one npm package per platform.
 */

/** Raised when the provider cannot be installed, built or released; the message says what to do. */
export class ProviderInstallError extends Error {
  override readonly name = 'ProviderInstallError';
}

/** Node's `process.platform` → Go's GOOS, for the platforms Terraform runs on. */
const GO_OS: Readonly<Record<string, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows', freebsd: 'freebsd', openbsd: 'openbsd' };

/** Node's `process.arch` → Go's GOARCH. */
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };

/**
 * The Terraform platform string (`linux_amd64`) for a Node platform and architecture.
 *
 * @throws ProviderInstallError on an operating system or architecture Terraform is not built for.
 */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const os = GO_OS[platform];
  if (os === undefined) throw new ProviderInstallError(`cannot install the provider on ${platform}: Terraform is not built for it.`);
  const goArch = GO_ARCH[arch];
  if (goArch === undefined) throw new ProviderInstallError(`cannot install the provider on CPU architecture ${arch}: Terraform is not built for it.`);
  return `${os}_${goArch}`;
}

/** A platform the self-contained executable is built for. */
export interface ExecutablePlatform {
  /** Terraform's name, `linux_arm64`. */
  readonly name: string;
  /** Go's GOOS and GOARCH, as the registry protocol lists them. */
  readonly os: string;
  readonly arch: string;
  /** Node's `process.platform` and `process.arch` there: the npm package's `os` and `cpu`. */
  readonly nodePlatform: string;
  readonly nodeArch: string;
  /**
   * The Bun runtime the executable is compiled onto: the npm package `@oven/bun-<runtime>` at the
   * building Bun's version, and Bun's `--target=bun-<runtime>`. x64 takes Bun's "baseline" build,
   * which runs on every x86-64 CPU (the other one needs AVX2, as Go's providers do not).
   */
  readonly runtime: string;
  /** `.exe` on Windows, where Terraform starts only `.exe` plugins; empty elsewhere. */
  readonly suffix: string;
}

const platform = (os: string, arch: string, nodePlatform: string, nodeArch: string, runtime: string): ExecutablePlatform => ({
  name: `${os}_${arch}`,
  os,
  arch,
  nodePlatform,
  nodeArch,
  runtime,
  suffix: os === 'windows' ? '.exe' : '',
});

/** Platforms the executable is built for, all of them from any one Linux machine. */
export const EXECUTABLE_PLATFORMS: Readonly<Record<string, ExecutablePlatform>> = {
  linux_amd64: platform('linux', 'amd64', 'linux', 'x64', 'linux-x64-baseline'),
  linux_arm64: platform('linux', 'arm64', 'linux', 'arm64', 'linux-aarch64'),
  darwin_amd64: platform('darwin', 'amd64', 'darwin', 'x64', 'darwin-x64-baseline'),
  darwin_arm64: platform('darwin', 'arm64', 'darwin', 'arm64', 'darwin-aarch64'),
  windows_amd64: platform('windows', 'amd64', 'win32', 'x64', 'windows-x64-baseline'),
};

/**
 * Parses a comma-separated platform list (`linux_amd64,linux_arm64`) into executable platforms.
 *
 * @throws ProviderInstallError naming a platform the executable is not built for.
 */
export function parsePlatforms(list: string): ExecutablePlatform[] {
  const names = [...new Set(list.split(',').map((name) => name.trim()).filter((name) => name !== ''))];
  if (names.length === 0) throw new ProviderInstallError('no platform given: name at least one, e.g. linux_amd64.');
  return names.map((name) => {
    const found = EXECUTABLE_PLATFORMS[name];
    if (found !== undefined) return found;
    throw new ProviderInstallError(
      `unknown platform "${name}": the executable can be built for ${Object.keys(EXECUTABLE_PLATFORMS).join(', ')}.`,
    );
  });
}

/** The executable platform of a Node platform and architecture (default: this machine's), or undefined. */
export function hostExecutablePlatform(nodePlatform: string = process.platform, nodeArch: string = process.arch): ExecutablePlatform | undefined {
  return Object.values(EXECUTABLE_PLATFORMS).find((p) => p.nodePlatform === nodePlatform && p.nodeArch === nodeArch);
}
