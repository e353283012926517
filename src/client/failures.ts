/**
 * Where the SDK's failures become its errors: the one module that turns what an exchange with the
 * service came to, when it is not a success, into the typed errors of `./errors`.
 *
 * - A transport failure (timeout, dropped or refused connection) of any request, API or token:
 *   {@link errorOfTransportFailure}, called by the sender of every request
 *   (`./interceptors/request-record`).
 * - An error status of an API request: {@link errorOfApiAnswer} (`./http`).
 * - An error status of the token endpoint: {@link errorOfTokenAnswer} (`./token-source`).
 *
 * Each error carries the attempt log the retry interceptor wrote into the request's record.
 * Answers with a success status that do not read as the contract says are the readers' business
 * (`UnexpectedResponseError` in `./client` and `./response-checks`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  createHttpError,
  formatHttpErrorMessage,
  NetworkError,
  OrgAdminError,
  recordAttempts,
  TimeoutError,
  TokenError,
  UnauthorizedError,
  type HttpErrorDetails,
} from './errors';
import type { RequestRecord } from './interceptors/request-record';
import { parseRetryAfter, readErrorBody, transportFailure } from './transport';

/**
 * `error` with the record's attempt log (see {@link recordAttempts}), when it is an SDK error and
 * the retry interceptor saw the attempts fail; anything else is returned unchanged.
 */
export function withAttemptLog(error: unknown, record: RequestRecord): unknown {
  if (!(error instanceof OrgAdminError) || record.outcomes.length === 0) return error;
  return recordAttempts(error, { outcomes: [...record.outcomes], stoppedBecause: record.stoppedBecause });
}

/**
 * Turns what the transport threw into an SDK error for `request` (method and API path): a
 * timeout becomes {@link TimeoutError}, a connection failure {@link NetworkError}; anything else
 * (see `transportFailure`) is returned unchanged.
 */
export function toTransportError(error: unknown, request: { method: string; path: string }): unknown {
  const failure = transportFailure(error);
  if (failure === undefined) return error;
  if (failure.kind === 'timeout') {
    return new TimeoutError({ method: request.method, path: request.path, timeoutMs: failure.timeoutMs }, { cause: error });
  }
  const code = failure.kind === 'network' ? failure.code : undefined;
  const reason = error instanceof Error && error.message ? error.message : code;
  return new NetworkError({ method: request.method, path: request.path, causeCode: code, reason }, { cause: error });
}

/**
 * What a request that got no final answer rejects with: the caller's abort reason as is (when its
 * signal aborted); an SDK error that an interceptor passed up as final (the token source's, with
 * its own attempt log) as is; otherwise the transport failure as {@link TimeoutError} or
 * {@link NetworkError} carrying the record's attempt log.
 */
export function errorOfTransportFailure(error: unknown, record: RequestRecord, signal: AbortSignal | undefined): unknown {
  signal?.throwIfAborted();
  if (error instanceof OrgAdminError) return error;
  return withAttemptLog(toTransportError(error, record), record);
}

/** The typed error of an API answer outside 2xx, with the attempt log of its request. */
export function errorOfApiAnswer(status: number, headers: IncomingHttpHeaders, text: string, record: RequestRecord): unknown {
  const read = readErrorBody(text);
  const retryAfterSeconds = parseRetryAfter(headers['retry-after']);
  const details: HttpErrorDetails = {
    status,
    error: read.error,
    errorDescription: read.errorDescription,
    method: record.method,
    path: record.path,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
  const error =
    status === 401
      ? new UnauthorizedError({
          ...details,
          message:
            `${formatHttpErrorMessage(details)}. The credentials were refused` +
            `${record.tokenRefreshed ? ' even with a fresh token' : ''}: the API key or token is wrong, expired or revoked, ` +
            'or it lacks the permission for this operation (the hosted service answers 401 where orgadmin answers 403).',
        })
      : createHttpError(details);
  return withAttemptLog(error, record);
}

/**
 * The {@link TokenError} of a token endpoint answer other than 200, with the attempt log of its
 * request. `scrubbedText` is the body with the client secret already removed: the excerpt of a
 * non-JSON body is cut to a length, and a cut made before the scrub could leave a prefix of the
 * secret that no longer matches it.
 */
export function errorOfTokenAnswer(realm: string, status: number, headers: IncomingHttpHeaders, scrubbedText: string, record: RequestRecord): unknown {
  const read = readErrorBody(scrubbedText);
  const retryAfterSeconds = parseRetryAfter(headers['retry-after']);
  const error = new TokenError({
    realm,
    status,
    error: read.error,
    errorDescription: read.errorDescription,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
  return withAttemptLog(error, record);
}
