/**
 * The token endpoint (OAuth 2.0, RFC 6749): `client_credentials` for API keys, `password` for end
 * users. Errors follow the table in SERVICE_API.md exactly; every answer carries
 * `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 §5.1).
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { issuer, type Permission, type TokenResponse } from '../../api';
import { rateLimitKey, realmHook } from '../auth/guards';
import { PUBLIC_CLIENT_ID } from '../auth/public-client';
import { signJwt } from '../auth/jwt';
import { verifySecret } from '../auth/secrets';
import { baseUrlOf, realmOf, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { hasControlCharacter } from '../text-checks';

type Form = Record<string, string | undefined>;

/** Reads the form; a repeated parameter is a 400 (RFC 6749 §3.2). */
function readForm(request: FastifyRequest): Form {
  const type = request.headers['content-type'];
  if (type !== undefined && !/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw new ServiceError(400, 'invalid_request', 'Token requests must be sent as application/x-www-form-urlencoded.');
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const form: Form = {};
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) throw new ServiceError(400, 'invalid_request', `Parameter ${name} must not be repeated.`);
    form[name] = typeof value === 'string' ? value : undefined;
  }
  return form;
}

/** `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1), or undefined. */
function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unescape = (text: string): string => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

const invalidClient = (): ServiceError => new ServiceError(401, 'invalid_client', 'Invalid client or client credentials.');
const unauthorizedClient = (): ServiceError =>
  new ServiceError(401, 'unauthorized_client', 'Invalid client secret.');

/** Registers the token endpoint. */
export async function tokenRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  await app.register(formbody);
  // Any other content type is read (and refused) by the handler with the OAuth error shape.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));

  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    reply.header('Pragma', 'no-cache');
  });

  app.post<{ Params: { realm: string } }>(
    '/realms/:realm/protocol/openid-connect/token',
    { onRequest: realmHook(ctx) },
    async (request, reply) => {
      const realm = realmOf(request);
      if (!realm.enabled) throw new ServiceError(403, 'access_denied', `Realm ${realm.name} is disabled.`);
      const form = readForm(request);
      const grantType = form.grant_type;
      if (!grantType) throw new ServiceError(400, 'invalid_request', 'Missing form parameter: grant_type.');
      if (grantType !== 'client_credentials' && grantType !== 'password') {
        throw new ServiceError(400, 'unsupported_grant_type', `Unsupported grant_type ${grantType}.`);
      }

      // Form fields win over HTTP Basic when both are present.
      const basic = basicCredentials(request);
      const clientId = form.client_id || basic?.id;
      if (!clientId) throw new ServiceError(400, 'invalid_client', 'Missing form parameter: client_id.');
      const secret = form.client_id ? (form.client_secret ?? (basic?.id === form.client_id ? basic.secret : undefined)) : basic?.secret;
      request.clientId = clientId;
      // No client or user the service stores has a control character in its name.
      if (hasControlCharacter(clientId)) throw invalidClient();
      if (form.username !== undefined && hasControlCharacter(form.username)) {
        throw new ServiceError(400, 'invalid_grant', 'Invalid user credentials.');
      }

      let subject: string;
      let permissions: Permission[];
      if (clientId === PUBLIC_CLIENT_ID) {
        // End users share the public client, so each one is counted on its own: by user id once
        // the username is known to the realm (the same key as their bearer requests), else by
        // the username asked for. Counted before the password check, so failed attempts count.
        if (ctx.rateLimiter && grantType === 'password' && form.username) {
          const named = await ctx.store.findUserByUsername(realm.name, form.username);
          ctx.rateLimiter.hit(named ? rateLimitKey(realm.name, clientId, named.id) : `${realm.name}/username/${form.username.toLowerCase()}`);
        } else {
          ctx.rateLimiter?.hit(rateLimitKey(realm.name, clientId));
        }
        if (grantType !== 'password') {
          throw new ServiceError(401, 'unauthorized_client', 'The public client may only use the password grant.');
        }
        permissions = [];
        subject = '';
      } else {
        ctx.rateLimiter?.hit(rateLimitKey(realm.name, clientId));
        const key = await ctx.store.getApiKey(clientId);
        if (!key || key.realm !== realm.name || key.revokedTimestamp !== null) throw invalidClient();
        if (!secret || !(await verifySecret(secret, key.secretHash))) throw unauthorizedClient();
        subject = key.serviceAccountUserId;
        permissions = key.permissions;
      }

      if (grantType === 'password') {
        const { username, password } = form;
        if (!username || password === undefined) {
          throw new ServiceError(400, 'invalid_request', 'The password grant needs the username and password parameters.');
        }
        const user = await ctx.store.findUserByUsername(realm.name, username);
        const ok =
          user !== undefined &&
          user.kind === 'user' &&
          user.enabled &&
          user.passwordHash !== null &&
          (await verifySecret(password, user.passwordHash));
        if (!ok || !user) throw new ServiceError(400, 'invalid_grant', 'Invalid user credentials.');
        // An end user's token carries the user's own rights (none of the API permissions).
        subject = user.id;
        permissions = [];
      }

      const now = Math.floor(Date.now() / 1000);
      const scope = permissions.join(' ');
      const accessToken = signJwt(realm, {
        iss: issuer(baseUrlOf(request, ctx), realm.name),
        sub: subject,
        azp: clientId,
        typ: 'Bearer',
        iat: now,
        exp: now + realm.tokenLifetimeSeconds,
        permissions,
        scope,
      });
      const body: TokenResponse = {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: realm.tokenLifetimeSeconds,
        refresh_expires_in: 0,
        'not-before-policy': 0,
        scope,
      };
      return reply.status(200).send(body);
    },
  );
}
