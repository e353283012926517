/**
 * Public OpenID Connect clients (authorization code flow with PKCE): register, list, change whether
 * their user tokens carry the organizations claim, remove.
 */
import { RESERVED_CLIENT_IDS, redirectUriProblem } from '../auth/oidc-clients';
import { StoreConflictError, type OidcClientRecord, type Store } from '../store/store';
import { AdminError, optionalText } from './admin-error';
import { requireRealm } from './realms';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';

/** A registered public OpenID Connect client (authorization code flow with PKCE). */
export type ClientInfo = OidcClientRecord;

/** Client ids of registered clients: 1–255 letters, digits, `.`, `_`, `-`. */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,255}$/;

/** Administration of registered OpenID Connect clients over a {@link Store}. */
export class OidcClientAdmin {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    /** Who the changes are made by and from where: written into their events. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /**
   * Registers a public OpenID Connect client for the authorization code flow with PKCE. Redirect
   * URIs are kept and compared exactly; https only, except http for loopback hosts.
   */
  async create(realm: string, opts: { clientId: string; name?: string; redirectUris: string[]; organizationsClaim?: boolean }): Promise<ClientInfo> {
    await requireRealm(this.store, realm);
    const { clientId } = opts;
    if (typeof clientId !== 'string' || !CLIENT_ID.test(clientId)) {
      throw new AdminError(`Client id "${String(clientId)}" must be 1 to 255 letters, digits, ".", "_" or "-".`);
    }
    if (RESERVED_CLIENT_IDS.includes(clientId)) throw new AdminError(`Client id "${clientId}" is reserved for the service's own clients.`);
    const name = optionalText('Client name', opts.name) ?? clientId;
    if (!Array.isArray(opts.redirectUris) || opts.redirectUris.length === 0) {
      throw new AdminError(`Client "${clientId}" needs at least one redirect URI.`);
    }
    for (const uri of opts.redirectUris) {
      const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'is not a string';
      if (problem) throw new AdminError(`Redirect URI "${String(uri)}" ${problem}.`);
    }
    const client: OidcClientRecord = {
      realm,
      clientId,
      name,
      redirectUris: [...new Set(opts.redirectUris)],
      createdTimestamp: this.now(),
      organizationsClaim: opts.organizationsClaim === true,
    };
    try {
      await this.store.createOidcClient(client, this.origin);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new AdminError(`Realm "${realm}" already has a client "${clientId}".`);
      throw error;
    }
    return client;
  }

  /** The registered clients of a realm, ordered by client id. */
  async list(realm: string): Promise<ClientInfo[]> {
    await requireRealm(this.store, realm);
    return this.store.listOidcClients(realm);
  }

  /** Turns the `organizations` claim of a registered client's user tokens on or off. */
  async setOrganizationsClaim(realm: string, clientId: string, organizationsClaim: boolean): Promise<ClientInfo> {
    await requireRealm(this.store, realm);
    if (!(await this.store.setOidcClientOrganizationsClaim(realm, clientId, organizationsClaim, this.origin))) {
      throw new AdminError(`Realm "${realm}" has no client "${clientId}".`);
    }
    return (await this.store.getOidcClient(realm, clientId))!;
  }

  /** Removes a registered client; codes it already got can no longer be exchanged by anyone else. */
  async delete(realm: string, clientId: string): Promise<void> {
    await requireRealm(this.store, realm);
    if (!(await this.store.deleteOidcClient(realm, clientId, this.origin))) throw new AdminError(`Realm "${realm}" has no client "${clientId}".`);
  }
}
