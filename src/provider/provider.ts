/**
 * The orgadmin provider: one SDK client with one token source per provider process, built from the
 * settings of `./settings`, and the list of resources, data sources, ephemeral resources and
 * functions it serves.
 */
import { Agent, type Dispatcher } from 'undici';
import type { OrgAdminClient, TokenSource } from '../client';
import { MemberClaims } from './member-claims';
import { PlannedMemberships, recordingPlannedMemberships } from './planned-memberships';
import { PlannedNames } from './planned-names';
import { UserDirectory } from './user-directory';
import type { AuthMethod, OrgAdminProviderContext } from './context';
import { redactSecrets } from './diagnostics';
import { organizationDataSource } from './data-sources/organization';
import { organizationMembersDataSource } from './data-sources/organization-members';
import { organizationRolesDataSource } from './data-sources/organization-roles';
import { organizationsDataSource } from './data-sources/organizations';
import { userDataSource } from './data-sources/user';
import { usersDataSource } from './data-sources/users';
import { accessTokenEphemeralResource } from './ephemeral-resources/access-token';
import { portalLinkEphemeralResource } from './ephemeral-resources/portal-link';
import { organizationDomainDataSource } from './data-sources/organization-domain';
import { REAL_CLOCK, type WaitClock } from './domain-wait';
import { domainVerificationRecordFunction } from './functions/domain-verification-record';
import { domainVerificationResource } from './resources/domain-verification';
import { identityProviderResource } from './resources/identity-provider';
import { identityProviderMapperResource } from './resources/identity-provider-mapper';
import { parseImportIdFunction } from './functions/parse-import-id';
import { realmFromUrlFunction } from './functions/realm-from-url';
import type { ProviderDefinition, Resource } from '../tfplugin/framework/types';
import { membershipResource } from './resources/membership';
import { organizationResource } from './resources/organization';
import { organizationMembersResource } from './resources/organization-members';
import { organizationMemberRolesResource } from './resources/organization-member-roles';
import { organizationRoleResource } from './resources/organization-role';
import { webhookResource } from './resources/webhook';
import { providerSchema, resolveProviderSettings, validateProviderConfig, type Environment } from './settings';

/** The provider's type name (`provider "orgadmin" {}`). */
export const PROVIDER_TYPE_NAME = 'orgadmin';

/** Where Terraform finds the provider (`required_providers { orgadmin = { source = ... } }`). */
export const PROVIDER_SOURCE_ADDRESS = 'registry.terraform.io/orgadmin/orgadmin';

export {
  PROVIDER_ENVIRONMENT_VARIABLES,
  providerSchema,
  resolveProviderSettings,
  validateProviderConfig,
  type Environment,
  type ProviderSettingName,
  type ProviderSettings,
} from './settings';

/** Options of {@link createOrgAdminProvider}. */
export interface OrgAdminProviderOptions {
  /** Where environment fallbacks are read. @default process.env (read at configure time) */
  readonly env?: Environment;
  /**
   * Sends every request (API and token). @default one keep-alive undici `Agent` per provider
   * process, closed by the provider's `close`.
   */
  readonly dispatcher?: Dispatcher;
  /** The clock of waits (domain verification). @default the real clock */
  readonly clock?: WaitClock;
}

/** The `User-Agent` of the provider's requests. */
const USER_AGENT = `terraform-provider-orgadmin (node ${process.version})`;

/**
 * Builds an orgadmin provider definition. The executable Terraform starts builds one with the
 * defaults (main.ts); tests build their own with a controlled environment.
 */
export function createOrgAdminProvider(options: OrgAdminProviderOptions = {}): ProviderDefinition<OrgAdminProviderContext> {
  // The dispatcher this definition created (closed on close), as opposed to one passed in.
  const ownAgents = new WeakMap<OrgAdminProviderContext, Agent>();
  return {
    typeName: PROVIDER_TYPE_NAME,
    schema: providerSchema,
    validate: validateProviderConfig,

    async configure(config, diags, logger) {
      const settings = resolveProviderSettings(config, options.env ?? process.env, diags);
      if (!settings) return undefined;
      // Required here, not imported: the SDK (its HTTP stack and the compiled wire schemas) is for
      // the configured process only. Terraform starts two more per command that answer schema and
      // validation calls alone, and each would otherwise load it for nothing.
      const { ClientCredentialsTokenSource, OrgAdminClient, StaticTokenSource } = require('../client') as typeof import('../client');
      // HTTPS trusts what the runtime trusts: the system's CA store in the executable (built with
      // --use-system-ca) and in the launcher (node --use-openssl-ca); see src/distribution.
      const ownAgent = options.dispatcher ? undefined : new Agent({ keepAliveTimeout: 10_000 });
      const dispatcher = options.dispatcher ?? ownAgent!;
      let tokenSource: TokenSource;
      let client: OrgAdminClient;
      let authMethod: AuthMethod;
      const secrets = [settings.clientCredentials?.clientSecret, settings.accessToken].filter((v): v is string => v !== undefined);
      try {
        if (settings.clientCredentials) {
          tokenSource = new ClientCredentialsTokenSource({
            baseUrl: settings.baseUrl,
            clientId: settings.clientCredentials.clientId,
            clientSecret: settings.clientCredentials.clientSecret,
            dispatcher,
            ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
            maxRetries: settings.maxRetries,
          });
          authMethod = 'client_credentials';
        } else {
          tokenSource = new StaticTokenSource(settings.accessToken!);
          authMethod = 'access_token';
        }
        client = new OrgAdminClient({
          baseUrl: settings.baseUrl,
          realm: settings.realm,
          tokenSource,
          dispatcher,
          userAgent: USER_AGENT,
          ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
          maxRetries: settings.maxRetries,
        });
      } catch (error) {
        // The settings were checked above, so this is a mismatch between those checks and the SDK's.
        await ownAgent?.close();
        const message = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
        diags.error('Invalid provider configuration', `The SDK client could not be created: ${message}. This is probably a bug in the provider; please report it.`);
        return undefined;
      }
      logger.debug('orgadmin provider configured', {
        base_url: settings.baseUrl,
        realm: settings.realm,
        auth: authMethod,
        client_id: settings.clientCredentials?.clientId,
      });
      const ctx: OrgAdminProviderContext = {
        client,
        tokenSource,
        dispatcher,
        realm: settings.realm,
        baseUrl: settings.baseUrl,
        authMethod,
        logger,
        secrets,
        plannedNames: new PlannedNames(),
        claims: new MemberClaims(),
        plannedMemberships: new PlannedMemberships(),
        users: new UserDirectory(client),
        refreshedMembers: new Map(),
        progress: { applied: false },
        clock: options.clock ?? REAL_CLOCK,
        ...(settings.clientCredentials ? { clientId: settings.clientCredentials.clientId } : {}),
      };
      if (ownAgent) ownAgents.set(ctx, ownAgent);
      return ctx;
    },

    resources: [
      organizationResource,
      // The membership resources note the memberships they plan, for the member roles' plan-time check.
      recordingPlannedMemberships(membershipResource),
      recordingPlannedMemberships(organizationMembersResource),
      organizationRoleResource,
      organizationMemberRolesResource,
      domainVerificationResource,
      identityProviderResource,
      identityProviderMapperResource,
      webhookResource,
    ].map(notingApplies),
    dataSources: [organizationDataSource, organizationsDataSource, organizationMembersDataSource, organizationRolesDataSource, userDataSource, usersDataSource, organizationDomainDataSource],
    ephemeralResources: [portalLinkEphemeralResource, accessTokenEphemeralResource],
    functions: [parseImportIdFunction, realmFromUrlFunction, domainVerificationRecordFunction],

    async close(ctx) {
      if (!ctx) return;
      await ctx.client.close();
      const agent = ownAgents.get(ctx);
      if (agent && !agent.closed) await agent.close();
    },
  };
}

/** The resource, marking the context's `progress.applied` at its first create, update or delete. */
function notingApplies(resource: Resource<OrgAdminProviderContext>): Resource<OrgAdminProviderContext> {
  return {
    ...resource,
    create: (ctx, req, diags) => {
      ctx.progress.applied = true;
      return resource.create(ctx, req, diags);
    },
    update: (ctx, req, diags) => {
      ctx.progress.applied = true;
      return resource.update(ctx, req, diags);
    },
    delete: (ctx, req, diags) => {
      ctx.progress.applied = true;
      return resource.delete(ctx, req, diags);
    },
  };
}

/**
 * The orgadmin provider with environment fallbacks from `process.env`, for embedding (tests,
 * harnesses); the executable Terraform starts builds its own (main.ts).
 */
export const orgadminProvider: ProviderDefinition<OrgAdminProviderContext> = createOrgAdminProvider();
