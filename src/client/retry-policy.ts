/**
 * The SDK's retry policy, in one place: which failed attempts are tried again, how long to wait
 * first, and how each attempt is described in errors. The retry interceptor
 * (`./interceptors/retry`) applies it, to API requests and to the token source's token requests
 * alike; the Java SDK (`java/`) mirrors it.
 *
 * A retry follows what the failed attempt tells about the service, not only the method:
 *
 * | What the attempt got | Retried for |
 * |---|---|
 * | 429, or 503 with `Retry-After` | every request: the service says it did nothing |
 * | 502, 503 (without `Retry-After`), 504 | repeatable requests only |
 * | a timeout, or a connection dropped after the request was sent | repeatable requests only |
 * | a refused connection (`ECONNREFUSED`): nothing was sent | every request |
 * | anything else (4xx, an answer that is not what the service sends) | never |
 *
 * A request is *repeatable* when sending it twice has the effect of sending it once: GET, HEAD,
 * PUT and DELETE (RFC 9110 §9.2.2), the token request (a second token is harmless), and a create
 * that carries a client-chosen id (the second attempt meets the first one's organization and is
 * answered 409 for that id, which the caller recognises).
 *
 * Waits: `Retry-After` when the answer gave one (capped), otherwise exponential backoff with full
 * jitter: a random wait in `[0, min(max, base * 2^retry))`.
 */

/** What one failed attempt got. */
export type AttemptFailure =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterSeconds?: number }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'network'; readonly code: string | undefined };

/** How often and how long to retry. */
export interface RetrySettings {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** First backoff ceiling, in milliseconds; doubles per retry. */
  readonly retryBaseDelayMs: number;
  /** Cap of every wait, backoff or `Retry-After`, in milliseconds. */
  readonly retryMaxDelayMs: number;
  /** Random source of the jitter, in [0, 1). */
  readonly random: () => number;
}

/** Default {@link RetrySettings} values of the SDK. */
export const DEFAULT_RETRY_SETTINGS = {
  maxRetries: 3,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 10_000,
} as const;

/** Methods that may be sent twice with the same effect (RFC 9110 §9.2.2). */
export function isIdempotent(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE';
}

/** Statuses that say "try again later" for a repeatable request. */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/** Connection failures after which a repeatable request is worth another try. */
const DROPPED_CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Failures that prove the service did nothing with the request. */
function serviceDidNothing(failure: AttemptFailure): boolean {
  if (failure.kind === 'status') {
    return failure.status === 429 || (failure.status === 503 && failure.retryAfterSeconds !== undefined);
  }
  return failure.kind === 'network' && failure.code === 'ECONNREFUSED';
}

/**
 * True when an attempt that failed with `failure` may be tried again. `repeatable`: sending the
 * request twice has the effect of sending it once (see the table at the top).
 */
export function isRetryable(failure: AttemptFailure, repeatable: boolean): boolean {
  if (serviceDidNothing(failure)) return true;
  if (!repeatable) return false;
  switch (failure.kind) {
    case 'status':
      return UNAVAILABLE_STATUSES.has(failure.status);
    case 'timeout':
      return true;
    case 'network':
      return failure.code !== undefined && DROPPED_CONNECTION_CODES.has(failure.code);
  }
}

/**
 * Exponential backoff with full jitter: a random wait in `[0, min(maxMs, baseMs * 2^retry))`,
 * where `retry` counts from 0. Full jitter spreads clients that failed together.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Milliseconds to wait before retry number `retry` (from 0) after `failure`. */
export function delayBeforeRetry(failure: AttemptFailure, retry: number, settings: RetrySettings): number {
  if (failure.kind === 'status' && failure.retryAfterSeconds !== undefined) {
    return Math.min(failure.retryAfterSeconds * 1000, settings.retryMaxDelayMs);
  }
  return backoffDelay(retry, settings.retryBaseDelayMs, settings.retryMaxDelayMs, settings.random);
}

/** One line for an attempt in an error: `503 (Retry-After 1 s)`, `timed out after 2000 ms`, `connection dropped (ECONNRESET)`. */
export function describeAttempt(failure: AttemptFailure): string {
  switch (failure.kind) {
    case 'status':
      return failure.retryAfterSeconds !== undefined
        ? `HTTP ${failure.status} (Retry-After ${failure.retryAfterSeconds} s)`
        : `HTTP ${failure.status}`;
    case 'timeout':
      return `timed out after ${failure.timeoutMs} ms`;
    case 'network':
      return failure.code === 'ECONNREFUSED'
        ? 'connection refused (ECONNREFUSED)'
        : `connection failed${failure.code ? ` (${failure.code})` : ''}`;
  }
}

/**
 * Why a failed request was not tried (again), for people: empty when it was retried until the
 * limit, otherwise the rule that stopped it.
 */
export function whyNotRetried(failure: AttemptFailure, repeatable: boolean, attempts: number, maxRetries: number): string {
  if (isRetryable(failure, repeatable)) {
    if (maxRetries === 0) return 'not retried (max_retries = 0)';
    return attempts > maxRetries ? `gave up after ${attempts} attempts (max_retries = ${maxRetries})` : '';
  }
  if (!repeatable && (failure.kind !== 'status' || UNAVAILABLE_STATUSES.has(failure.status))) {
    return 'not retried: the request may have been carried out, and sending it again could do it twice';
  }
  // An answer such as 400 or 404: asking again would get the same answer, which needs no comment.
  return '';
}
