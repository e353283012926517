/**
 * The SDK's errors, in one module (the undici style): a base class {@link OrgAdminError} with a
 * stable `code` from the closed union {@link OrgAdminErrorCode}, and one subclass per way a call
 * can fail. Switch on `code` (or use `instanceof`) to decide what to do.
 *
 * Messages and enumerable properties never carry an access token or a client secret: they name the
 * method, the path (without the query string), the status and the service's own error code and
 * sentence.
 */

/** Every `code` an {@link OrgAdminError} can have. The set is closed, so a `switch` narrows. */
export type OrgAdminErrorCode =
  | 'ORGADMIN_HTTP'
  | 'ORGADMIN_BAD_REQUEST'
  | 'ORGADMIN_UNAUTHORIZED'
  | 'ORGADMIN_FORBIDDEN'
  | 'ORGADMIN_NOT_FOUND'
  | 'ORGADMIN_CONFLICT'
  | 'ORGADMIN_RATE_LIMITED'
  | 'ORGADMIN_SERVER'
  | 'ORGADMIN_TOKEN'
  | 'ORGADMIN_TIMEOUT'
  | 'ORGADMIN_NETWORK'
  | 'ORGADMIN_UNEXPECTED_RESPONSE';

/** The base of every error the SDK throws on purpose. */
export class OrgAdminError extends Error {
  /** A stable, machine-readable code; see {@link OrgAdminErrorCode}. */
  readonly code: OrgAdminErrorCode;

  /**
   * @param message one sentence for people; never contains a token or a secret
   * @param code the stable code of the concrete error
   * @param options `cause`: the lower-level error, when there is one
   */
  /**
   * What each attempt of the request got, oldest first (`HTTP 503`, `timed out after 2000 ms`),
   * and why no further attempt was made. Set by the SDK when the request failed; the number of
   * entries is the number of attempts actually sent.
   */
  attempts?: AttemptLog;

  constructor(message: string, code: OrgAdminErrorCode, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OrgAdminError';
    this.code = code;
  }
}

/** The attempts of one failed request. */
export interface AttemptLog {
  /** One line per attempt sent, oldest first. */
  readonly outcomes: readonly string[];
  /** Why no further attempt was made (empty when the retry limit was reached). */
  readonly stoppedBecause: string;
}

/**
 * Records on `error` what each attempt got and appends a summary to its message, e.g.
 * `… (3 attempts: HTTP 503; timed out after 2000 ms; HTTP 502; gave up after 3 attempts)`.
 * A single attempt adds only the reason it was not retried.
 */
export function recordAttempts<T extends OrgAdminError>(error: T, log: AttemptLog): T {
  error.attempts = log;
  const suffix = attemptsSuffix(log);
  if (suffix) error.message = `${error.message}${suffix}`;
  return error;
}

/** The text {@link recordAttempts} appends to a message for `log` (empty when it appends none). */
function attemptsSuffix(log: AttemptLog): string {
  const count = log.outcomes.length;
  const parts = count > 1 ? [`${count} attempts: ${log.outcomes.join('; ')}`] : [];
  if (log.stoppedBecause) parts.push(log.stoppedBecause);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/**
 * The error's message without the attempts summary {@link recordAttempts} appended: for callers
 * that report {@link OrgAdminError.attempts} on their own.
 */
export function messageWithoutAttempts(error: Error): string {
  const log = error instanceof OrgAdminError ? error.attempts : undefined;
  const suffix = log ? attemptsSuffix(log) : '';
  return suffix && error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
}

/** True when `e` is one of the SDK's errors (any subclass of {@link OrgAdminError}). */
export function isOrgAdminError(e: unknown): e is OrgAdminError {
  return e instanceof OrgAdminError;
}

/** What an HTTP error answer said, and to which request. */
export interface HttpErrorDetails {
  /** The HTTP status of the answer. */
  status: number;
  /** The service's error code (`error` in the body), or undefined when the body had none. */
  error?: string;
  /** The service's sentence (`error_description`), or a short excerpt of a non-JSON body. */
  errorDescription?: string;
  /** The request method, e.g. `GET`. */
  method: string;
  /** The request path without the query string, e.g. `/realms/acme/orgs/42`. */
  path: string;
  /** Seconds the service asked us to wait (`Retry-After`), when it said so. */
  retryAfterSeconds?: number;
  /** Replaces the standard message; used where the status alone would mislead. */
  message?: string;
}

/** Builds the standard message: `GET /realms/acme/orgs/42 failed: 404 not_found: Organization not found`. */
export function formatHttpErrorMessage(details: HttpErrorDetails): string {
  const code = details.error ? ` ${details.error}` : '';
  const description = details.errorDescription ? `: ${details.errorDescription}` : '';
  return `${details.method} ${details.path} failed: ${details.status}${code}${description}`;
}

/**
 * The service answered with an error status. Subclasses name the common statuses; an
 * `HttpError` itself (code `ORGADMIN_HTTP`) is any other status.
 */
export class HttpError extends OrgAdminError {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The service's error code (`error` in the body), or undefined when the body had none. */
  readonly error: string | undefined;
  /** The service's sentence (`error_description`), or an excerpt of a non-JSON body. */
  readonly errorDescription: string | undefined;
  /** The request method. */
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;
  /** Seconds the service asked us to wait (`Retry-After`), when it said so. */
  readonly retryAfterSeconds?: number;

  /**
   * @param details what the answer said and to which request
   * @param code set by subclasses; `ORGADMIN_HTTP` for a status without its own class
   */
  constructor(details: HttpErrorDetails, code: OrgAdminErrorCode = 'ORGADMIN_HTTP') {
    super(details.message ?? formatHttpErrorMessage(details), code);
    this.name = 'HttpError';
    this.status = details.status;
    this.error = details.error;
    this.errorDescription = details.errorDescription;
    this.method = details.method;
    this.path = details.path;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** 400: the service rejected the request's content (body or query). Fix the input. */
export class BadRequestError extends HttpError {
  /** @param details what the answer said and to which request */
  constructor(details: HttpErrorDetails) {
    super(details, 'ORGADMIN_BAD_REQUEST');
    this.name = 'BadRequestError';
  }
}

/**
 * 401 that persisted after a fresh token: the credentials are wrong, or (on the hosted service,
 * which answers 401 where orgadmin answers 403) the API key lacks the permission.
 */
export class UnauthorizedError extends HttpError {
  /** @param details what the answer said and to which request */
  constructor(details: HttpErrorDetails) {
    super(details, 'ORGADMIN_UNAUTHORIZED');
    this.name = 'UnauthorizedError';
  }
}

/** 403: the token is valid but the API key lacks the permission for this operation. */
export class ForbiddenError extends HttpError {
  /** @param details what the answer said and to which request */
  constructor(details: HttpErrorDetails) {
    super(details, 'ORGADMIN_FORBIDDEN');
    this.name = 'ForbiddenError';
  }
}

/** 404: the realm, organization, user or membership does not exist. */
export class NotFoundError extends HttpError {
  /** @param details what the answer said and to which request */
  constructor(details: HttpErrorDetails) {
    super(details, 'ORGADMIN_NOT_FOUND');
    this.name = 'NotFoundError';
  }
}

/** 409: the name (or id) is taken by another organization. */
export class ConflictError extends HttpError {
  /** @param details what the answer said and to which request */
  constructor(details: HttpErrorDetails) {
    super(details, 'ORGADMIN_CONFLICT');
    this.name = 'ConflictError';
  }
}

/** 429 after every retry: the API key's rate limit. `retryAfterSeconds` says how long to wait. */
export class RateLimitedError extends HttpError {
  /** @param details what the answer said and to which request */
  constructor(details: HttpErrorDetails) {
    super(details, 'ORGADMIN_RATE_LIMITED');
    this.name = 'RateLimitedError';
  }
}

/** 5xx (after every retry, for idempotent requests): the service failed. */
export class ServerError extends HttpError {
  /** @param details what the answer said and to which request */
  constructor(details: HttpErrorDetails) {
    super(details, 'ORGADMIN_SERVER');
    this.name = 'ServerError';
  }
}

/**
 * The error class for an error status: 400, 401, 403, 404, 409, 429 and 5xx have their own;
 * anything else is a plain {@link HttpError}.
 */
export function createHttpError(details: HttpErrorDetails): HttpError {
  switch (details.status) {
    case 400:
      return new BadRequestError(details);
    case 401:
      return new UnauthorizedError(details);
    case 403:
      return new ForbiddenError(details);
    case 404:
      return new NotFoundError(details);
    case 409:
      return new ConflictError(details);
    case 429:
      return new RateLimitedError(details);
    default:
      return details.status >= 500 && details.status <= 599 ? new ServerError(details) : new HttpError(details);
  }
}

/** What a failed token request said. */
export interface TokenErrorDetails {
  /** The realm whose token endpoint was asked. */
  realm: string;
  /** HTTP status of the token endpoint's answer; undefined when the answer was unusable. */
  status?: number;
  /** The OAuth error code (`invalid_client`, `unauthorized_client`, ...), when given. */
  error?: string;
  /** The OAuth `error_description`, when given. */
  errorDescription?: string;
  /** Seconds the token endpoint asked us to wait (`Retry-After`), when it said so. */
  retryAfterSeconds?: number;
  /** Replaces the standard message. */
  message?: string;
}

/**
 * The token endpoint refused to issue a token (or answered something that is not a token).
 * `invalid_client` means an unknown or revoked API key or a wrong secret (the service does not say
 * which, RFC 6749 §5.2); the hosted service answers a wrong secret with `unauthorized_client`. Never carries the client secret.
 */
export class TokenError extends OrgAdminError {
  /** The realm whose token endpoint was asked. */
  readonly realm: string;
  /** HTTP status of the token endpoint's answer; undefined when the answer was unusable. */
  readonly status: number | undefined;
  /** The OAuth error code, when given. */
  readonly error: string | undefined;
  /** The OAuth `error_description`, when given. */
  readonly errorDescription: string | undefined;
  /** Seconds the token endpoint asked us to wait (`Retry-After`), when it said so. */
  readonly retryAfterSeconds?: number;

  /** @param details what the token endpoint said */
  constructor(details: TokenErrorDetails) {
    const code = details.error ? ` ${details.error}` : '';
    const description = details.errorDescription ? `: ${details.errorDescription}` : '';
    super(
      details.message ??
        `Token request for realm "${details.realm}" failed: ${details.status ?? 'no status'}${code}${description}`,
      'ORGADMIN_TOKEN',
    );
    this.name = 'TokenError';
    this.realm = details.realm;
    this.status = details.status;
    this.error = details.error;
    this.errorDescription = details.errorDescription;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * The request did not finish within the configured time (`timeoutMs`), on every attempt it was
 * allowed (a timeout is retried only for requests that are safe to repeat).
 */
export class TimeoutError extends OrgAdminError {
  /** The request method. */
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;
  /** The limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * @param details the request and its limit
   * @param options `cause`: the lower-level error
   */
  constructor(details: { method: string; path: string; timeoutMs: number }, options?: { cause?: unknown }) {
    super(`${details.method} ${details.path} timed out after ${details.timeoutMs} ms`, 'ORGADMIN_TIMEOUT', options);
    this.name = 'TimeoutError';
    this.method = details.method;
    this.path = details.path;
    this.timeoutMs = details.timeoutMs;
  }
}

/**
 * The connection failed (refused, reset, closed, DNS) after every retry the request allowed.
 * `causeCode` is the system or undici code, e.g. `ECONNREFUSED` or `UND_ERR_SOCKET`.
 */
export class NetworkError extends OrgAdminError {
  /** The request method. */
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;
  /** The system or undici error code of the cause, when it had one. */
  readonly causeCode: string | undefined;

  /**
   * @param details the request and the cause's code
   * @param options `cause`: the lower-level error
   */
  constructor(
    details: { method: string; path: string; causeCode?: string; reason?: string },
    options?: { cause?: unknown },
  ) {
    const reason = details.reason ?? details.causeCode ?? 'connection failed';
    super(`${details.method} ${details.path} failed: network error: ${reason}`, 'ORGADMIN_NETWORK', options);
    this.name = 'NetworkError';
    this.method = details.method;
    this.path = details.path;
    this.causeCode = details.causeCode;
  }
}

/**
 * The service answered with a success status but a body the SDK cannot use (not JSON, the wrong
 * shape, a missing `Location`). Usually a proxy in the way, or a base address that is not the
 * service.
 */
export class UnexpectedResponseError extends OrgAdminError {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The request method. */
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;

  /** @param details the request, its status and what was wrong */
  constructor(details: { status: number; method: string; path: string; reason: string }) {
    super(
      `${details.method} ${details.path} returned ${details.status} with an unusable answer: ${details.reason}`,
      'ORGADMIN_UNEXPECTED_RESPONSE',
    );
    this.name = 'UnexpectedResponseError';
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
  }
}
