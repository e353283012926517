/**
 * How an API request is sent. {@link composeApiDispatcher} stacks the cross-cutting behaviour onto
 * the client's dispatcher as undici interceptors (`./interceptors/`); {@link sendApiRequest} builds
 * the request, sends it through that dispatcher and returns the 2xx answer; every failure becomes
 * its typed error in `./failures`, carrying what every attempt got. Client methods only build paths and
 * read bodies; none of this is repeated per method.
 *
 * The chain, outermost first (`compose()` lists it the other way round):
 *
 * 1. retry (`./interceptors/retry`): the policy of `./retry-policy`: 429 and 503 with
 *    `Retry-After` for every request; 502/503/504, timeouts and dropped connections for repeatable
 *    ones (idempotent methods, and creates that carry a client-chosen id, marked
 *    {@link ApiRequest.repeatable}). It writes every failed attempt down in the request's record.
 * 2. auth (`./interceptors/auth`): the bearer token of the request's realm, one refresh after a
 *    401 (not a retry), and no token in any answer passed up. The token fetch is the token
 *    source's business: it is bounded by the token source's own timeout and retried inside its
 *    single flight (once for all waiting calls), and a failure it reports is final here.
 * 3. timeout (`./interceptors/timeout`): `timeoutMs` for each exchange with the service
 *    (headers and body); the retry interceptor sees a timeout as a failed attempt.
 *
 * The caller's `AbortSignal` stops everything, including a backoff wait; its reason is thrown as is.
 */
import type { Dispatcher } from 'undici';
import { errorOfApiAnswer } from './failures';
import { authInterceptor } from './interceptors/auth';
import { newRequestRecord, sendRecorded, type RecordedAnswer } from './interceptors/request-record';
import { retryInterceptor, type RetryInterceptorSettings } from './interceptors/retry';
import { timeoutInterceptor } from './interceptors/timeout';
import type { TimerFunction } from './transport';
import type { TokenSource } from './token-source';

/** The HTTP methods the service's API uses. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Query parameters; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

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

/** What the interceptor chain of {@link composeApiDispatcher} needs; the client fills in every default. */
export interface ApiDispatcherOptions extends RetryInterceptorSettings {
  /** Supplies bearer tokens per realm. */
  tokenSource: TokenSource;
  /** Limit per attempt, in milliseconds. */
  timeoutMs: number;
  /** Times each attempt's limit. */
  timer: TimerFunction;
}

/** `base` with the SDK's interceptors composed onto it: retry, then auth, then the per-attempt timeout. */
export function composeApiDispatcher(base: Dispatcher, options: ApiDispatcherOptions): Dispatcher {
  const { tokenSource, timeoutMs, timer, ...retry } = options;
  // compose() calls the last interceptor first.
  return base.compose(timeoutInterceptor(timeoutMs, timer), authInterceptor(tokenSource), retryInterceptor(retry));
}

/** Where API requests go and how they introduce themselves. */
export interface ApiEndpoint {
  /** The service's origin, e.g. `https://acme.example.com`. */
  origin: string;
  /** The base address's path prefix without a trailing slash ('' for none). */
  prefix: string;
  /** The `User-Agent` header. */
  userAgent: string;
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
  /**
   * Sending the request twice has the effect of sending it once although its method is not
   * idempotent (a create that carries a client-chosen id). Idempotent methods are repeatable anyway.
   */
  repeatable?: boolean;
}

/** A successful answer (status 200–299), body read in full. */
export type ApiResponse = RecordedAnswer;

/** The request's headers and body, as sent. */
function encodeBody(request: ApiRequest): { contentType?: string; body?: string } {
  if (request.json !== undefined) return { contentType: 'application/json', body: JSON.stringify(request.json) };
  if (request.form === undefined) return {};
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(request.form)) if (value !== undefined) form.append(key, value);
  return { contentType: 'application/x-www-form-urlencoded', body: form.toString() };
}

/**
 * Sends `request` through `dispatcher` (composed by {@link composeApiDispatcher}) and returns its
 * 2xx answer, or throws: an {@link HttpError} subclass for an error status, {@link TimeoutError},
 * {@link NetworkError}, a {@link TokenError} from the token source, or the caller's abort reason.
 * SDK errors carry {@link OrgAdminError.attempts}.
 */
export async function sendApiRequest(dispatcher: Dispatcher, endpoint: ApiEndpoint, request: ApiRequest): Promise<ApiResponse> {
  const { method, path, signal } = request;
  signal?.throwIfAborted();
  const { contentType, body } = encodeBody(request);
  const record = newRequestRecord({ method, path, realm: request.realm, repeatable: request.repeatable });
  const { status, headers, text } = await sendRecorded(
    dispatcher,
    {
      origin: endpoint.origin,
      path: `${endpoint.prefix}${path}${encodeQuery(request.query)}`,
      method,
      headers: {
        accept: 'application/json',
        'user-agent': endpoint.userAgent,
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      body,
      signal,
    },
    record,
  );
  if (status >= 200 && status < 300) return { status, headers, text };
  throw errorOfApiAnswer(status, headers, text, record);
}
