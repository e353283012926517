/**
 * `orgadmin_organization_identity_provider`: an OpenID Connect identity provider owned by one
 * organization (the vendor's `…/orgs/{orgId}/idps`), through which people of the organization's
 * verified domains sign in.
 *
 * The client secret is write-only (`client_secret_wo`, Terraform 1.11+): it is sent on create and
 * whenever `client_secret_wo_version` changes, and never read back, planned or stored; the service
 * answers it masked. An update that leaves the version alone sends the mask, which keeps the
 * stored secret.
 */
import { identityProviderAliasProblem, IDP_CONFIG, SECRET_MASK } from '../../api/identity-provider-settings';
import type { IdentityProviderInput, IdentityProviderRepresentation } from '../../api';
import { ConflictError } from '../../client/errors';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { importCommands } from '../import-advice';
import { parseImportId, type ImportIdForm } from '../import-id';
import { outcomeUnknown } from '../outcome';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import type { Diagnostics, ObjectValue, Resource, Value } from '../../tfplugin/framework/types';
import { knownString, quote } from '../values';

/** The resource's type name. */
export const IDENTITY_PROVIDER_RESOURCE_TYPE = 'orgadmin_organization_identity_provider';

/** How an identity provider is imported: `ORG/ALIAS` or `REALM/ORG/ALIAS`. */
export const IDENTITY_PROVIDER_IMPORT_ID: ImportIdForm = { typeName: IDENTITY_PROVIDER_RESOURCE_TYPE, segments: ['ORG', 'ALIAS'], example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f/globex-okta' };

interface ProviderKey {
  organizationId: string;
  alias: string;
  realm: string;
}

function keyOf(ctx: OrgAdminProviderContext, state: ObjectValue): ProviderKey {
  return { organizationId: knownString(state['organization_id']) ?? '', alias: knownString(state['alias']) ?? '', realm: knownString(state['realm']) ?? ctx.realm };
}

const describe = (key: ProviderKey): string => `identity provider ${quote(key.alias)} of organization ${quote(key.organizationId)} (realm ${quote(key.realm)})`;

/** The request body for the planned state; `clientSecret` as given (a new secret, the mask, or none). */
function inputOf(plan: ObjectValue, clientSecret: string | undefined): IdentityProviderInput {
  const config: Record<string, string> = { [IDP_CONFIG.clientId]: knownString(plan['client_id']) ?? '' };
  const discovery = knownString(plan['discovery_url']);
  const issuer = knownString(plan['issuer']);
  if (discovery !== undefined) config[IDP_CONFIG.discoveryUrl] = discovery;
  if (issuer !== undefined) config[IDP_CONFIG.issuer] = issuer;
  if (clientSecret !== undefined) config[IDP_CONFIG.clientSecret] = clientSecret;
  return {
    alias: knownString(plan['alias']),
    displayName: knownString(plan['display_name']) ?? null,
    enabled: plan['enabled'] !== false,
    config,
  };
}

/** The state for what the service answered; the secret's version as configured (the service never tells). */
function stateOf(key: ProviderKey, found: IdentityProviderRepresentation, secretVersion: Value): ObjectValue {
  return {
    id: `${key.organizationId}/${key.alias}`,
    organization_id: key.organizationId,
    alias: found.alias,
    realm: key.realm,
    display_name: found.displayName ?? null,
    discovery_url: found.config[IDP_CONFIG.discoveryUrl] ?? null,
    issuer: found.config[IDP_CONFIG.issuer] ?? null,
    client_id: found.config[IDP_CONFIG.clientId] ?? '',
    client_secret_wo: null,
    client_secret_wo_version: secretVersion,
    enabled: found.enabled,
    redirect_uri: found.redirectUri,
  };
}

/**
 * True when `found` has every setting `input` sent but the secret (which the service answers
 * masked): after a create whose answer was lost, that is the create's own provider, not one
 * somebody else made under the alias with other settings.
 */
function hasSettings(found: IdentityProviderRepresentation, input: IdentityProviderInput): boolean {
  const settings = [IDP_CONFIG.clientId, IDP_CONFIG.discoveryUrl, IDP_CONFIG.issuer];
  return (
    found.alias === input.alias &&
    (found.displayName ?? null) === (input.displayName ?? null) &&
    found.enabled === input.enabled &&
    settings.every((name) => (found.config[name] ?? null) === (input.config?.[name] ?? null))
  );
}

/**
 * The error of a create whose alias the realm already has: an alias is unique in the realm, so it
 * is either this organization's provider, made outside this configuration (import it), or another
 * organization's (choose another alias).
 */
async function reportAliasTaken(ctx: OrgAdminProviderContext, key: ProviderKey, diags: Diagnostics, signal: AbortSignal | undefined): Promise<void> {
  // Whose it is decides the advice; when even that read fails, both pieces of advice are given.
  const ours = await ctx.client.getIdentityProvider(key.organizationId, key.alias, callOptions(key.realm, signal)).then(
    () => true,
    (error: unknown) => (isObjectNotFound(error) ? false : undefined),
  );
  const id = `${key.organizationId}/${key.alias}`;
  const importIt =
    'orgadmin never takes over a provider it did not create (destroying it would take a sign-in path away).\n\n' +
    `To manage it with this resource, import it:\n\n${importCommands(IDENTITY_PROVIDER_RESOURCE_TYPE, id)}\n\nOtherwise choose another \`alias\`.`;
  const detail =
    ours === true
      ? `Organization ${quote(key.organizationId)} in realm ${quote(key.realm)} already has an identity provider with alias ${quote(key.alias)}, and this configuration does not manage it. ${importIt}`
      : ours === false
        ? `Realm ${quote(key.realm)} already has an identity provider with alias ${quote(key.alias)}, owned by another organization or by none. Aliases are unique in a realm: choose another \`alias\`.`
        : `Realm ${quote(key.realm)} already has an identity provider with alias ${quote(key.alias)} (aliases are unique in a realm). If it is organization ${quote(key.organizationId)}'s: ${importIt}`;
  diags.error(
    'Identity provider alias already taken',
    detail,
    ['alias'],
  );
}

/** The `orgadmin_organization_identity_provider` resource. */
export const identityProviderResource: Resource<OrgAdminProviderContext> = {
  typeName: IDENTITY_PROVIDER_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'An OpenID Connect identity provider of one organization: people with an address of the organization\'s verified domains ' +
      'sign in through it (authorization code flow with PKCE, state and nonce; the ID token\'s signature, issuer, audience, ' +
      'expiry and nonce checked). Register `redirect_uri` as a redirect URI of `client_id` at the upstream.\n\n' +
      'The client secret is write-only: set `client_secret_wo` with `client_secret_wo_version`, and change the version to send a ' +
      'new secret. It is never in plan or state, and the service never answers it.\n\n' +
      'Import by `ORG/ALIAS` or `REALM/ORG/ALIAS`; an imported provider keeps its secret until `client_secret_wo_version` is set.',
    attributes: {
      id: { type: 'string', computed: true, useStateForUnknown: true, description: 'The provider\'s id: `ORGANIZATION_ID/ALIAS`.' },
      organization_id: { type: 'string', required: true, requiresReplace: true, description: 'The organization that owns the provider.' },
      alias: {
        type: 'string',
        required: true,
        requiresReplace: true,
        description: 'The provider\'s alias, unique in the realm: letters, digits, `.`, `_` or `-`. It is part of `redirect_uri`.',
      },
      realm: resourceRealmAttribute,
      display_name: { type: 'string', optional: true, description: 'The name the login page shows ("Sign in with …").' },
      discovery_url: {
        type: 'string',
        optional: true,
        description: 'The upstream\'s OpenID Connect discovery document (`…/.well-known/openid-configuration`). Set it or `issuer`.',
      },
      issuer: { type: 'string', optional: true, description: 'The upstream\'s issuer; its discovery document is found under it. Set it or `discovery_url`.' },
      client_id: { type: 'string', required: true, description: 'The client id of this service at the upstream.' },
      client_secret_wo: {
        type: 'string',
        optional: true,
        sensitive: true,
        writeOnly: true,
        description: 'The client secret at the upstream, for a confidential client (write-only). Leave it out for a public client (PKCE alone).',
      },
      client_secret_wo_version: {
        type: 'number',
        optional: true,
        description: 'The version of `client_secret_wo`: set it with the secret, and change it to send a new secret.',
      },
      enabled: {
        type: 'bool',
        optional: true,
        computed: true,
        description: 'Whether sign-in through the provider is on (default true). A disabled provider sends no one upstream: its people get the password form.',
      },
      redirect_uri: {
        type: 'string',
        computed: true,
        useStateForUnknown: true,
        description: 'The broker\'s callback for this provider: register it at the upstream as a redirect URI of `client_id`.',
      },
    },
  },

  validate(config, diags) {
    const alias = knownString(config['alias']);
    const problem = alias === undefined ? undefined : identityProviderAliasProblem(alias);
    if (problem) diags.error('Invalid alias', `\`alias\` ${quote(alias!)} ${problem}.`, ['alias']);
    const orgId = knownString(config['organization_id']);
    if (orgId !== undefined && (orgId.trim() === '' || orgId.includes('/'))) diags.error('Invalid organization_id', '`organization_id` must be an organization\'s id: not empty, without "/".', ['organization_id']);
    const hasDiscovery = config['discovery_url'] !== null;
    const hasIssuer = config['issuer'] !== null;
    if (hasDiscovery && hasIssuer) diags.error('Conflicting upstream settings', 'Set `discovery_url` or `issuer`, not both.', ['issuer']);
    if (!hasDiscovery && !hasIssuer) diags.error('Missing upstream', 'Set `discovery_url` (the upstream\'s discovery document) or `issuer`.', ['issuer']);
    if (config['client_secret_wo_version'] !== null && config['client_secret_wo'] === null) {
      diags.error('Missing client_secret_wo', '`client_secret_wo_version` versions `client_secret_wo`: set the secret too.', ['client_secret_wo_version']);
    }
    validateRealm(config['realm'], diags);
  },

  modifyPlan(ctx, req, plan) {
    planRealm(ctx, req.config, req.priorState, plan);
    if (req.config['enabled'] === null) plan.plannedState['enabled'] = true;
    const org = knownString(req.config['organization_id']);
    const alias = knownString(req.config['alias']);
    if (org !== undefined && alias !== undefined) plan.plannedState['id'] = `${org}/${alias}`;
    // redirect_uri is left to the service's answer: it names the service by its public address, which
    // may differ from the provider's base_url (a proxy), and a planned value that differs would fail the apply.
    return Promise.resolve();
  },

  async create(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
    const secret = knownString(req.config['client_secret_wo']);
    const options = callOptions(key.realm, signalOf(req));
    const input = inputOf(req.plannedState, secret);
    const env = reportingFor(ctx, key.realm);
    try {
      try {
        await ctx.client.createIdentityProvider(key.organizationId, input, options);
      } catch (error) {
        if (error instanceof ConflictError) {
          await reportAliasTaken(ctx, key, diags, signalOf(req));
          return null;
        }
        // The answer was lost: the service knows whether the provider is there now (this create made it).
        if (!outcomeUnknown(error)) throw error;
        const found = await ctx.client.getIdentityProvider(key.organizationId, key.alias, options).catch(() => undefined);
        if (!found || !hasSettings(found, input)) throw error;
        ctx.logger.info('an identity provider create got no answer; the provider is there with these settings, so it was created', { realm: key.realm, organizationId: key.organizationId });
        return stateOf(key, found, req.plannedState['client_secret_wo_version'] ?? null);
      }
      const found = await ctx.client.getIdentityProvider(key.organizationId, key.alias, options);
      return stateOf(key, found, req.plannedState['client_secret_wo_version'] ?? null);
    } catch (error) {
      reportError(diags, error, { action: 'create identity provider', target: describe(key), permission: 'manage-organizations' }, env);
      return null;
    }
  },

  async read(ctx, req, diags) {
    const key = keyOf(ctx, req.state);
    try {
      const found = await ctx.client.getIdentityProvider(key.organizationId, key.alias, callOptions(key.realm, signalOf(req)));
      return stateOf(key, found, req.state['client_secret_wo_version'] ?? null);
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.warning('Identity provider removed outside Terraform', `${describe(key)} no longer exists (or was unlinked from the organization). It is removed from the state; the next apply creates it again.`);
        return null;
      }
      reportError(diags, error, { action: 'read identity provider', target: describe(key), permission: 'view-organizations' }, reportingFor(ctx, key.realm));
      return req.state;
    }
  },

  async update(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
    const newVersion = req.plannedState['client_secret_wo_version'] ?? null;
    const options = callOptions(key.realm, signalOf(req));
    try {
      let secret: string | undefined;
      if (newVersion !== (req.priorState['client_secret_wo_version'] ?? null)) {
        // A new version sends the secret (none: a public client from now on).
        secret = knownString(req.config['client_secret_wo']);
      } else {
        // The same version: the mask keeps a stored secret; a public client stays one.
        const current = await ctx.client.getIdentityProvider(key.organizationId, key.alias, options);
        if (current.config[IDP_CONFIG.clientSecret] === SECRET_MASK) secret = SECRET_MASK;
      }
      const input = inputOf(req.plannedState, secret);
      await ctx.client.updateIdentityProvider(key.organizationId, key.alias, input, options);
      const found = await ctx.client.getIdentityProvider(key.organizationId, key.alias, options);
      return stateOf(key, found, newVersion);
    } catch (error) {
      reportError(diags, error, { action: 'update identity provider', target: describe(key), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
      return null;
    }
  },

  async delete(ctx, req, diags) {
    const key = keyOf(ctx, req.priorState);
    try {
      await ctx.client.deleteIdentityProvider(key.organizationId, key.alias, callOptions(key.realm, signalOf(req)));
    } catch (error) {
      if (isObjectNotFound(error)) return;
      reportError(diags, error, { action: 'delete identity provider', target: describe(key), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
    }
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, IDENTITY_PROVIDER_IMPORT_ID, diags);
    if (!parsed) return null;
    const key: ProviderKey = { organizationId: parsed.ids[0]!, alias: parsed.ids[1]!, realm: parsed.realm ?? ctx.realm };
    try {
      const found = await ctx.client.getIdentityProvider(key.organizationId, key.alias, callOptions(key.realm, signalOf(req)));
      return stateOf(key, found, null);
    } catch (error) {
      if (isObjectNotFound(error)) diags.error('Cannot import: identity provider not found', `There is no ${describe(key)}.`);
      else reportError(diags, error, { action: 'read identity provider', target: describe(key), permission: 'view-organizations' }, reportingFor(ctx, key.realm));
      return null;
    }
  },
};
