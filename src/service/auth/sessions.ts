/**
 * Dashboard sessions and their CSRF tokens.
 *
 * A session is a cookie holding `{sid, realm, sub, exp}` and an HMAC-SHA-256 over it under a key
 * the service keeps in its store (`server_secrets`, shared by every instance on the database), so
 * any instance can check it without a session table. Signing out revokes the session id through
 * the same revocation list as access tokens (auth/revocations.ts), so a copied cookie is refused
 * from then on, and so is every token of the login that started the session (their `sid`). The user is read again on every request: disabling a user or taking the
 * administrator role away takes effect at once.
 *
 * The CSRF token of a session is an HMAC of its id under the same key (synchronizer token without
 * server state): a page of another site can neither read it nor compute it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServiceContext } from '../context';
import { sessionRevocationId } from './revocations';
import type { Store } from '../store/store';

/** How long a dashboard session lasts after login. */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

/** Name of the session cookie. */
export const SESSION_COOKIE = 'orgadmin_session';
/** Name of the form field that carries the CSRF token. */
export const CSRF_FIELD = '_csrf';

/** A valid session. */
export interface Session {
  sid: string;
  realm: string;
  /** The user's id. */
  sub: string;
  /** Milliseconds since the epoch. */
  exp: number;
}

const keys = new WeakMap<Store, Promise<Buffer>>();

/** The store's signing key for sessions, created on first use (first writer wins across instances). */
function keyOf(ctx: ServiceContext): Promise<Buffer> {
  let key = keys.get(ctx.store);
  if (!key) {
    key = ctx.store
      .serverSecret('dashboard-session-hmac', randomBytes(32).toString('base64url'), ctx.now())
      .then((value) => Buffer.from(value, 'base64url'));
    // A failed read is not remembered, so the next request tries again.
    key.catch(() => keys.delete(ctx.store));
    keys.set(ctx.store, key);
  }
  return key;
}

const mac = (key: Buffer, purpose: string, data: string): string =>
  createHmac('sha256', key).update(purpose).update('\u0000').update(data).digest('base64url');

const equal = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Signs `payload` (JSON) for `purpose`: `base64url(json).mac`. */
export async function seal(ctx: ServiceContext, purpose: string, payload: object): Promise<string> {
  const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${data}.${mac(await keyOf(ctx), purpose, data)}`;
}

/** The payload of a value made by {@link seal} for the same purpose, or undefined when it was not. */
export async function unseal(ctx: ServiceContext, purpose: string, value: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (!value) return undefined;
  const dot = value.indexOf('.');
  if (dot < 0) return undefined;
  const data = value.slice(0, dot);
  if (!equal(value.slice(dot + 1), mac(await keyOf(ctx), purpose, data))) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A new session cookie value for `sub` in `realm`, for login session `sid` (the one its login's
 * tokens carry, see authorization-codes.ts; a fresh one when not given).
 */
export async function startSession(ctx: ServiceContext, realm: string, sub: string, sid: string = randomBytes(16).toString('base64url')): Promise<string> {
  const session: Session = { sid, realm, sub, exp: ctx.now() + SESSION_LIFETIME_MS };
  return seal(ctx, 'session', session);
}

/** The session of a cookie value when it is authentic, of this realm, not expired and not signed out. */
export async function readSession(ctx: ServiceContext, realm: string, cookie: string | undefined): Promise<Session | undefined> {
  const payload = await unseal(ctx, 'session', cookie);
  if (!payload) return undefined;
  const { sid, sub, exp } = payload;
  if (typeof sid !== 'string' || typeof sub !== 'string' || typeof exp !== 'number') return undefined;
  if (payload.realm !== realm || exp <= ctx.now()) return undefined;
  if (await ctx.revocations.isRevoked(realm, sessionRevocationId(sid))) return undefined;
  return { sid, realm, sub, exp };
}

/**
 * Ends login session `sid` of `realm` everywhere: a dashboard session with that id, and every token
 * issued under it, are refused from now on (until `until`, ms, when they would have expired anyway).
 */
export async function endLoginSession(ctx: ServiceContext, realm: string, sid: string, until: number): Promise<void> {
  await ctx.revocations.revoke(realm, sessionRevocationId(sid), until);
}

/**
 * Signs a dashboard session out everywhere (see {@link endLoginSession}). The dashboard's login
 * issues no tokens of its own (its code is redeemed by the service), so the revocation is kept
 * until the session would have expired.
 */
export async function endSession(ctx: ServiceContext, session: Session): Promise<void> {
  await endLoginSession(ctx, session.realm, session.sid, session.exp);
}

/** The CSRF token of a session (or of any other secret-bound id, such as a login attempt). */
export async function csrfToken(ctx: ServiceContext, boundTo: string): Promise<string> {
  return mac(await keyOf(ctx), 'csrf', boundTo);
}

/** Whether `presented` is the CSRF token for `boundTo` (constant time). */
export async function csrfMatches(ctx: ServiceContext, boundTo: string, presented: unknown): Promise<boolean> {
  return typeof presented === 'string' && equal(presented, await csrfToken(ctx, boundTo));
}
