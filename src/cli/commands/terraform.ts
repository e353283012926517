/**
 * `orgadmin terraform import-blocks`: adopts a realm that already has organizations into Terraform.
 * It reads the realm through the service's API with the provider's settings (the same `ORGADMIN_*`
 * variables, so it runs in the shell that runs terraform) and writes `import {}` blocks for every
 * organization and its members (import-blocks.ts).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OrgAdminClient, ClientCredentialsTokenSource, StaticTokenSource, type TokenSource } from '../../client';
import { DiagnosticsCollector } from '../../tfplugin/framework/diagnostics';
import { PROVIDER_ENVIRONMENT_VARIABLES, resolveProviderSettings } from '../../provider/settings';
import { defineCommand, defineGroup } from '../command';
import { CliError, EXIT, UsageError } from '../errors';
import { MEMBER_STYLES, renderImportBlocks, type AdoptedOrganization, type MemberStyle } from '../import-blocks';

const importBlocks = defineCommand(
  {
    command: 'terraform import-blocks',
    summary: 'Writes Terraform import blocks for every organization of a realm and its members.',
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'The realm to adopt.' },
      members: {
        type: 'string',
        valueName: 'STYLE',
        description:
          'membership (default): one orgadmin_membership per member, additive (members added elsewhere stay); ' +
          'set: one authoritative orgadmin_organization_members per organization.',
      },
      out: { type: 'string', valueName: 'FILE', description: 'Write the blocks to FILE (e.g. imports.tf) instead of standard output.' },
      'base-url': {
        type: 'string',
        valueName: 'URL',
        description: `The service's address (default ${PROVIDER_ENVIRONMENT_VARIABLES.base_url}). Credentials come from the environment, as for the provider.`,
      },
    },
  },
  async ({ flags }, io) => {
    const style = (flags.members ?? 'membership') as MemberStyle;
    if (!MEMBER_STYLES.includes(style)) throw new UsageError(`--members is ${JSON.stringify(flags.members)}; use ${MEMBER_STYLES.join(' or ')}.`);
    const diags = new DiagnosticsCollector();
    const config = {
      base_url: flags['base-url'] ?? null,
      realm: flags.realm,
      client_id: null,
      client_secret: null,
      access_token: null,
      request_timeout: null,
      max_retries: null,
    };
    const settings = resolveProviderSettings(config, io.env, diags);
    if (!settings) {
      const problems = diags.all().map((d) => `${d.summary}: ${d.detail}`);
      throw new CliError(`the provider settings are incomplete (the ORGADMIN_* environment variables, or --base-url): ${problems.join(' ')}`);
    }
    const tokenSource: TokenSource = settings.clientCredentials
      ? new ClientCredentialsTokenSource({ baseUrl: settings.baseUrl, ...settings.clientCredentials, maxRetries: settings.maxRetries })
      : new StaticTokenSource(settings.accessToken!);
    const client = new OrgAdminClient({ baseUrl: settings.baseUrl, realm: settings.realm, tokenSource, maxRetries: settings.maxRetries });
    let adopted: AdoptedOrganization[];
    try {
      const organizations = await client.listAllOrganizations();
      adopted = [];
      for (const organization of organizations) {
        // The default admin user belongs to the organization, not to the configuration.
        const members = style === 'set' ? [] : await client.listAllMembers(organization.id, { excludeAdminAccounts: true });
        adopted.push({ organization, members });
      }
    } catch (error) {
      throw new CliError(`could not read realm ${settings.realm} from ${settings.baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await client.close();
    }
    const blocks = renderImportBlocks(settings.realm, adopted, style);
    if (flags.out === undefined) {
      io.stdout(blocks.text);
      return EXIT.ok;
    }
    const path = resolve(io.cwd, flags.out);
    await writeFile(path, blocks.text);
    const counts = Object.entries(blocks.counts).map(([type, n]) => `${n} ${type}`).join(', ');
    io.stdout(`Wrote import blocks for realm ${settings.realm} to ${path}: ${counts}.\nNext: terraform plan -generate-config-out=generated.tf\n`);
    return EXIT.ok;
  },
);

/** `orgadmin terraform ...`: helpers for Terraform users. */
export const runTerraformCommand = defineGroup('terraform', 'Helpers for managing a realm with Terraform.', { 'import-blocks': importBlocks });
