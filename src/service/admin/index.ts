/**
 * Administration of the service: what the `orgadmin` command line, the dashboard and the tests
 * use. Not a JSON API. One facade, {@link Admin}, over one module per area:
 * - realms.ts: realms and their settings;
 * - api-keys.ts: API keys and their service-account users;
 * - users.ts: end users, passwords, the realm administrator role;
 * - oidc-clients.ts: registered public OpenID Connect clients;
 * - organizations.ts: organizations and memberships, shared with the JSON routes;
 * - webhooks.ts: webhooks, their sends and resends, shared with the JSON routes;
 * - audit-log.ts: the audit log's queries, shared with the JSON route, the CLI and the dashboard.
 * - domains.ts: organizations' domains and their verification by DNS, shared with the JSON routes;
 * - identity-providers.ts: organizations' identity providers and their mappers, shared with the JSON routes.
 * - roles.ts: organization roles and their grants, shared with the JSON routes.
 *
 * Every bad input throws {@link AdminError} before anything is written (the organizations and
 * roles areas, whose rules are the JSON API's, throw the API's `ServiceError` instead).
 */
import type { Member } from '../../api';
import { ApiKeySecrets } from '../auth/api-key-secrets';
import { generateSigningKey, type SigningKey } from '../auth/jwt';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';
import type { Store } from '../store/store';
import { WebhookAdmin } from './webhooks';
import { AuditLog } from './audit-log';
import { dnsTxtLookup, type TxtLookup } from '../domains/txt-lookup';
import { ApiKeyAdmin, type ApiKeyInfo, type CreatedApiKey } from './api-keys';
import { DomainAdmin } from './domains';
import { IdentityProviderAdmin } from './identity-providers';
import { SealedSecrets } from '../auth/sealed-secrets';
import { OidcClientAdmin, type ClientInfo, type CreatedClient } from './oidc-clients';
import { DEFAULT_PORTAL_LINK_LIFETIME_SECONDS, OrganizationAdmin } from './organizations';
import { RealmAdmin, type RealmInfo, type RealmInfoUpdate } from './realms';
import { RoleAdmin } from './roles';
import { UserAdmin, type NewUserInput, type UserInfo } from './users';

export { AdminError } from './admin-error';
export { DEFAULT_TOKEN_LIFETIME_SECONDS, MAX_EVENT_RETENTION_DAYS, MAX_TOKEN_LIFETIME_SECONDS, RealmAdmin, type RealmInfo, type RealmInfoUpdate } from './realms';
export { ApiKeyAdmin, type ApiKeyInfo, type CreatedApiKey } from './api-keys';
export { UserAdmin, type NewUserInput, type UserInfo } from './users';
export { WebhookAdmin, type CreatedWebhook } from './webhooks';
export { AuditLog } from './audit-log';
export { OidcClientAdmin, type ClientInfo, type CreatedClient } from './oidc-clients';
export { DomainAdmin } from './domains';
export { IdentityProviderAdmin } from './identity-providers';
export { RoleAdmin, type RoleChangeKind, type RoleWithHolders } from './roles';
export { DEFAULT_PORTAL_LINK_LIFETIME_SECONDS, OrganizationAdmin, type MembersQuery, type OrganizationsQuery, type PortalLinkInput, type PortalLinkIssuer } from './organizations';

/** Options of {@link Admin}. */
export interface AdminOptions {
  /**
   * Where new realms get their signing key pair. @default a fresh 2048-bit RSA key per realm.
   * Tests pass a pre-generated pool: RSA generation is slow on a busy machine.
   */
  readonly signingKeys?: () => SigningKey;
  /** API-key secret hashing under the store's server-side key. @default one of its own over the store */
  readonly apiKeySecrets?: ApiKeySecrets;
  /** The clock, milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
  /** Lifetime of admin portal links in seconds. @default {@link DEFAULT_PORTAL_LINK_LIFETIME_SECONDS} */
  readonly portalLinkLifetimeSeconds?: number;
  /** Who the changes are made by and from where, written into their events. @default nobody known */
  readonly origin?: ChangeOrigin;
  /** Whether webhook URLs may point at loopback, link-local and private addresses (`serve --allow-private-webhooks`). @default false */
  readonly allowPrivateWebhooks?: boolean;
  /** How domain verification looks TXT records up. @default the system's DNS resolvers */
  readonly txtLookup?: TxtLookup;
  /**
   * Called after tokens were revoked in the store (an API key revoked): the service passes its
   * revocation list's `recheckNow`, so it refuses them from the next request on.
   */
  readonly onTokensRevoked?: () => void;
}

/**
 * Administration API over a {@link Store}: one area per kind of thing (`realms`, `apiKeys`,
 * `users`, `clients`, `organizations`, `roles`), and the methods of the first four by their long-standing
 * names (`createRealm`, `createApiKey`, …). The service builds one per app (`buildApp`, on the
 * route context); the command line and tests build their own over a store.
 */
export class Admin {
  /** Realms and their settings. */
  readonly realms: RealmAdmin;
  /** API keys. */
  readonly apiKeys: ApiKeyAdmin;
  /** End users. */
  readonly users: UserAdmin;
  /** Registered public OpenID Connect clients. */
  readonly clients: OidcClientAdmin;
  /** Organizations and memberships, by the JSON API's rules (failures are `ServiceError`s). */
  readonly organizations: OrganizationAdmin;
  /** Organizations' domains and their verification, by the JSON API's rules. */
  readonly domains: DomainAdmin;
  /** Organizations' identity providers and their mappers, by the JSON API's rules. */
  readonly identityProviders: IdentityProviderAdmin;
  /** Secrets the service keeps sealed and reads back (identity providers' client secrets). */
  readonly sealedSecrets: SealedSecrets;
  /** Organization roles and their grants, by the JSON API's rules (failures are `ServiceError`s). */
  readonly roles: RoleAdmin;
  /** Webhooks, by the vendor's API rules (failures are `ServiceError`s). */
  readonly webhooks: WebhookAdmin;
  /** The audit log: events of the realm's changes, sign-ins and token grants. */
  readonly events: AuditLog;

  private readonly store: Store;
  private readonly options: AdminOptions;

  constructor(store: Store, options: AdminOptions = {}) {
    this.store = store;
    const now = options.now ?? Date.now;
    const apiKeySecrets = options.apiKeySecrets ?? new ApiKeySecrets(store, now);
    this.options = { ...options, apiKeySecrets };
    const origin = options.origin ?? UNKNOWN_ORIGIN;
    this.realms = new RealmAdmin(store, options.signingKeys ?? generateSigningKey, now, origin);
    this.apiKeys = new ApiKeyAdmin(store, apiKeySecrets, now, origin, options.onTokensRevoked);
    this.users = new UserAdmin(store, now, origin);
    this.clients = new OidcClientAdmin(store, apiKeySecrets, now, origin);
    this.organizations = new OrganizationAdmin(store, options.portalLinkLifetimeSeconds ?? DEFAULT_PORTAL_LINK_LIFETIME_SECONDS, now, origin);
    this.webhooks = new WebhookAdmin(store, { now, origin, allowPrivateAddresses: options.allowPrivateWebhooks ?? false });
    this.events = new AuditLog(store, now);
    this.roles = new RoleAdmin(store, now, origin);
    this.domains = new DomainAdmin(store, options.txtLookup ?? dnsTxtLookup(), now, origin);
    this.sealedSecrets = new SealedSecrets(store, now);
    this.identityProviders = new IdentityProviderAdmin(store, this.sealedSecrets, now, origin);
  }

  /**
   * The same administration acting for `origin`: its changes' events name that actor and address.
   * The routes and the dashboard take one per request (`ctx.admin.as(originOf(request))`).
   */
  as(origin: ChangeOrigin): Admin {
    return new Admin(this.store, { ...this.options, origin });
  }

  /** Creates a realm with a fresh RS256 signing key ({@link RealmAdmin.create}). */
  createRealm(name: string, opts: { tokenLifetimeSeconds?: number; createAdminUser?: boolean } = {}): Promise<RealmInfo> {
    return this.realms.create(name, opts);
  }

  /** All realms, ordered by name. */
  listRealms(): Promise<RealmInfo[]> {
    return this.realms.list();
  }

  /** One realm, or undefined. */
  getRealm(name: string): Promise<RealmInfo | undefined> {
    return this.realms.get(name);
  }

  /** Enables or disables a realm; a disabled realm issues no tokens (403 `access_denied`). */
  setRealmEnabled(name: string, enabled: boolean): Promise<RealmInfo> {
    return this.realms.update(name, { enabled });
  }

  /** Changes a realm's settings, every value checked before anything is written ({@link RealmAdmin.update}). */
  updateRealm(name: string, update: RealmInfoUpdate): Promise<RealmInfo> {
    return this.realms.update(name, update);
  }

  /** Creates an API key and its service-account user; the only time the secret is returned ({@link ApiKeyAdmin.create}). */
  createApiKey(realm: string, opts: { name: string; permissions: string[] }): Promise<CreatedApiKey> {
    return this.apiKeys.create(realm, opts);
  }

  /** API keys of one realm or of all realms; never secrets or hashes. */
  listApiKeys(realm?: string): Promise<ApiKeyInfo[]> {
    return this.apiKeys.list(realm);
  }

  /** Revokes a key (of `realm` when given) and ends the tokens already issued to it ({@link ApiKeyAdmin.revoke}). */
  revokeApiKey(clientId: string, realm?: string): Promise<void> {
    return this.apiKeys.revoke(clientId, realm);
  }

  /** Replaces the permissions of an active key of `realm`. */
  setApiKeyPermissions(realm: string, clientId: string, permissions: string[]): Promise<ApiKeyInfo> {
    return this.apiKeys.setPermissions(realm, clientId, permissions);
  }

  /** Gives an active key a new secret and returns it (the only time it is shown). */
  rotateApiKeySecret(realm: string, clientId: string): Promise<CreatedApiKey> {
    return this.apiKeys.rotateSecret(realm, clientId);
  }

  /** Creates an end user (optionally with a password for the password grant). */
  createUser(realm: string, opts: NewUserInput): Promise<Member> {
    return this.users.create(realm, opts);
  }

  /** End users and organization admin users of a realm, ordered by username (no service accounts). */
  listUsers(realm: string): Promise<Member[]> {
    return this.users.list(realm);
  }

  /** One user by username (case-insensitive), or undefined. */
  findUserByUsername(realm: string, username: string): Promise<Member | undefined> {
    return this.users.findByUsername(realm, username);
  }

  /** End users and organization admin users matching `search`, one page, with the total count. */
  findUsers(realm: string, opts: { search?: string; first?: number; max?: number } = {}): Promise<{ users: UserInfo[]; total: number }> {
    return this.users.find(realm, opts);
  }

  /** One end user by username with the administrator role, or undefined. */
  getUserInfo(realm: string, username: string): Promise<UserInfo | undefined> {
    return this.users.getInfo(realm, username);
  }

  /** Gives or takes the realm administrator role (by username); only end users may hold it. */
  setRealmAdmin(realm: string, username: string, realmAdmin: boolean): Promise<UserInfo> {
    return this.users.setRealmAdmin(realm, username, realmAdmin);
  }

  /** Sets a new password for an end user (by username). */
  setPassword(realm: string, username: string, password: string): Promise<void> {
    return this.users.setPassword(realm, username, password);
  }

  /** Enables or disables a user (by id); a disabled user cannot sign in or get tokens. */
  setUserEnabled(realm: string, userId: string, enabled: boolean): Promise<UserInfo> {
    return this.users.setEnabled(realm, userId, enabled);
  }

  /**
   * Registers an OpenID Connect client (authorization code flow with PKCE; `confidential` gives it
   * a secret, returned this once; `organizationsClaim` puts the organizations claim in its user tokens).
   */
  createClient(realm: string, opts: { clientId: string; name?: string; redirectUris: string[]; confidential?: boolean; organizationsClaim?: boolean }): Promise<CreatedClient> {
    return this.clients.create(realm, opts);
  }

  /** Turns the `organizations` claim of a registered client's user tokens on or off. */
  setClientOrganizationsClaim(realm: string, clientId: string, organizationsClaim: boolean): Promise<ClientInfo> {
    return this.clients.setOrganizationsClaim(realm, clientId, organizationsClaim);
  }

  /** The registered clients of a realm, ordered by client id. */
  listClients(realm: string): Promise<ClientInfo[]> {
    return this.clients.list(realm);
  }

  /** Removes a registered client. */
  deleteClient(realm: string, clientId: string): Promise<void> {
    return this.clients.delete(realm, clientId);
  }
}
