/**
 * Identity providers of organizations and their mappers, as the JSON API
 * (routes/identity-providers.ts) and the dashboard reach them. The rules are written here once:
 *
 * - A provider belongs to one organization (the vendor's default, `sharedIdps` off), or to none
 *   after an unlink; link gives an unlinked provider to an organization. A provider of another
 *   organization is not found through this one (404), and linking it is a 409.
 * - Unlike the vendor with `multipleIdps` off, creating or linking an enabled provider does not
 *   unlink the organization's other providers: no change here removes a sign-in path as a side
 *   effect.
 * - Only OpenID Connect upstreams (`oidc`, `keycloak-oidc`), found by discovery
 *   (`config.metadataDescriptorUrl`, or `config.issuer` + `/.well-known/openid-configuration`);
 *   explicit endpoint settings win over discovered ones. PKCE (S256) and signature checks are
 *   always on: asking for them off is refused.
 * - `config.clientSecret` is sealed (auth/sealed-secrets.ts) and answered as `**********`; an
 *   update that sends `**********` keeps it, one without `clientSecret` makes a public client.
 * - Mappers: the three types of MAPPER_TYPES, each checked for the settings it needs.
 *
 * Failures are the wire contract's {@link ServiceError}s.
 */
import { randomUUID } from 'node:crypto';
import {
  CLIENT_AUTH_METHODS,
  configList,
  configStrings,
  CONFIG_LIST_SEPARATOR,
  domainProblem,
  FIXED_IDP_CONFIG,
  IDP_CONFIG,
  IDP_URL_SETTINGS,
  identityProviderAliasProblem,
  INHERIT_SYNC_MODE,
  MAPPABLE_USER_FIELDS,
  MAPPER_TYPES,
  normalizeDomain,
  secureUrlProblem,
  SECRET_MASK,
  SUPPORTED_MAPPER_TYPES,
  SUPPORTED_PROVIDER_IDS,
  SYNC_MODES,
  textProblem,
  type IdentityProviderInput,
  type IdentityProviderMapperInput,
  type IdentityProviderMapperRepresentation,
  type IdentityProviderRepresentation,
  type LinkIdentityProvider,
} from '../../api';
import type { SealedSecrets } from '../auth/sealed-secrets';
import { identityProviderRepresentation, mapperRepresentation } from './identity-provider-representation';
import { notFound, ServiceError } from '../errors';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';
import type { IdentityProviderMapperRecord, IdentityProviderRecord } from '../store/sso-store';
import { StoreConflictError, type Store } from '../store/store';

const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);


/** Associated data of a provider's sealed secret: the row it belongs to. */
export const secretContext = (realm: string, alias: string): string => `identity-provider:${realm}/${alias}`;

/** Checks a config object's keys and values for text problems; answers the strings. */
function checkedConfig(config: Record<string, string | boolean | number> | undefined): Record<string, string> {
  const strings = configStrings(config);
  for (const [key, value] of Object.entries(strings)) {
    const problem = textProblem(key) ?? textProblem(value);
    if (problem) throw invalidBody(`config.${key} ${problem}.`);
  }
  return strings;
}

/** The organization's role names in an `org_role` setting (`##`-separated). */
export function mapperRoles(mapper: Pick<IdentityProviderMapperRecord, 'config'>): string[] {
  return configList(mapper.config.org_role);
}

/** Identity providers of organizations and their mappers, over a {@link Store}. */
export class IdentityProviderAdmin {
  constructor(
    private readonly store: Store,
    private readonly secrets: SealedSecrets,
    private readonly now: () => number = Date.now,
    /** Who the changes' events name. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /** 404 unless the organization exists in the realm; answers it. */
  private async organization(realm: string, orgId: string) {
    const org = await this.store.getOrganization(realm, orgId);
    if (!org) throw notFound(`Organization ${orgId} does not exist.`);
    return org;
  }

  /** The provider `alias` owned by the organization, or 404 (also for another organization's). */
  async owned(realm: string, orgId: string, alias: string): Promise<IdentityProviderRecord> {
    await this.organization(realm, orgId);
    const provider = await this.store.sso.getIdentityProvider(realm, alias);
    if (!provider || provider.organizationId !== orgId) throw notFound(`Identity provider ${alias} is not one of organization ${orgId}.`);
    return provider;
  }

  /** The representation of a stored provider; `baseUrl` is the service's address as the caller sees it. */
  representation(provider: IdentityProviderRecord, baseUrl: string): IdentityProviderRepresentation {
    return identityProviderRepresentation(provider, baseUrl);
  }

  /** The organization's providers, ordered by alias. */
  async list(realm: string, orgId: string): Promise<IdentityProviderRecord[]> {
    await this.organization(realm, orgId);
    return this.store.sso.listIdentityProviders(realm, orgId);
  }

  /**
   * The checked settings of a create or update body. `previousSecret` is the sealed secret an
   * update may keep by sending the mask.
   */
  private async settings(realm: string, alias: string, input: IdentityProviderInput, previousSecret: string | null) {
    const providerId = input.providerId ?? 'oidc';
    if (!SUPPORTED_PROVIDER_IDS.includes(providerId)) {
      throw invalidBody(`providerId "${providerId}" is not supported by this service; use ${SUPPORTED_PROVIDER_IDS.join(' or ')} (OpenID Connect).`);
    }
    const config = checkedConfig(input.config);
    const clientSecret = config[IDP_CONFIG.clientSecret];
    delete config[IDP_CONFIG.clientSecret];
    delete config[IDP_CONFIG.organization];
    if (!config[IDP_CONFIG.clientId]) throw invalidBody('config.clientId is required: the client id of this service at the upstream identity provider.');
    if (!config[IDP_CONFIG.discoveryUrl] && !config[IDP_CONFIG.issuer]) {
      throw invalidBody(`config.${IDP_CONFIG.discoveryUrl} (the upstream's discovery document) or config.${IDP_CONFIG.issuer} is required.`);
    }
    for (const key of IDP_URL_SETTINGS) {
      const url = config[key];
      const problem = url === undefined || url === '' ? undefined : secureUrlProblem(url);
      if (problem) throw invalidBody(`config.${key} "${url}" ${problem}.`);
    }
    for (const [key, allowed] of [
      [IDP_CONFIG.clientAuthMethod, CLIENT_AUTH_METHODS],
      [IDP_CONFIG.syncMode, SYNC_MODES],
    ] as const) {
      const value = config[key];
      if (value !== undefined && !allowed.includes(value)) throw invalidBody(`config.${key} "${value}" must be one of ${allowed.join(', ')}.`);
    }
    for (const [key, required] of Object.entries(FIXED_IDP_CONFIG)) {
      const value = config[key];
      if (value !== undefined && value !== required) throw invalidBody(`config.${key} must be "${required}": this service always uses PKCE (S256) and checks the upstream's signatures.`);
      delete config[key];
    }
    if (config[IDP_CONFIG.domains] !== undefined) {
      const domains = configList(config[IDP_CONFIG.domains]).map((domain) => {
        const problem = domainProblem(domain);
        if (problem) throw invalidBody(`config.${IDP_CONFIG.domains}: "${domain}" ${problem}.`);
        return normalizeDomain(domain);
      });
      config[IDP_CONFIG.domains] = [...new Set(domains)].join(CONFIG_LIST_SEPARATOR);
    }
    let sealedClientSecret: string | null;
    if (clientSecret === undefined || clientSecret === '') sealedClientSecret = null;
    else if (clientSecret === SECRET_MASK) {
      if (previousSecret === null) throw invalidBody(`config.clientSecret is the mask ${SECRET_MASK} but there is no stored secret to keep; send the secret itself.`);
      sealedClientSecret = previousSecret;
    } else sealedClientSecret = await this.secrets.seal(clientSecret, secretContext(realm, alias));
    const displayName = input.displayName ?? null;
    if (displayName !== null) {
      const problem = textProblem(displayName);
      if (problem) throw invalidBody(`displayName ${problem}.`);
    }
    return { providerId, displayName, enabled: input.enabled ?? true, trustEmail: input.trustEmail ?? false, config, sealedClientSecret };
  }

  /** Creates a provider owned by the organization; answers its alias. 409 when the realm has the alias. */
  async create(realm: string, orgId: string, input: IdentityProviderInput): Promise<string> {
    await this.organization(realm, orgId);
    const alias = input.alias;
    if (alias === undefined) throw invalidBody('alias is required.');
    const aliasProblem = identityProviderAliasProblem(alias);
    if (aliasProblem) throw invalidBody(`alias "${alias}" ${aliasProblem}.`);
    const settings = await this.settings(realm, alias, input, null);
    try {
      await this.store.sso.createIdentityProvider({ realm, alias, internalId: randomUUID(), organizationId: orgId, createdTimestamp: this.now(), ...settings }, this.origin);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new ServiceError(409, 'conflict', `An identity provider with alias "${alias}" already exists in this realm.`);
      throw error;
    }
    return alias;
  }

  /** Replaces a provider's settings (the alias is the path's). */
  async update(realm: string, orgId: string, alias: string, input: IdentityProviderInput): Promise<void> {
    const current = await this.owned(realm, orgId, alias);
    const settings = await this.settings(realm, alias, input, current.sealedClientSecret);
    if (!(await this.store.sso.updateIdentityProvider(realm, alias, orgId, settings, this.origin))) throw notFound(`Identity provider ${alias} is not one of organization ${orgId}.`);
  }

  /** Deletes a provider with its mappers and links (users it created stay). */
  async delete(realm: string, orgId: string, alias: string): Promise<void> {
    await this.organization(realm, orgId);
    if (!(await this.store.sso.deleteIdentityProvider(realm, alias, orgId, this.origin))) throw notFound(`Identity provider ${alias} is not one of organization ${orgId}.`);
  }

  /**
   * Links an existing provider of the realm to the organization (the vendor's `link`): 404 when
   * there is none, 400 when it is disabled (as the vendor refuses), 409 when another organization
   * owns it; idempotent for the organization's own. `sync_mode` and `domains` are written to its
   * config as the vendor does.
   */
  async link(realm: string, orgId: string, input: LinkIdentityProvider): Promise<string> {
    await this.organization(realm, orgId);
    const provider = await this.store.sso.getIdentityProvider(realm, input.alias);
    if (!provider) throw notFound(`No identity provider with alias ${input.alias} exists in this realm.`);
    if (!provider.enabled) throw invalidBody(`Cannot link disabled identity provider ${input.alias}.`);
    const config = { ...provider.config };
    const before = JSON.stringify(config);
    if (input.sync_mode !== undefined && input.sync_mode !== '') {
      if (!SYNC_MODES.includes(input.sync_mode)) throw invalidBody(`sync_mode "${input.sync_mode}" must be one of ${SYNC_MODES.join(', ')}.`);
      config[IDP_CONFIG.syncMode] = input.sync_mode;
    }
    if (input.domains !== undefined && input.domains.length > 0) {
      config[IDP_CONFIG.domains] = input.domains
        .map((domain) => {
          const problem = domainProblem(domain);
          if (problem) throw invalidBody(`domains: "${domain}" ${problem}.`);
          return normalizeDomain(domain);
        })
        .join(CONFIG_LIST_SEPARATOR);
    }
    const owner = await this.store.sso.setIdentityProviderOwner(realm, input.alias, orgId, null, this.origin);
    if (!owner) throw notFound(`No identity provider with alias ${input.alias} exists in this realm.`);
    if (owner.previousOwner !== null && owner.previousOwner !== orgId) {
      throw new ServiceError(409, 'conflict', `Identity provider ${input.alias} belongs to another organization (${owner.previousOwner}); unlink it there first.`);
    }
    if (JSON.stringify(config) !== before) {
      const { providerId, displayName, enabled, trustEmail, sealedClientSecret } = provider;
      await this.store.sso.updateIdentityProvider(realm, input.alias, orgId, { providerId, displayName, enabled, trustEmail, sealedClientSecret, config }, this.origin);
    }
    return input.alias;
  }

  /** Unlinks a provider from the organization; it stays in the realm, signs nobody in, and can be linked again. */
  async unlink(realm: string, orgId: string, alias: string): Promise<void> {
    await this.owned(realm, orgId, alias);
    const owner = await this.store.sso.setIdentityProviderOwner(realm, alias, null, orgId, this.origin);
    if (!owner || owner.previousOwner !== orgId) throw notFound(`Identity provider ${alias} is not one of organization ${orgId}.`);
  }

  // Mappers ---------------------------------------------------------------------------------------

  /** A mapper's representation. */
  mapperRepresentation(mapper: IdentityProviderMapperRecord): IdentityProviderMapperRepresentation {
    return mapperRepresentation(mapper);
  }

  /** The checked type and config of a mapper body. */
  private async mapperSettings(realm: string, orgId: string, input: IdentityProviderMapperInput) {
    const mapperType = input.identityProviderMapper;
    if (!SUPPORTED_MAPPER_TYPES.includes(mapperType)) {
      throw invalidBody(`identityProviderMapper "${mapperType}" is not supported by this service; use one of ${SUPPORTED_MAPPER_TYPES.join(', ')}.`);
    }
    const nameProblem = textProblem(input.name);
    if (nameProblem) throw invalidBody(`name ${nameProblem}.`);
    const config = checkedConfig(input.config);
    const syncMode = config.syncMode;
    if (syncMode !== undefined && syncMode !== INHERIT_SYNC_MODE && !SYNC_MODES.includes(syncMode)) {
      throw invalidBody(`config.syncMode "${syncMode}" must be one of ${[INHERIT_SYNC_MODE, ...SYNC_MODES].join(', ')}.`);
    }
    const required = (key: string, what: string): string => {
      const value = config[key];
      if (value === undefined || value.trim() === '') throw invalidBody(`config.${key} is required for ${mapperType}: ${what}.`);
      return value;
    };
    switch (mapperType) {
      case MAPPER_TYPES.attribute: {
        required('claim', 'the ID token claim to copy');
        const field = required('user.attribute', `the user field to fill (${MAPPABLE_USER_FIELDS.join(', ')})`);
        if (!MAPPABLE_USER_FIELDS.includes(field)) throw invalidBody(`config.user.attribute "${field}" must be one of ${MAPPABLE_USER_FIELDS.join(', ')}.`);
        break;
      }
      case MAPPER_TYPES.username:
        required('template', 'the username to give new users, e.g. ${CLAIM.email}');
        break;
      case MAPPER_TYPES.orgRoles: {
        required('org_role', 'the organization roles to grant, separated by ##');
        const org = await this.organization(realm, orgId);
        if (config.org !== undefined && config.org !== '' && config.org !== org.name && config.org !== org.id) {
          throw invalidBody(`config.org "${config.org}" must name this organization (${org.name}): a provider grants roles in its own organization only.`);
        }
        break;
      }
    }
    return { mapperType, config };
  }

  /** The provider's mappers, in creation order. */
  async mappers(realm: string, orgId: string, alias: string): Promise<IdentityProviderMapperRecord[]> {
    await this.owned(realm, orgId, alias);
    return this.store.sso.listMappers(realm, alias);
  }

  /** One mapper, or 404. */
  async mapper(realm: string, orgId: string, alias: string, id: string): Promise<IdentityProviderMapperRecord> {
    await this.owned(realm, orgId, alias);
    const mapper = await this.store.sso.getMapper(realm, alias, id);
    if (!mapper) throw notFound(`Identity provider ${alias} has no mapper ${id}.`);
    return mapper;
  }

  /** Adds a mapper; answers its id. 409 when the provider has a mapper of that name. */
  async createMapper(realm: string, orgId: string, alias: string, input: IdentityProviderMapperInput): Promise<string> {
    await this.owned(realm, orgId, alias);
    const settings = await this.mapperSettings(realm, orgId, input);
    const id = randomUUID();
    try {
      await this.store.sso.createMapper({ id, realm, alias, name: input.name, createdTimestamp: this.now(), ...settings }, this.origin);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new ServiceError(409, 'conflict', `Identity provider ${alias} already has a mapper named "${input.name}".`);
      throw error;
    }
    return id;
  }

  /** Replaces a mapper's name, type and config. */
  async updateMapper(realm: string, orgId: string, alias: string, id: string, input: IdentityProviderMapperInput): Promise<void> {
    await this.mapper(realm, orgId, alias, id);
    const settings = await this.mapperSettings(realm, orgId, input);
    try {
      if (!(await this.store.sso.updateMapper(realm, alias, id, { name: input.name, ...settings }, this.origin))) throw notFound(`Identity provider ${alias} has no mapper ${id}.`);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new ServiceError(409, 'conflict', `Identity provider ${alias} already has a mapper named "${input.name}".`);
      throw error;
    }
  }

  /** Deletes a mapper. */
  async deleteMapper(realm: string, orgId: string, alias: string, id: string): Promise<void> {
    await this.owned(realm, orgId, alias);
    if (!(await this.store.sso.deleteMapper(realm, alias, id, this.origin))) throw notFound(`Identity provider ${alias} has no mapper ${id}.`);
  }
}
