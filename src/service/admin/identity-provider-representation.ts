/**
 * Identity providers and their mappers as the API answers them, from their stored records: one
 * place for the routes, the dashboard and the admin events (events/changes.ts). The client secret
 * is never in it: a stored secret shows as the mask `**********`.
 */
import {
  brokerEndpointPath,
  DEFAULT_SYNC_MODE,
  FIXED_IDP_CONFIG,
  IDP_CONFIG,
  SECRET_MASK,
  type IdentityProviderMapperRepresentation,
  type IdentityProviderRepresentation,
} from '../../api';
import type { IdentityProviderMapperRecord, IdentityProviderRecord } from '../store/sso-store';

/** The flow aliases the representation names (Keycloak's and the vendor's defaults; this service runs its own broker). */
const FIRST_BROKER_LOGIN_FLOW = 'first broker login';
const POST_BROKER_LOGIN_FLOW = 'post org broker login';

/** A provider's representation without `redirectUri`, which depends on the address the caller reached the service at. */
export function identityProviderWithoutRedirect(provider: IdentityProviderRecord): Omit<IdentityProviderRepresentation, 'redirectUri'> {
  const config: Record<string, string> = {
    [IDP_CONFIG.syncMode]: DEFAULT_SYNC_MODE,
    ...provider.config,
    ...FIXED_IDP_CONFIG,
    ...(provider.organizationId !== null ? { [IDP_CONFIG.organization]: provider.organizationId } : {}),
    ...(provider.sealedClientSecret !== null ? { [IDP_CONFIG.clientSecret]: SECRET_MASK } : {}),
  };
  return {
    alias: provider.alias,
    ...(provider.displayName !== null ? { displayName: provider.displayName } : {}),
    internalId: provider.internalId,
    providerId: provider.providerId,
    enabled: provider.enabled,
    trustEmail: provider.trustEmail,
    storeToken: false,
    addReadTokenRoleOnCreate: false,
    linkOnly: false,
    hideOnLogin: true,
    firstBrokerLoginFlowAlias: FIRST_BROKER_LOGIN_FLOW,
    postBrokerLoginFlowAlias: POST_BROKER_LOGIN_FLOW,
    config,
  };
}

/** A provider's representation; `baseUrl` is the service's address as the caller sees it. */
export function identityProviderRepresentation(provider: IdentityProviderRecord, baseUrl: string): IdentityProviderRepresentation {
  return { ...identityProviderWithoutRedirect(provider), redirectUri: `${baseUrl}${brokerEndpointPath(provider.realm, provider.alias)}` };
}

/** A mapper's representation. */
export function mapperRepresentation(mapper: IdentityProviderMapperRecord): IdentityProviderMapperRepresentation {
  return { id: mapper.id, name: mapper.name, identityProviderAlias: mapper.alias, identityProviderMapper: mapper.mapperType, config: mapper.config };
}
