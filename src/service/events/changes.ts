/**
 * What each kind of change records: its resource type, operation, resource path (Keycloak's
 * realm-relative path of the changed thing) and representation after the change. The stores call
 * these inside the change's transaction, so every store records the same event for the same change.
 * Representations never carry secrets: no password or secret hashes, no signing keys, no webhook
 * secrets, no identity providers' client secrets (masked as the API answers them).
 */
import { memberToWire, organizationDomain, organizationToWire, roleToWire, type Organization } from '../../api';
import { identityProviderWithoutRedirect, mapperRepresentation } from '../admin/identity-provider-representation';
import type { IdentityProviderMapperRecord, IdentityProviderRecord } from '../store/sso-store';
import type { ApiKeyRecord, OidcClientRecord, RealmRecord, RoleRecord, UserRecord } from '../store/store';
import { toMember } from '../store/store';
import type { ChangeDescription } from './event';
import { webhookToWire, type WebhookRecord } from './webhook-record';

const seg = encodeURIComponent;

/** `orgs/{id}` */
export const organizationResourcePath = (orgId: string): string => `orgs/${seg(orgId)}`;

/** `orgs/{id}/roles/{name}`: the vendor's path of an organization role. */
const roleResourcePath = (orgId: string, name: string): string => `${organizationResourcePath(orgId)}/roles/${seg(name)}`;

/** A role created, its description changed, or deleted: the role as the API answers it (the name for deletes). */
export function roleChange(operation: 'CREATE' | 'UPDATE' | 'DELETE', role: RoleRecord): ChangeDescription {
  return {
    resourceType: 'ORGANIZATION_ROLE',
    operation,
    resourcePath: roleResourcePath(role.organizationId, role.name),
    representation: operation === 'DELETE' ? role.name : roleToWire(role),
  };
}

/** A role granted to (CREATE) or revoked from (DELETE) a member, as Keycloak records role mappings: the role. */
export function roleGrantChange(change: 'grant' | 'revoke', role: RoleRecord, userId: string): ChangeDescription {
  return {
    resourceType: 'ORGANIZATION_ROLE_MAPPING',
    operation: change === 'grant' ? 'CREATE' : 'DELETE',
    resourcePath: `${roleResourcePath(role.organizationId, role.name)}/users/${seg(userId)}`,
    representation: [roleToWire(role)],
  };
}

/** An organization created or updated: the organization as the API answers it. */
export function organizationChange(operation: 'CREATE' | 'UPDATE', org: Organization): ChangeDescription {
  return { resourceType: 'ORGANIZATION', operation, resourcePath: organizationResourcePath(org.id), representation: organizationToWire(org) };
}

/** An organization deleted (with its memberships and default admin user): its id, as the vendor records it. */
export function organizationDeleted(orgId: string): ChangeDescription {
  return { resourceType: 'ORGANIZATION', operation: 'DELETE', resourcePath: organizationResourcePath(orgId), representation: orgId };
}

/** A member added or removed: the user's id, as the vendor records it. A repeated add changes nothing and records nothing. */
export function membershipChange(operation: 'CREATE' | 'DELETE', orgId: string, userId: string): ChangeDescription {
  return {
    resourceType: 'ORGANIZATION_MEMBERSHIP',
    operation,
    resourcePath: `${organizationResourcePath(orgId)}/members/${seg(userId)}`,
    representation: userId,
  };
}

/** `users/{id}` */
const userResourcePath = (userId: string): string => `users/${seg(userId)}`;

/** A user as an event shows it: the member representation and whether it administers the realm. */
function userRepresentation(user: UserRecord): unknown {
  return { ...memberToWire(toMember(user)), realmAdmin: user.realmAdmin };
}

/** A user created or updated (enabled or disabled). */
export function userChange(operation: 'CREATE' | 'UPDATE', user: UserRecord): ChangeDescription {
  return { resourceType: 'USER', operation, resourcePath: userResourcePath(user.id), representation: userRepresentation(user) };
}

/** A user's password set or removed (Keycloak's reset-password action); the password is not recorded. */
export function passwordChange(user: UserRecord): ChangeDescription {
  return { resourceType: 'USER', operation: 'ACTION', resourcePath: `${userResourcePath(user.id)}/reset-password`, representation: undefined };
}

/** The realm administrator role given to (CREATE) or taken from (DELETE) a user, as Keycloak records realm role mappings. */
export function realmAdminChange(user: UserRecord): ChangeDescription {
  return {
    resourceType: 'REALM_ROLE_MAPPING',
    operation: user.realmAdmin ? 'CREATE' : 'DELETE',
    resourcePath: `${userResourcePath(user.id)}/role-mappings/realm`,
    representation: [{ name: 'realm-admin' }],
  };
}

/**
 * A user's update: the realm administrator role given or taken when only that changed, the
 * password action when only the password changed, else the user's update.
 */
export function userUpdateChange(update: { enabled?: unknown; realmAdmin?: unknown; passwordHash?: unknown }, user: UserRecord): ChangeDescription {
  const changed = Object.entries(update).filter(([, value]) => value !== undefined).map(([field]) => field);
  if (changed.length === 1 && changed[0] === 'realmAdmin') return realmAdminChange(user);
  if (changed.length === 1 && changed[0] === 'passwordHash') return passwordChange(user);
  return userChange('UPDATE', user);
}

/** `clients/{clientId}`: API keys and registered clients are both Keycloak clients. */
const clientResourcePath = (clientId: string): string => `clients/${seg(clientId)}`;

/** An API key as an event shows it: never its secret or the secret's hash. */
function apiKeyRepresentation(key: ApiKeyRecord): unknown {
  return {
    clientId: key.clientId,
    name: key.name,
    publicClient: false,
    serviceAccountsEnabled: true,
    serviceAccountUserId: key.serviceAccountUserId,
    permissions: key.permissions,
    createdTimestamp: key.createdTimestamp,
    revoked: key.revokedTimestamp !== null,
  };
}

/** An API key created, or changed (permissions replaced, revoked). */
export function apiKeyChange(operation: 'CREATE' | 'UPDATE', key: ApiKeyRecord): ChangeDescription {
  return { resourceType: 'CLIENT', operation, resourcePath: clientResourcePath(key.clientId), representation: apiKeyRepresentation(key) };
}

/** An API key given a new secret (Keycloak's regenerate-secret action); the secret is not recorded. */
export function apiKeySecretChange(key: ApiKeyRecord): ChangeDescription {
  return { resourceType: 'CLIENT', operation: 'ACTION', resourcePath: `${clientResourcePath(key.clientId)}/client-secret`, representation: undefined };
}

/** An OpenID Connect client registered: public, or confidential when it has a secret (never recorded). */
export function oidcClientCreated(client: OidcClientRecord): ChangeDescription {
  return {
    resourceType: 'CLIENT',
    operation: 'CREATE',
    resourcePath: clientResourcePath(client.clientId),
    representation: { clientId: client.clientId, name: client.name, publicClient: client.secretHash === null, redirectUris: client.redirectUris, createdTimestamp: client.createdTimestamp },
  };
}

/** A registered client's `organizations` claim switched: the client as `oidcClientCreated` shows it, with the switch. */
export function oidcClientUpdated(client: OidcClientRecord): ChangeDescription {
  const created = oidcClientCreated(client);
  return { ...created, operation: 'UPDATE', representation: { ...(created.representation as object), organizationsClaim: client.organizationsClaim } };
}

/** A public OpenID Connect client removed: its client id. */
export function oidcClientDeleted(clientId: string): ChangeDescription {
  return { resourceType: 'CLIENT', operation: 'DELETE', resourcePath: clientResourcePath(clientId), representation: clientId };
}

/** A realm's settings as an event shows them: never its signing key. */
export interface RealmEventSettings {
  readonly realm: Pick<RealmRecord, 'name' | 'enabled' | 'tokenLifetimeSeconds' | 'createAdminUser' | 'rateLimit' | 'createdTimestamp'>;
  /** Days events are kept, or null for ever. */
  readonly eventRetentionDays: number | null;
}

/** A realm created or its settings changed. The realm itself is the resource: its path is empty, as in Keycloak. */
export function realmChange(operation: 'CREATE' | 'UPDATE', settings: RealmEventSettings): ChangeDescription {
  const { realm } = settings;
  return {
    resourceType: 'REALM',
    operation,
    resourcePath: '',
    representation: {
      realm: realm.name,
      enabled: realm.enabled,
      tokenLifetimeSeconds: realm.tokenLifetimeSeconds,
      createAdminUser: realm.createAdminUser,
      rateLimit: realm.rateLimit,
      eventRetentionDays: settings.eventRetentionDays,
      createdTimestamp: realm.createdTimestamp,
    },
  };
}

/** `webhooks/{id}` */
const webhookResourcePath = (id: string): string => `webhooks/${seg(id)}`;

/** A webhook created or updated: the webhook as the API answers it (never its secret). */
export function webhookChange(operation: 'CREATE' | 'UPDATE', webhook: WebhookRecord): ChangeDescription {
  return { resourceType: 'WEBHOOK', operation, resourcePath: webhookResourcePath(webhook.id), representation: webhookToWire(webhook) };
}

/** A webhook deleted (with its sends): its id. */
export function webhookDeleted(id: string): ChangeDescription {
  return { resourceType: 'WEBHOOK', operation: 'DELETE', resourcePath: webhookResourcePath(id), representation: id };
}

/**
 * A domain of an organization verified (its TXT record found): the domain as the API answers it.
 * A domain leaves verified state only by leaving the organization's list, in the organization's
 * update (its event shows the new list), so there is no separate event for that.
 */
export function domainVerified(orgId: string, domain: string): ChangeDescription {
  return {
    resourceType: 'DOMAIN',
    operation: 'UPDATE',
    resourcePath: `${organizationResourcePath(orgId)}/domains/${seg(domain)}`,
    representation: organizationDomain(orgId, domain, true),
  };
}

/** `identity-provider/instances/{alias}`: Keycloak's path of an identity provider (a provider is the realm's, linked to one organization or none). */
const identityProviderResourcePath = (alias: string): string => `identity-provider/instances/${seg(alias)}`;

/**
 * An identity provider created or its settings replaced: the provider as the API answers it, the
 * client secret masked, without `redirectUri` (it depends on the address the caller used).
 */
export function identityProviderChange(operation: 'CREATE' | 'UPDATE', provider: IdentityProviderRecord): ChangeDescription {
  return {
    resourceType: 'IDENTITY_PROVIDER',
    operation,
    resourcePath: identityProviderResourcePath(provider.alias),
    representation: identityProviderWithoutRedirect(provider),
  };
}

/**
 * An identity provider linked to an organization or unlinked from it (the vendor's `link` and
 * `unlink` actions): the provider after the change, whose `config` names its organization or not.
 */
export function identityProviderOwnerChange(action: 'link' | 'unlink', provider: IdentityProviderRecord): ChangeDescription {
  return {
    resourceType: 'IDENTITY_PROVIDER',
    operation: 'ACTION',
    resourcePath: `${identityProviderResourcePath(provider.alias)}/${action}`,
    representation: identityProviderWithoutRedirect(provider),
  };
}

/** An identity provider deleted (with its mappers and links): its alias. */
export function identityProviderDeleted(alias: string): ChangeDescription {
  return { resourceType: 'IDENTITY_PROVIDER', operation: 'DELETE', resourcePath: identityProviderResourcePath(alias), representation: alias };
}

/** A mapper of an identity provider created or replaced: the mapper as the API answers it. */
export function identityProviderMapperChange(operation: 'CREATE' | 'UPDATE', mapper: IdentityProviderMapperRecord): ChangeDescription {
  return {
    resourceType: 'IDENTITY_PROVIDER_MAPPER',
    operation,
    resourcePath: `${identityProviderResourcePath(mapper.alias)}/mappers/${seg(mapper.id)}`,
    representation: mapperRepresentation(mapper),
  };
}

/** A mapper of an identity provider deleted: its id. */
export function identityProviderMapperDeleted(alias: string, id: string): ChangeDescription {
  return {
    resourceType: 'IDENTITY_PROVIDER_MAPPER',
    operation: 'DELETE',
    resourcePath: `${identityProviderResourcePath(alias)}/mappers/${seg(id)}`,
    representation: id,
  };
}
