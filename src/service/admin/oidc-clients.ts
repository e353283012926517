/**
 * OpenID Connect clients of the authorization code flow with PKCE: register (public, or
 * confidential with a secret shown once), list, change whether their user tokens carry the
 * organizations claim, remove.
 */
import type { ApiKeySecrets } from '../auth/api-key-secrets';
import { RESERVED_CLIENT_IDS, redirectUriProblem } from '../auth/oidc-clients';
import { generateClientSecret } from '../auth/secrets';
import { StoreConflictError, type OidcClientRecord, type Store } from '../store/store';
import { AdminError, optionalText } from './admin-error';
import { requireRealm } from './realms';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';

/** A registered OpenID Connect client (authorization code flow with PKCE), without its secret's hash. */
export type ClientInfo = Omit<OidcClientRecord, 'secretHash'> & {
  /** Whether the client authenticates with a secret at the token endpoint. */
  confidential: boolean;
};

/** A client just registered: a confidential one carries its secret, shown this once. */
export type CreatedClient = ClientInfo & { clientSecret?: string };

const clientInfo = ({ secretHash, ...client }: OidcClientRecord): ClientInfo => ({ ...client, confidential: secretHash !== null });

/** Client ids of registered clients: 1–255 letters, digits, `.`, `_`, `-`. */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,255}$/;

/** Administration of registered OpenID Connect clients over a {@link Store}. */
export class OidcClientAdmin {
  constructor(
    private readonly store: Store,
    private readonly secrets: ApiKeySecrets,
    private readonly now: () => number = Date.now,
    /** Who the changes are made by and from where: written into their events. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /**
   * Registers an OpenID Connect client for the authorization code flow with PKCE: public, or with
   * `confidential` a client that also authenticates with a secret at the token endpoint (returned
   * here only; the service keeps its HMAC). Redirect URIs are kept and compared exactly; https
   * only, except http for loopback hosts.
   */
  async create(realm: string, opts: { clientId: string; name?: string; redirectUris: string[]; confidential?: boolean; organizationsClaim?: boolean }): Promise<CreatedClient> {
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
    const clientSecret = opts.confidential === true ? generateClientSecret() : undefined;
    const client: OidcClientRecord = {
      realm,
      clientId,
      name,
      redirectUris: [...new Set(opts.redirectUris)],
      createdTimestamp: this.now(),
      secretHash: clientSecret === undefined ? null : await this.secrets.hash(clientSecret),
      organizationsClaim: opts.organizationsClaim === true,
    };
    try {
      await this.store.createOidcClient(client, this.origin);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new AdminError(`Realm "${realm}" already has a client "${clientId}".`);
      throw error;
    }
    return clientSecret === undefined ? clientInfo(client) : { ...clientInfo(client), clientSecret };
  }

  /** The registered clients of a realm, ordered by client id. */
  async list(realm: string): Promise<ClientInfo[]> {
    await requireRealm(this.store, realm);
    return (await this.store.listOidcClients(realm)).map(clientInfo);
  }

  /** Turns the `organizations` claim of a registered client's user tokens on or off. */
  async setOrganizationsClaim(realm: string, clientId: string, organizationsClaim: boolean): Promise<ClientInfo> {
    await requireRealm(this.store, realm);
    if (!(await this.store.setOidcClientOrganizationsClaim(realm, clientId, organizationsClaim, this.origin))) {
      throw new AdminError(`Realm "${realm}" has no client "${clientId}".`);
    }
    return clientInfo((await this.store.getOidcClient(realm, clientId))!);
  }

  /** Removes a registered client; codes it already got can no longer be exchanged by anyone else. */
  async delete(realm: string, clientId: string): Promise<void> {
    await requireRealm(this.store, realm);
    if (!(await this.store.deleteOidcClient(realm, clientId, this.origin))) throw new AdminError(`Realm "${realm}" has no client "${clientId}".`);
  }
}
