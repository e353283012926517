/**
 * Reading and writing the cookies of the login page and the dashboard, with the service's defaults:
 * always `HttpOnly` and `SameSite`, `Secure` whenever the service is reached over https (as the
 * public base address or the request says), scoped to the realm's path.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { baseUrlOf, type ServiceContext } from '../context';

/** The request's cookies (first value of each name wins, as browsers send the most specific first). */
export function readCookies(request: FastifyRequest): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === '' || name in cookies) continue;
    cookies[name] = part.slice(eq + 1).trim();
  }
  return cookies;
}

/** Where and how a cookie is set. */
export interface CookieOptions {
  path: string;
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  sameSite: 'Strict' | 'Lax';
}

/** Values the service sets are base64url and dots only, so they need no quoting or escaping. */
const COOKIE_VALUE = /^[A-Za-z0-9._-]*$/;

/** Adds a `Set-Cookie` header with the service's defaults. */
export function setCookie(
  reply: FastifyReply,
  ctx: ServiceContext,
  request: FastifyRequest,
  name: string,
  value: string,
  options: CookieOptions,
): void {
  if (!COOKIE_VALUE.test(value)) throw new Error(`cookie ${name} has a value that needs escaping`);
  const secure = baseUrlOf(request, ctx).startsWith('https:');
  const attributes = [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    'HttpOnly',
    `SameSite=${options.sameSite}`,
    ...(secure ? ['Secure'] : []),
  ];
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous.map(String) : [String(previous)];
  reply.header('set-cookie', [...list, attributes.join('; ')]);
}

/** Deletes a cookie set with {@link setCookie} at `path`. */
export function clearCookie(reply: FastifyReply, ctx: ServiceContext, request: FastifyRequest, name: string, path: string): void {
  setCookie(reply, ctx, request, name, '', { path, maxAge: 0, sameSite: 'Lax' });
}
