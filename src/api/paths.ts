/**
 * Path builders for every operation of the wire contract (docs/guides/service.md). Each segment is percent-encoded, so ids
 * that contain `/` or spaces stay one path parameter.
 */
import { ORG_ADMIN_USERNAME_PREFIX, SERVICE_ACCOUNT_USERNAME_PREFIX } from './validation';

const seg = encodeURIComponent;

/** `/realms/{realm}` */
export const realmPath = (realm: string): string => `/realms/${seg(realm)}`;
/** Token endpoint. */
export const tokenPath = (realm: string): string => `${realmPath(realm)}/protocol/openid-connect/token`;
/** JWKS endpoint. */
export const certsPath = (realm: string): string => `${realmPath(realm)}/protocol/openid-connect/certs`;
/** OpenID discovery document. */
export const discoveryPath = (realm: string): string => `${realmPath(realm)}/.well-known/openid-configuration`;
/** Organization collection. */
export const orgsPath = (realm: string): string => `${realmPath(realm)}/orgs`;
/** Organization count. */
export const orgsCountPath = (realm: string): string => `${orgsPath(realm)}/count`;
/** Get member info (the caller's own organizations). */
export const orgsMePath = (realm: string): string => `${orgsPath(realm)}/me`;
/** One organization. */
export const orgPath = (realm: string, orgId: string): string => `${orgsPath(realm)}/${seg(orgId)}`;
/** Admin portal link of one organization. */
export const portalLinkPath = (realm: string, orgId: string): string => `${orgPath(realm, orgId)}/portal-link`;
/** Members of one organization. */
export const membersPath = (realm: string, orgId: string): string => `${orgPath(realm, orgId)}/members`;
/** Member count of one organization. */
export const membersCountPath = (realm: string, orgId: string): string => `${membersPath(realm, orgId)}/count`;
/** One membership. */
export const memberPath = (realm: string, orgId: string, userId: string): string =>
  `${membersPath(realm, orgId)}/${seg(userId)}`;
/** Domains of one organization. */
export const domainsPath = (realm: string, orgId: string): string => `${orgPath(realm, orgId)}/domains`;
/** One domain of an organization. */
export const domainPath = (realm: string, orgId: string, domain: string): string => `${domainsPath(realm, orgId)}/${seg(domain)}`;
/** Verification of one domain. */
export const domainVerifyPath = (realm: string, orgId: string, domain: string): string => `${domainPath(realm, orgId, domain)}/verify`;
/** Identity providers of one organization. */
export const idpsPath = (realm: string, orgId: string): string => `${orgPath(realm, orgId)}/idps`;
/** Linking an existing identity provider to an organization. */
export const idpLinkPath = (realm: string, orgId: string): string => `${idpsPath(realm, orgId)}/link`;
/** One identity provider of an organization. */
export const idpPath = (realm: string, orgId: string, alias: string): string => `${idpsPath(realm, orgId)}/${seg(alias)}`;
/** Unlinking an identity provider from an organization. */
export const idpUnlinkPath = (realm: string, orgId: string, alias: string): string => `${idpPath(realm, orgId, alias)}/unlink`;
/** Mappers of one identity provider. */
export const idpMappersPath = (realm: string, orgId: string, alias: string): string => `${idpPath(realm, orgId, alias)}/mappers`;
/** One mapper of an identity provider. */
export const idpMapperPath = (realm: string, orgId: string, alias: string, id: string): string => `${idpMappersPath(realm, orgId, alias)}/${seg(id)}`;
/**
 * The broker's callback of an identity provider (Keycloak's place for it): register
 * `{base}{brokerEndpointPath}` as a redirect URI of the service's client at the upstream.
 */
export const brokerEndpointPath = (realm: string, alias: string): string => `${realmPath(realm)}/broker/${seg(alias)}/endpoint`;
/** Roles of one organization (list, create one, create many with PUT, delete many with PATCH). */
export const rolesPath = (realm: string, orgId: string): string => `${orgPath(realm, orgId)}/roles`;
/** One role of an organization, by name. */
export const rolePath = (realm: string, orgId: string, name: string): string => `${rolesPath(realm, orgId)}/${seg(name)}`;
/** The users holding one role. */
export const roleUsersPath = (realm: string, orgId: string, name: string): string => `${rolePath(realm, orgId, name)}/users`;
/** One user's grant of one role (check, grant, revoke). */
export const roleUserPath = (realm: string, orgId: string, name: string, userId: string): string =>
  `${roleUsersPath(realm, orgId, name)}/${seg(userId)}`;
/** The organizations one user belongs to. */
export const userOrganizationsPath = (realm: string, userId: string): string => `${realmPath(realm)}/users/${seg(userId)}/orgs`;
/** One member's roles in one organization (list, grant many with PUT, revoke many with PATCH). */
export const memberRolesPath = (realm: string, userId: string, orgId: string): string =>
  `${userOrganizationsPath(realm, userId)}/${seg(orgId)}/roles`;
/** `/realms/{realm}/webhooks` (the vendor's path) */
export const webhooksPath = (realm: string): string => `${realmPath(realm)}/webhooks`;
/** `/realms/{realm}/webhooks/count` */
export const webhooksCountPath = (realm: string): string => `${webhooksPath(realm)}/count`;
/** `/realms/{realm}/webhooks/{id}` */
export const webhookPath = (realm: string, id: string): string => `${webhooksPath(realm)}/${seg(id)}`;
/** `/realms/{realm}/webhooks/{id}/secret` */
export const webhookSecretPath = (realm: string, id: string): string => `${webhookPath(realm, id)}/secret`;
/** `/realms/{realm}/webhooks/{id}/sends`: the webhook's delivery log */
export const webhookSendsPath = (realm: string, id: string): string => `${webhookPath(realm, id)}/sends`;
/** `/realms/{realm}/webhooks/{id}/sends/{sendId}` */
export const webhookSendPath = (realm: string, id: string, sendId: string): string => `${webhookSendsPath(realm, id)}/${seg(sendId)}`;
/** `/realms/{realm}/webhooks/{id}/sends/{sendId}/resend` */
export const webhookResendPath = (realm: string, id: string, sendId: string): string => `${webhookSendPath(realm, id, sendId)}/resend`;
/** `/admin/realms/{realm}/events`: the audit log */
export const eventsPath = (realm: string): string => `/admin/realms/${seg(realm)}/events`;
/** User lookup. */
export const usersPath = (realm: string): string => `/admin/realms/${seg(realm)}/users`;
/** One user, by id. */
export const userPath = (realm: string, userId: string): string => `${usersPath(realm)}/${seg(userId)}`;

/** The issuer (`iss`) of a realm's tokens for a given base address (no trailing slash). */
export const issuer = (baseUrl: string, realm: string): string => `${baseUrl.replace(/\/+$/, '')}${realmPath(realm)}`;

/** The default admin user's username of an organization. */
export const orgAdminUsername = (orgId: string): string => `${ORG_ADMIN_USERNAME_PREFIX}${orgId}`;
/** The username of an API key's service-account user. */
export const serviceAccountUsername = (clientId: string): string => `${SERVICE_ACCOUNT_USERNAME_PREFIX}${clientId}`;

/**
 * The realm implied by a base address: the first DNS label of its host (`https://acme.example.com`
 * → `acme`). Returns undefined for IP addresses and single-label hosts such as `localhost`.
 */
export function realmFromBaseUrl(baseUrl: string): string | undefined {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined;
  }
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) return undefined;
  const labels = host.split('.');
  if (labels.length < 2) return undefined;
  return labels[0] || undefined;
}
