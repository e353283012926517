/**
 * `orgadmin provider install`: puts the bundled Terraform provider into a filesystem mirror so that
 * `terraform init` installs it without a registry.
 */
import { resolve } from 'node:path';
import { installProvider, mirrorCliConfig, ProviderInstallError, defaultPluginDir } from '../../provider/install';
import { defineCommand, defineGroup } from '../command';
import { CliError, EXIT } from '../errors';
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
      json: { type: 'boolean', description: 'Print the result as JSON.' },
    },
  },
  async ({ flags }, io) => {
    // The CLI's environment (not necessarily this process's) decides where "~" is, so tests and
    // wrappers that pass another HOME get the mirror they expect.
    const dir = flags.dir !== undefined ? resolve(io.cwd, flags.dir) : io.env.HOME ? defaultPluginDir(io.env.HOME) : undefined;
    let installed;
    try {
      installed = await installProvider({ dir });
    } catch (error) {
      if (error instanceof ProviderInstallError) throw new CliError(error.message);
      throw error;
    }
    if (flags.json) {
      printJson(io, installed);
      return EXIT.ok;
    }
    const what = { installed: 'Installed', replaced: 'Replaced the previous build of', unchanged: 'Already installed:' }[installed.status];
    io.stdout(
      `${what} ${installed.address} ${installed.version} (${installed.platform})\n` +
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

/** `orgadmin provider ...`: the Terraform provider's installation. */
export const runProviderCommand = defineGroup('provider', 'Manage the Terraform provider installation.', { install });
