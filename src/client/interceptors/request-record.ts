/**
 * The record of one request that travels with it through the interceptors, as the `orgadmin`
 * field of undici's dispatch options (the way undici's own `dns` interceptor reads `opts.dns`).
 * The sender creates it and reads it back once the answer or the error arrives: what the retry
 * and auth interceptors need to know about the request (its realm, whether it is repeatable), and
 * what they write down about it (the attempt log that errors carry). {@link sendRecorded} is that
 * round trip, for the API requests (`../http`) and the token requests (`../token-source`) alike.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { isIdempotent } from '../retry-policy';
import { errorOfTransportFailure } from '../failures';
import { sendBuffered } from './buffered';

/** Decodes answer bodies as undici's `body.text()` does: UTF-8, a leading byte order mark dropped. */
const utf8 = new TextDecoder();

/** What the interceptors know and write down about one request. */
export interface RequestRecord {
  /** The method, as errors name it. */
  readonly method: string;
  /** The API path without the base address's prefix or the query, as errors name it. */
  readonly path: string;
  /** Whose bearer token the auth interceptor adds; absent for a request without one (the token request). */
  readonly realm?: string;
  /** Sending it twice has the effect of sending it once (see `../retry-policy`). */
  readonly repeatable: boolean;
  /** Called before every attempt the retry interceptor sends (the token source counts and times them). */
  readonly onAttempt?: () => void;
  /** What each failed attempt got, oldest first; interceptors append. */
  readonly outcomes: string[];
  /** Why no further attempt was made, once the retry interceptor gave up. */
  stoppedBecause: string;
  /** Set by the auth interceptor once it replaced a token a 401 rejected (it does so once per request). */
  tokenRefreshed: boolean;
}

/** Dispatch options that carry a {@link RequestRecord}. */
export type RecordedDispatchOptions = Dispatcher.DispatchOptions & { orgadmin?: RequestRecord };

/** A new record; `repeatable` defaults to whether the method is idempotent. */
export function newRequestRecord(request: {
  method: string;
  path: string;
  realm?: string;
  repeatable?: boolean;
  onAttempt?: () => void;
}): RequestRecord {
  return {
    ...request,
    repeatable: request.repeatable === true || isIdempotent(request.method),
    outcomes: [],
    stoppedBecause: '',
    tokenRefreshed: false,
  };
}

/**
 * The record of the request `opts` describes. A request dispatched without one (not sent by the
 * SDK) gets a fresh record, so the interceptors behave the same; nobody reads it back.
 */
export function recordOf(opts: Dispatcher.DispatchOptions): RequestRecord {
  const record = (opts as RecordedDispatchOptions).orgadmin;
  if (record) return record;
  const fresh = newRequestRecord({ method: opts.method, path: opts.path });
  (opts as RecordedDispatchOptions).orgadmin = fresh;
  return fresh;
}

/** A final answer, body read in full. */
export interface RecordedAnswer {
  /** The HTTP status. */
  status: number;
  /** Response headers (lower-case names). */
  headers: IncomingHttpHeaders;
  /** The body as text ('' when empty). */
  text: string;
}

/**
 * Sends a request with `record` through `dispatcher` (composed with the interceptors) and reads
 * the final answer, whatever its status. Without a final answer it rejects with what
 * `errorOfTransportFailure` (`../failures`) makes of the failure.
 */
export async function sendRecorded(
  dispatcher: Dispatcher,
  request: Dispatcher.DispatchOptions & { signal?: AbortSignal },
  record: RequestRecord,
): Promise<RecordedAnswer> {
  const { signal, ...sent } = request;
  const options: RecordedDispatchOptions = { ...sent, orgadmin: record };
  try {
    // Dispatched and read in full as the interceptors below read it, rather than through
    // `dispatcher.request()`, whose body stream and async-context tracking cost a short-lived
    // process (the Terraform provider's) a visible share of its CPU per request.
    const answer = await sendBuffered((opts, handler) => dispatcher.dispatch(opts, handler), options, signal);
    return { status: answer.statusCode, headers: answer.headers, text: utf8.decode(answer.body) };
  } catch (error) {
    throw errorOfTransportFailure(error, record, request.signal);
  }
}
