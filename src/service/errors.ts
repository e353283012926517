/**
 * The service's one error class and one error handler: every failure leaves as
 * `{"error": "<code>", "error_description": "<sentence>"}` and a 5xx never shows internals.
 *
 * Codes the service returns (all from `src/api/errors.ts`):
 * - `invalid_request`, `unsupported_grant_type`, `invalid_client`, `unauthorized_client`,
 *   `invalid_grant`, `access_denied` — token endpoint (RFC 6749 §5.2) and disabled realms;
 * - `invalid_token` (401) and `insufficient_scope` (403) — bearer tokens (RFC 6750 §3.1);
 * - `realm_not_found`, `realm_mismatch`, `not_found`, `operation_not_supported` (404),
 *   `method_not_allowed` (405);
 * - `invalid_body`, `invalid_query`, `invalid_request`, `unsupported_media_type`, `not_member` (400);
 * - `payload_too_large` (413), `conflict` (409), `forbidden` (403), `rate_limited` (429),
 *   `internal_error` (500), `temporarily_unavailable` (503: the database cannot be reached).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../api';
import { isStoreUnavailable } from './store/availability';

/** An error the service answers with on purpose: status, stable code, one sentence, extra headers. */
export class ServiceError extends Error {
  /** HTTP status. */
  readonly statusCode: number;
  /** Stable code from the closed set in `src/api/errors.ts`. */
  readonly code: ErrorCode;
  /** Headers to send with the answer (e.g. `WWW-Authenticate`, `Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(statusCode: number, code: ErrorCode, description: string, headers: Record<string, string> = {}) {
    super(description);
    this.name = 'ServiceError';
    this.statusCode = statusCode;
    this.code = code;
    this.headers = headers;
  }

  /** The sentence sent as `error_description`. */
  get description(): string {
    return this.message;
  }
}

/** 404 `not_found` with a sentence naming what was not found. */
export const notFound = (description: string): ServiceError => new ServiceError(404, 'not_found', description);

/** The body every error answer carries. */
function errorBody(code: string, description: string): { error: string; error_description: string } {
  return { error: code, error_description: description };
}

/** Turns fastify's validation messages into one readable sentence. */
function validationSentence(error: FastifyError & { validationContext?: string }): string {
  const where = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'request');
  const message = error.message.replace(/^(body|querystring|params|headers)\s*/, '').trim();
  return `Invalid ${where}: ${message}${message.endsWith('.') ? '' : '.'}`;
}

/** Maps anything thrown inside a request to a status, a code and a sentence. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (fastifyError.validation || fastifyError.code === 'FST_ERR_VALIDATION') {
    const code: ErrorCode = fastifyError.validationContext === 'body' ? 'invalid_body' : fastifyError.validationContext === 'querystring' ? 'invalid_query' : 'invalid_request';
    return new ServiceError(400, code, validationSentence(fastifyError));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(413, 'payload_too_large', 'The request body is larger than 64 KiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      // The wire contract: a wrong content type is a 400 (not 415), with its own code.
      return new ServiceError(400, 'unsupported_media_type', 'The request body must be sent as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(400, 'invalid_body', 'The request body is empty but its content type is application/json.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ServiceError(400, 'invalid_body', 'The request body is not valid JSON.');
    default:
      break;
  }
  if ((fastifyError as { type?: string }).type === 'entity.parse.failed' || error instanceof SyntaxError) {
    return new ServiceError(400, 'invalid_body', 'The request body is not valid JSON.');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Client errors raised by fastify itself (e.g. bad URL encoding): safe to describe generically.
    return new ServiceError(status, status === 404 ? 'not_found' : 'invalid_request', 'The request is not valid.');
  }
  if (isStoreUnavailable(error)) {
    return new ServiceError(503, 'temporarily_unavailable', 'The service cannot reach its database right now; try again shortly.', { 'Retry-After': '1' });
  }
  return new ServiceError(500, 'internal_error', 'The service failed to handle the request; try again later.');
}

/** Sends a {@link ServiceError} (headers included). */
export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.statusCode).type('application/json; charset=utf-8').send(errorBody(error.code, error.description));
}

/** The service's error handler: answers any error in the service's shape, logging 5xx. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const serviceError = toServiceError(error);
  if (serviceError.statusCode >= 500) {
    // Logged with the stack for operators; the client only gets the generic sentence.
    request.log.error({ err: error }, 'request failed');
  }
  return sendError(reply, serviceError);
}

/**
 * Installs the error handler and the handler of requests no route answers: 405
 * `method_not_allowed` with `Allow` when `allowedFor` knows other methods for the path, else 404.
 */
export function installErrorHandling(app: FastifyInstance, allowedFor: (path: string) => string[] = () => []): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedFor(path);
    if (allowed.length > 0) {
      return sendError(
        reply,
        new ServiceError(405, 'method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`, {
          Allow: allowed.join(', '),
        }),
      );
    }
    return sendError(reply, new ServiceError(404, 'not_found', `No operation answers ${request.method} ${path}.`));
  });
}
