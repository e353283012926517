/**
 * Answers for requests that fail before fastify runs the service's error handler, in the same
 * `{"error","error_description"}` shape as every other error:
 * - {@link frameworkErrors}: the router could not decode the URL (invalid percent-encoding) or a
 *   path parameter was longer than the router allows;
 * - {@link clientErrorHandler}: Node's HTTP parser refused the request (e.g. `Content-Length: abc`),
 *   so there is no request object and the answer is written to the socket directly.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, ServiceError } from './errors';

/** fastify `frameworkErrors` option: router-level failures as 400 `invalid_request`. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const description =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The request URL is not valid: it has invalid percent-encoding.'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'The request URL has a path segment that is too long.'
        : 'The request is not valid.';
  void sendError(reply, new ServiceError(400, 'invalid_request', description));
}

/** Status and sentence for an error of Node's HTTP parser. */
function clientErrorAnswer(code: string | undefined): { status: number; description: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, description: 'The request took too long to arrive.' };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, description: 'The request headers are too large.' };
  return { status: 400, description: 'The request is not valid HTTP.' };
}

/**
 * fastify `clientErrorHandler` option. Like Node's default, it answers once and closes the
 * connection, since the rest of the byte stream cannot be trusted.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, description } = clientErrorAnswer(error.code);
  const body = JSON.stringify({ error: 'invalid_request', error_description: description });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
