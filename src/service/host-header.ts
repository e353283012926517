/**
 * The `Host` header rule: every request names exactly one, well-formed host. The service builds
 * its issuer, `Location` headers, discovery URLs and portal links from it (unless a public base
 * URL is configured) and pins realms by it, so a missing, repeated, empty or malformed `Host`
 * would give a malformed issuer or an ambiguous realm. Such a request is a 400 `invalid_request`
 * in the service's JSON shape (Node's own check, which answers with an empty body, is turned off
 * in `app.ts` so that this one answers instead).
 */
import type { FastifyRequest } from 'fastify';
import { ServiceError } from './errors';

/**
 * A host as RFC 3986 allows it in `Host` (reg-name of DNS characters, IPv4, or a bracketed IPv6
 * literal) with an optional port: nothing that could break out of `http://{host}/realms/…`.
 */
const HOST_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,251}[A-Za-z0-9.])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The `Host` values of a request as sent (Node keeps only the first in `headers.host`). */
function hostValues(request: FastifyRequest): string[] {
  const raw = request.raw.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i].toLowerCase() === 'host') values.push(raw[i + 1]);
  return values;
}

/** Why a request's `Host` is refused, or undefined when it is acceptable. */
export function hostProblem(values: string[]): string | undefined {
  if (values.length === 0) return 'The request has no Host header.';
  if (values.length > 1) return 'The request has more than one Host header.';
  const host = values[0].trim();
  if (host === '') return 'The request has an empty Host header.';
  if (!HOST_VALUE.test(host)) return 'The Host header is not a valid host name with an optional port.';
  return undefined;
}

/** onRequest hook of every route (and of the not-found handler): refuses a bad `Host`. */
export async function requireOneHost(request: FastifyRequest): Promise<void> {
  const problem = hostProblem(hostValues(request));
  if (problem !== undefined) throw new ServiceError(400, 'invalid_request', problem);
}
