/**
 * The SDK's one request pipeline. Every API call goes through {@link RequestPipeline.send}, which
 * adds the bearer token, applies the timeout, retries with backoff, refreshes the token once after
 * a 401 and turns error answers into the typed errors of `./errors`. Client methods only build
 * paths and read bodies; none of this is repeated per method.
 *
 * Retry policy (one place, here):
 * - Idempotent methods (GET, HEAD, PUT, DELETE) are retried on 429 (waiting `Retry-After`, capped
 *   by `retryMaxDelayMs`), 502, 503, 504 and on network errors (connection reset or refused,
 *   socket closed, broken pipe, connect timeout, temporary DNS failure), up to `maxRetries` times
 *   with exponential backoff and full jitter.
 * - POST (create organization, portal link) is never retried after anything may have reached the
 *   service: only a refused connection (`ECONNREFUSED`, which happens before a byte is sent) is
 *   retried.
 * - The token request is a POST too, but asking for a token twice only issues two tokens, so the
 *   pipeline retries the whole attempt when the token endpoint answers 429 (waiting `Retry-After`:
 *   it shares the API key's rate limit with the API calls), 502, 503 or 504, or refused the
 *   connection. Other transport failures of the token request are not retried, as for a POST.
 *   The token source itself never retries.
 * - A timeout (`timeoutMs`, per attempt, covering the token fetch, the headers and the body) is
 *   never retried: waiting that long again is rarely what the caller wants.
 * - A 401 is answered by dropping the token, fetching a fresh one and sending once more, for any
 *   method (a 401 means the service did nothing). This does not count as a retry.
 * - The caller's `AbortSignal` stops everything, including a backoff wait; its reason is thrown as is.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { isErrorBody } from '../api';
import {
  createHttpError,
  formatHttpErrorMessage,
  NetworkError,
  OrgAdminError,
  TimeoutError,
  TokenError,
  UnauthorizedError,
  type HttpErrorDetails,
} from './errors';
import type { TokenSource } from './token-source';

/** The HTTP methods the service's API uses. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

/** Query parameters; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** Waits `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
export type SleepFunction = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The default {@link SleepFunction}: a timer that rejects with the signal's own reason on abort.
 * It keeps the process alive on purpose: a script awaiting a retry must not exit half-way.
 */
export const defaultSleep: SleepFunction = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Methods that may be sent twice with the same effect (RFC 9110 §9.2.2). */
export function isIdempotent(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE';
}

/** Statuses that say "try again later" for an idempotent request. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Connection failures that are worth another try of an idempotent request. */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The code of a transport error: its own `code`, or that of its cause or of the first of an
 * `AggregateError` (Node's happy-eyeballs connect reports one per address).
 */
export function transportErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0) return transportErrorCode(errors[0]);
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined || cause === error ? undefined : transportErrorCode(cause);
}

/**
 * Turns what undici threw into an SDK error: a timeout (our timer fired, or undici's headers or
 * body timeout) becomes {@link TimeoutError}; anything else becomes {@link NetworkError}.
 * Programming errors (undici's invalid-argument errors) are returned unchanged.
 */
export function toTransportError(
  error: unknown,
  request: { method: string; path: string; timeoutMs: number; timedOut: boolean },
): unknown {
  if (error instanceof OrgAdminError) return error;
  const code = transportErrorCode(error);
  if (
    request.timedOut ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    (error instanceof Error && error.name === 'TimeoutError')
  ) {
    return new TimeoutError({ method: request.method, path: request.path, timeoutMs: request.timeoutMs }, { cause: error });
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_INVALID_RETURN_VALUE') return error;
  const reason = error instanceof Error && error.message ? error.message : code;
  return new NetworkError({ method: request.method, path: request.path, causeCode: code, reason }, { cause: error });
}

/** True when a transport failure may be retried for this method (see the policy above). */
export function isRetryableNetworkError(error: NetworkError, method: string): boolean {
  if (error.causeCode === undefined) return false;
  if (error.causeCode === 'ECONNREFUSED') return true;
  return isIdempotent(method) && RETRYABLE_NETWORK_CODES.has(error.causeCode);
}

/**
 * Reads `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns whole seconds to
 * wait (0 for a date in the past), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Exponential backoff with full jitter: a random wait in `[0, min(maxMs, baseMs * 2^retry))`,
 * where `retry` counts from 0. Full jitter spreads clients that failed together.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Renders query parameters with `encodeURIComponent` (spaces as `%20`, which every server reads). */
export function encodeQuery(query: QueryParams | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** Longest excerpt of a non-JSON error body kept in an error. */
const BODY_EXCERPT_LENGTH = 200;

/**
 * Reads an error body: the service's `{"error","error_description"}` when it is one, otherwise a
 * short, single-line excerpt of whatever came back (a proxy's HTML page, plain text).
 */
export function readErrorBody(text: string): { error?: string; errorDescription?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (isErrorBody(parsed)) return { error: parsed.error, errorDescription: parsed.error_description };
    if (typeof parsed === 'object' && parsed !== null) {
      const error = (parsed as { error?: unknown }).error;
      const description = (parsed as { error_description?: unknown }).error_description;
      if (typeof error === 'string' || typeof description === 'string') {
        return {
          error: typeof error === 'string' ? error : undefined,
          errorDescription: typeof description === 'string' ? description : undefined,
        };
      }
    }
  } catch {
    // Not JSON: fall through to the excerpt.
  }
  const oneLine = trimmed.replace(/\s+/g, ' ');
  return {
    errorDescription: oneLine.length > BODY_EXCERPT_LENGTH ? `${oneLine.slice(0, BODY_EXCERPT_LENGTH)}…` : oneLine,
  };
}

/** Replaces every occurrence of `secret` in `text`, so an echoing proxy cannot leak a token. */
function redact(text: string | undefined, secret: string | undefined): string | undefined {
  if (text === undefined || !secret) return text;
  return text.split(secret).join('[redacted]');
}

/** How the pipeline behaves; the client fills in every default. */
export interface RequestPipelineOptions {
  /** Origin plus optional path prefix, without a trailing slash. */
  baseUrl: string;
  /** Supplies bearer tokens per realm. */
  tokenSource: TokenSource;
  /** Sends the requests. */
  dispatcher: Dispatcher;
  /** Limit per attempt, in milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff ceiling, in milliseconds. */
  retryBaseDelayMs: number;
  /** Cap of every wait, backoff or `Retry-After`, in milliseconds. */
  retryMaxDelayMs: number;
  /** The `User-Agent` header. */
  userAgent: string;
  /** Waits between attempts (tests inject one that records). */
  sleep: SleepFunction;
  /** Random source of the jitter, in [0, 1). */
  random: () => number;
}

/** One API request. */
export interface ApiRequest {
  /** The method. */
  method: HttpMethod;
  /** The path from `src/api/paths`, without the base address's prefix or the query. */
  path: string;
  /** Query parameters. */
  query?: QueryParams;
  /** A JSON body. */
  json?: unknown;
  /** A form body (`application/x-www-form-urlencoded`). */
  form?: Record<string, string | undefined>;
  /** Whose token to send. */
  realm: string;
  /** The caller's cancellation. */
  signal?: AbortSignal;
}

/** A successful (2xx) answer, body read in full. */
export interface ApiResponse {
  /** The status, 200–299. */
  status: number;
  /** Response headers (lower-case names). */
  headers: IncomingHttpHeaders;
  /** The body as text ('' when empty). */
  text: string;
}

/** Why one attempt failed and whether to try again. */
type AttemptOutcome =
  | { kind: 'ok'; response: ApiResponse }
  | { kind: 'unauthorized'; token: string; details?: HttpErrorDetails }
  | { kind: 'fail'; error: unknown; retryable: boolean; retryAfterSeconds?: number };

/**
 * Sends API requests with authentication, timeout, retries and typed errors. One instance per
 * client; safe for concurrent use.
 */
export class RequestPipeline {
  private readonly origin: string;
  private readonly prefix: string;

  /** @param options every setting, defaults already applied */
  constructor(private readonly options: RequestPipelineOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
  }

  /**
   * Sends `request` and returns its 2xx answer, or throws: an {@link HttpError} subclass for an
   * error status, {@link TimeoutError}, {@link NetworkError}, a {@link TokenError} from the token
   * source, or the caller's abort reason.
   */
  async send(request: ApiRequest): Promise<ApiResponse> {
    const { signal } = request;
    let retries = 0;
    // The token a 401 rejected, and what that 401 said; set once, since we refresh only once.
    let rejected: { token: string; details: HttpErrorDetails } | undefined;
    for (;;) {
      signal?.throwIfAborted();
      const outcome = await this.attempt(request, rejected?.token);
      if (outcome.kind === 'ok') return outcome.response;
      if (outcome.kind === 'unauthorized') {
        // The token may have been revoked, expired early or signed with a rotated key: one fresh
        // token, one more try. A 401 that survives that is about the credentials themselves.
        if (rejected === undefined && outcome.details !== undefined) {
          rejected = { token: outcome.token, details: outcome.details };
          this.options.tokenSource.invalidate(request.realm, outcome.token);
          continue;
        }
        // Without details of its own the token source had no other token to offer (a static token).
        const refreshed = outcome.details !== undefined;
        const details = outcome.details ?? rejected!.details;
        throw new UnauthorizedError({
          ...details,
          message:
            `${formatHttpErrorMessage(details)}. The credentials were refused` +
            `${refreshed ? ' even with a fresh token' : ''}: the API key or token is wrong, expired or revoked, ` +
            'or it lacks the permission for this operation (the hosted service answers 401 where orgadmin answers 403).',
        });
      }
      if (!outcome.retryable || retries >= this.options.maxRetries) throw outcome.error;
      const wait =
        outcome.retryAfterSeconds !== undefined
          ? Math.min(outcome.retryAfterSeconds * 1000, this.options.retryMaxDelayMs)
          : backoffDelay(retries, this.options.retryBaseDelayMs, this.options.retryMaxDelayMs, this.options.random);
      retries += 1;
      await this.options.sleep(wait, signal);
    }
  }

  /** A signal for one attempt: the caller's cancellation or our timeout, whichever comes first. */
  private attemptSignal(callerSignal: AbortSignal | undefined): { signal: AbortSignal; timeout: AbortSignal } {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    return { signal: callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout, timeout };
  }

  /**
   * One exchange: token, request, full body. Never throws except on the caller's abort. When the
   * token source hands out `rejectedToken` again (a static token), the request is not sent: the
   * outcome is a final "unauthorized" without details of its own.
   */
  private async attempt(request: ApiRequest, rejectedToken: string | undefined): Promise<AttemptOutcome> {
    const { method, path } = request;
    const { signal, timeout } = this.attemptSignal(request.signal);
    const fail = (error: unknown): AttemptOutcome => {
      request.signal?.throwIfAborted();
      const mapped = toTransportError(error, { method, path, timeoutMs: this.options.timeoutMs, timedOut: timeout.aborted });
      return { kind: 'fail', error: mapped, retryable: mapped instanceof NetworkError && isRetryableNetworkError(mapped, method) };
    };

    let token: string;
    try {
      token = await this.options.tokenSource.getToken(request.realm, { signal });
    } catch (error) {
      request.signal?.throwIfAborted();
      if (error instanceof NetworkError) {
        // The API request was not sent; the token request is a POST, so only a refused connection
        // is safe to try again (see the policy at the top).
        return { kind: 'fail', error, retryable: isRetryableNetworkError(error, 'POST') };
      }
      if (error instanceof TokenError && error.status !== undefined && RETRYABLE_STATUSES.has(error.status)) {
        // "Try again later" from the token endpoint: another try issues at most one more token.
        return {
          kind: 'fail',
          error,
          retryable: true,
          ...(error.status === 429 && error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
        };
      }
      if (error instanceof OrgAdminError) return { kind: 'fail', error, retryable: false };
      return fail(error);
    }

    if (token === rejectedToken) return { kind: 'unauthorized', token };

    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(request.form)) if (value !== undefined) form.append(key, value);
      body = form.toString();
    }

    let status: number;
    let responseHeaders: IncomingHttpHeaders;
    let text: string;
    try {
      const response = await this.options.dispatcher.request({
        origin: this.origin,
        path: `${this.prefix}${path}${encodeQuery(request.query)}`,
        method,
        headers,
        body,
        signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      status = response.statusCode;
      responseHeaders = response.headers;
      text = await response.body.text();
    } catch (error) {
      return fail(error);
    }

    if (status >= 200 && status < 300) return { kind: 'ok', response: { status, headers: responseHeaders, text } };

    const read = readErrorBody(text);
    const retryAfterSeconds = parseRetryAfter(responseHeaders['retry-after']);
    const details: HttpErrorDetails = {
      status,
      error: redact(read.error, token),
      errorDescription: redact(read.errorDescription, token),
      method,
      path,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    };
    if (status === 401) return { kind: 'unauthorized', token, details };
    return {
      kind: 'fail',
      error: createHttpError(details),
      retryable: isIdempotent(method) && RETRYABLE_STATUSES.has(status),
      ...(status === 429 && retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    };
  }
}
