/**
 * `orgadmin_access_token` ephemeral resource: an access token of the service for another tool of
 * the same run (a `provider` block, an HTTP call from a provisioner), issued for the provider's API
 * key or for another one. A token of its own, never the provider's: Terraform keeps it out of plan
 * and state files, and the provider revokes it when Terraform closes the resource, so it does not
 * outlive the run that asked for it.
 *
 * The API key that issued a token is needed to revoke it. It stays in this provider process (the
 * process Terraform closes the resource in), keyed by a handle; only the handle goes into the
 * private data that Terraform carries.
 */
import { randomUUID } from 'node:crypto';
import { isPermission, PERMISSIONS } from '../../api/permissions';
import type { ClientCredentialsTokenSource, TokenSource } from '../../client';
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import { reportError, reportingFor, type Operation } from '../diagnostics';
import type { EphemeralResource } from '../../tfplugin/framework/ephemeral';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { knownString, knownStringList, quote } from '../values';

/** The ephemeral resource's type name. */
export const ACCESS_TOKEN_EPHEMERAL_TYPE = 'orgadmin_access_token';

/** Where the handle of an issued token is kept in the private data. */
const HANDLE_KEY = 'token_handle';

/** A token this provider process issued and must revoke on close. */
interface IssuedHere {
  readonly source: ClientCredentialsTokenSource;
  readonly realm: string;
  readonly token: string;
}

/** Tokens to revoke, per provider context (one per configured provider process). */
const issued = new WeakMap<OrgAdminProviderContext, Map<string, IssuedHere>>();

/** The provider signs in with an API key, whose token source can issue further tokens. */
function canIssue(source: TokenSource): source is ClientCredentialsTokenSource {
  return typeof (source as Partial<ClientCredentialsTokenSource>).issueToken === 'function';
}

function issuedBy(ctx: OrgAdminProviderContext): Map<string, IssuedHere> {
  let found = issued.get(ctx);
  if (!found) issued.set(ctx, (found = new Map()));
  return found;
}

/** The `orgadmin_access_token` ephemeral resource. */
export const accessTokenEphemeralResource: EphemeralResource<OrgAdminProviderContext> = {
  typeName: ACCESS_TOKEN_EPHEMERAL_TYPE,
  schema: {
    description:
      'An access token of the service for another tool in the same run: a `provider` block, a provisioner, a write-only ' +
      'attribute. It is issued for the provider\'s API key, or for the API key given by `client_id` and `client_secret`, ' +
      'optionally with fewer `permissions`; Terraform never stores it in a plan or state file, and the provider revokes it ' +
      'when Terraform closes the resource at the end of the run. When the provider itself signs in with `access_token`, ' +
      'that token is handed out as it is (and not revoked). Terraform 1.10 or later.',
    attributes: {
      client_id: {
        type: 'string',
        optional: true,
        description: 'The client ID of another API key to issue the token for; defaults to the provider\'s API key. Needs `client_secret`.',
      },
      client_secret: {
        type: 'string',
        optional: true,
        sensitive: true,
        description: 'The secret of the API key named by `client_id` (an ephemeral or sensitive variable keeps it out of files).',
      },
      permissions: {
        type: ['set', 'string'],
        optional: true,
        computed: true,
        description:
          `The permissions the token carries: a subset of the API key's (${PERMISSIONS.map((p) => `\`${p}\``).join(', ')}). ` +
          'Defaults to all of the key\'s permissions.',
      },
      realm: dataSourceRealmAttribute,
      access_token: { type: 'string', computed: true, sensitive: true, description: 'The bearer token.' },
      token_type: { type: 'string', computed: true, description: 'How to send it: `Bearer`.' },
      expires_at: {
        type: 'string',
        computed: true,
        description: 'When the token expires (RFC 3339, UTC); null for the provider\'s own `access_token`, whose expiry it does not know.',
      },
    },
  },

  validate(config, diags) {
    validateRealm(config['realm'], diags);
    const clientId = config['client_id'];
    const clientSecret = config['client_secret'];
    if (clientId === '' || clientSecret === '') {
      diags.error('Empty API key', '`client_id` and `client_secret` must not be empty strings; leave both out to use the provider\'s API key.', [clientId === '' ? 'client_id' : 'client_secret']);
    } else if ((clientId === null) !== (clientSecret === null)) {
      diags.error(
        'Incomplete API key',
        'Give both `client_id` and `client_secret` of the API key to issue the token for, or neither to use the provider\'s API key.',
        [clientId === null ? 'client_id' : 'client_secret'],
      );
    }
    for (const permission of knownStringList(config['permissions']) ?? []) {
      if (!isPermission(permission)) {
        diags.error('Unknown permission', `${quote(permission)} is not a permission; use ${PERMISSIONS.join(', ')}.`, ['permissions']);
      }
    }
  },

  async open(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const clientId = knownString(req.config['client_id']);
    const clientSecret = knownString(req.config['client_secret']);
    const wanted = knownStringList(req.config['permissions']);
    const op: Operation = {
      action: 'issue access token',
      target: `for ${clientId !== undefined ? `API key ${quote(clientId)}` : 'the provider\'s credentials'} in realm ${quote(realm)}`,
      permission: 'view-organizations',
    };
    let source: ClientCredentialsTokenSource;
    if (clientId !== undefined && clientSecret !== undefined) {
      // Required here, as in the provider's configure: the SDK is for the configured process only.
      const sdk = require('../../client') as typeof import('../../client');
      source = new sdk.ClientCredentialsTokenSource({ baseUrl: ctx.baseUrl, clientId, clientSecret, dispatcher: ctx.dispatcher });
    } else if (canIssue(ctx.tokenSource)) {
      source = ctx.tokenSource;
    } else {
      if (wanted !== undefined) {
        diags.error(
          'Cannot narrow the provider\'s access token',
          'The provider signs in with `access_token`, which is handed out as it is: leave `permissions` out, or give `client_id` and `client_secret` of an API key.',
          ['permissions'],
        );
        return null;
      }
      // The provider's own `access_token`: handed out as it is.
      const token = await ctx.tokenSource.getToken(realm, { signal: req.signal });
      return { result: { ...req.config, realm, permissions: null, access_token: token, token_type: 'Bearer', expires_at: null } };
    }
    const secrets = clientSecret !== undefined ? [...ctx.secrets, clientSecret] : ctx.secrets;
    try {
      const token = await source.issueToken(realm, { ...(wanted !== undefined ? { scope: wanted.join(' ') } : {}), signal: req.signal });
      const handle = randomUUID();
      issuedBy(ctx).set(handle, { source, realm, token: token.accessToken });
      req.private.set(HANDLE_KEY, handle);
      const granted = (token.scope ?? '').split(' ').filter((value) => isPermission(value));
      return {
        result: {
          ...req.config,
          realm,
          permissions: wanted ?? granted,
          access_token: token.accessToken,
          token_type: token.tokenType,
          expires_at: new Date(token.issuedAt + token.expiresIn * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        },
      };
    } catch (error) {
      reportError(diags, error, op, { ...reportingFor(ctx, realm), secrets });
      return null;
    }
  },

  async close(ctx, req, diags) {
    const handle = req.private.get(HANDLE_KEY);
    if (typeof handle !== 'string') return; // the provider's own access token: not ours to revoke
    const token = issuedBy(ctx).get(handle);
    if (!token) {
      diags.warning(
        'Access token not revoked',
        'Terraform closed an access token that another provider process issued; it stays valid until it expires.',
      );
      return;
    }
    try {
      await token.source.revokeToken(token.realm, token.token, { signal: req.signal });
      issuedBy(ctx).delete(handle);
    } catch (error) {
      reportError(diags, error, { action: 'revoke access token', target: `in realm ${quote(token.realm)}`, permission: 'view-organizations' }, reportingFor(ctx, token.realm));
    }
  },
};
