/**
 * The `Host` header rule: every request names exactly one, well-formed host. The service builds
 * its issuer, `Location` headers, discovery URLs and portal links from it (unless a public base
 * URL is configured) and pins realms by it, so a missing, repeated, empty or malformed `Host`
 * would give a malformed issuer or an ambiguous realm. Such a request is a 400 `invalid_request`
 * in the service's JSON shape (Node's own check, which answers with an empty body, is turned off
 * in `app.ts` so that this one answers instead).
 */
import type { FastifyError, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ServiceError } from './errors';

/**
 * A host as RFC 3986 allows it in `Host` (reg-name of DNS characters, IPv4, or a bracketed IPv6
 * literal) with an optional port: nothing that could break out of `http://{host}/realms/…`.
 */
const HOST_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,251}[A-Za-z0-9.])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * Why a request's `Host` is refused, or undefined when it is acceptable. `rawHeaders` is Node's
 * list of the headers as sent (name, value, name, value, …): Node keeps only the first `Host` in
 * `headers.host`, so a repeated one is only visible there. One pass, nothing allocated for the
 * other headers: this runs before every request.
 */
export function hostProblem(rawHeaders: readonly string[]): string | undefined {
  let host: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (host !== undefined) return 'The request has more than one Host header.';
    host = rawHeaders[i + 1];
  }
  if (host === undefined) return 'The request has no Host header.';
  const trimmed = host.trim();
  if (trimmed === '') return 'The request has an empty Host header.';
  if (!HOST_VALUE.test(trimmed)) return 'The Host header is not a valid host name with an optional port.';
  return undefined;
}

/**
 * onRequest hook of every route (and of the not-found handler): refuses a bad `Host`. A callback
 * hook, not an async one: it never waits, and a promise per request is pure overhead.
 */
export function requireOneHost(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const problem = hostProblem(request.raw.rawHeaders);
  done(problem === undefined ? undefined : (new ServiceError(400, 'invalid_request', problem) as unknown as FastifyError));
}

/**
 * One entry of an allowed-hosts list: a host name or address, or `*.` and a domain for any of its
 * subdomains (realms addressed as `acme.DOMAIN`). No port: a host is allowed on every port.
 */
const ALLOWED_HOST_ENTRY = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]{2,45}\]$/;

/** Why `entry` cannot be in an allowed-hosts list, or undefined. Entries are compared without case. */
export function allowedHostProblem(entry: string): string | undefined {
  return ALLOWED_HOST_ENTRY.test(entry.toLowerCase()) ? undefined : 'is not a host name, an address or *.DOMAIN (no scheme, port or path)';
}

/** The host name of a checked `Host` value: lower case, without port or a trailing dot. */
function hostNameOf(host: string): string {
  const trimmed = host.trim().toLowerCase();
  const name = trimmed.startsWith('[') ? trimmed.slice(0, trimmed.indexOf(']') + 1) : trimmed.replace(/:\d+$/, '');
  return name.replace(/\.$/, '');
}

/**
 * Whether a request's (checked) `Host` names a host of `allowed` (all hosts when `allowed` is
 * undefined): exactly, or as a subdomain of a `*.DOMAIN` entry. The service builds its issuer,
 * redirects and links from `Host` unless a public URL is set, so behind a proxy that forwards the
 * client's `Host`, only the hosts the service really answers for may be named.
 */
export function hostAllowed(allowed: readonly string[] | undefined, host: string | undefined): boolean {
  if (allowed === undefined) return true;
  if (host === undefined) return false;
  const name = hostNameOf(host);
  return allowed.some((entry) => {
    const lower = entry.toLowerCase();
    return lower.startsWith('*.') ? name.endsWith(lower.slice(1)) : name === lower;
  });
}

/** The refusal of a `Host` outside the allowed hosts: 400 `invalid_request`, as for a bad `Host`. */
export const hostNotAllowed = (): ServiceError =>
  new ServiceError(400, 'invalid_request', 'The Host header names a host this service does not answer for.');

/** onRequest hook (after {@link requireOneHost}) that refuses a `Host` outside `allowed`. */
export function requireAllowedHost(allowed: readonly string[]) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    done(hostAllowed(allowed, request.headers.host) ? undefined : (hostNotAllowed() as unknown as FastifyError));
  };
}
