/**
 * `orgadmin provider install`: puts the Terraform provider's executable (or, asked for, the Node.js
 * launcher) into a filesystem mirror so that `terraform init` installs it without a registry.
 * `orgadmin provider release`: writes the files of a registry release (zipped self-contained
 * executables, SHA256SUMS, its signature, the manifest) and, with --npm, the per-platform npm packages.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defaultBundlePath, defaultExecutablesDir, packageRoot, providerVersion } from '../../distribution/package-info';
import { packPlatformPackage } from '../../distribution/npm-packages';
import { EXECUTABLE_PLATFORMS, parsePlatforms } from '../../distribution/platforms';
import { releaseProvider } from '../../distribution/release';
import { installProvider, mirrorCliConfig, ProviderInstallError, defaultPluginDir } from '../../distribution/install';
import { defineCommand, defineGroup } from '../command';
import { CliError, EXIT, UsageError } from '../errors';
import { printJson } from '../output';

const install = defineCommand(
  {
    command: 'provider install',
    summary: 'Installs the Terraform provider into a local filesystem mirror (default ~/.terraform.d/plugins).',
    flags: {
      dir: {
        type: 'string',
        valueName: 'DIR',
        description: 'Mirror directory (default ~/.terraform.d/plugins, which terraform init searches by itself).',
      },
      launcher: {
        type: 'boolean',
        description: 'Install the Node.js launcher instead of the executable, for a platform without one (Terraform then needs Node.js on PATH).',
      },
      json: { type: 'boolean', description: 'Print the result as JSON.' },
    },
  },
  async ({ flags }, io) => {
    // The CLI's environment (not necessarily this process's) decides where "~" is, so tests and
    // wrappers that pass another HOME get the mirror they expect.
    const dir = flags.dir !== undefined ? resolve(io.cwd, flags.dir) : io.env.HOME ? defaultPluginDir(io.env.HOME) : undefined;
    let installed;
    try {
      // The platform package is looked for from the working directory (a project's node_modules)
      // and from this package (a global install, where both sit side by side).
      installed = await installProvider({ dir, launcher: flags.launcher, searchFrom: [io.cwd, packageRoot()] });
    } catch (error) {
      if (error instanceof ProviderInstallError) throw new CliError(error.message);
      throw error;
    }
    if (flags.json) {
      printJson(io, installed);
      return EXIT.ok;
    }
    const what = { installed: 'Installed', replaced: 'Replaced the previous build of', unchanged: 'Already installed:' }[installed.status];
    const form = installed.selfContained ? `self-contained executable from ${installed.from}` : 'launcher; needs Node.js on PATH';
    io.stdout(
      `${what} ${installed.address} ${installed.version} (${installed.platform}, ${form})\n` +
        `  ${installed.path}\n` +
        '\nUse it with:\n' +
        '  terraform {\n' +
        '    required_providers {\n' +
        `      orgadmin = { source = "orgadmin/orgadmin", version = "${installed.version}" }\n` +
        '    }\n' +
        '  }\n',
    );
    const mirror = installed.path.slice(0, installed.path.indexOf(`/${installed.address}/`));
    if (mirror !== defaultPluginDir(io.env.HOME || undefined)) {
      // Only ~/.terraform.d/plugins (and a few XDG directories) are searched without configuration.
      io.stdout(
        '\nTerraform does not search this directory by itself: add it to your CLI configuration (TF_CLI_CONFIG_FILE):\n' +
          mirrorCliConfig(mirror).replace(/^(?=.)/gm, '  '),
      );
    }
    return EXIT.ok;
  },
);

const release = defineCommand(
  {
    command: 'provider release',
    summary: 'Writes a Terraform registry release of the provider: zipped executables, SHA256SUMS, signature, manifest.',
    flags: {
      out: { type: 'string', valueName: 'DIR', description: 'Directory to write the release files to (required).' },
      'signing-key': {
        type: 'string',
        valueName: 'GPG_KEY_ID',
        description: 'GPG key to sign SHA256SUMS with (gpg --detach-sign); a registry needs the signature.',
      },
      platforms: {
        type: 'string',
        valueName: 'OS_ARCH,...',
        description: `Platforms to build (default ${Object.keys(EXECUTABLE_PLATFORMS).join(',')}).`,
      },
      npm: {
        type: 'boolean',
        description: 'Also pack the per-platform npm packages (@orgadmin/provider-<os>-<cpu>) into DIR/npm, for npm publish.',
      },
      json: { type: 'boolean', description: 'Print the result as JSON.' },
    },
  },
  async ({ flags }, io) => {
    if (flags.out === undefined) throw new UsageError('"orgadmin provider release" needs --out DIR.');
    let result;
    const npmPackages: string[] = [];
    try {
      const platforms = parsePlatforms(flags.platforms ?? Object.keys(EXECUTABLE_PLATFORMS).join(','));
      const bundlePath = defaultBundlePath();
      const bundle = await readFile(bundlePath).catch(() => {
        throw new ProviderInstallError(`the provider bundle ${bundlePath} does not exist: run "npm run build" in the orgadmin package first.`);
      });
      result = await releaseProvider({
        outDir: resolve(io.cwd, flags.out),
        version: providerVersion(),
        bundle,
        platforms,
        executablesDir: defaultExecutablesDir(),
        signingKey: flags['signing-key'],
        gpgEnv: io.env,
      });
      if (flags.npm) {
        for (const archive of result.archives) {
          const platform = EXECUTABLE_PLATFORMS[archive.platform]!;
          npmPackages.push(await packPlatformPackage(platform, result.version, archive.executablePath, resolve(io.cwd, flags.out, 'npm')));
        }
      }
    } catch (error) {
      if (error instanceof ProviderInstallError) throw new CliError(error.message);
      throw error;
    }
    if (flags.json) {
      printJson(io, flags.npm ? { ...result, npmPackages } : result);
      return EXIT.ok;
    }
    const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const lines = [`Wrote the release of orgadmin ${result.version} to ${result.dir}:`];
    for (const archive of result.archives) {
      lines.push(`  ${archive.name}  ${mib(archive.size)} (executable ${mib(archive.executable.size)}, Bun ${archive.executable.bun})`);
    }
    lines.push(`  ${result.manifest.name}`, `  ${result.shasums.name}`);
    if (result.signature) lines.push(`  ${result.signature.name}`);
    else lines.push('', 'Not signed: registries need a signature; pass --signing-key GPG_KEY_ID.');
    if (npmPackages.length > 0) lines.push('', 'npm packages (npm publish each, then orgadmin-provider):', ...npmPackages.map((path) => `  ${path}`));
    lines.push('', 'Publishing it: docs/guides/publishing.md.');
    io.stdout(`${lines.join('\n')}\n`);
    return EXIT.ok;
  },
);

/** `orgadmin provider ...`: the Terraform provider's installation and release. */
export const runProviderCommand = defineGroup('provider', 'Install or release the Terraform provider.', { install, release });
