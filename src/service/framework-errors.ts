/**
 * Answers for requests that fail before fastify runs the service's error handler, in the same
 * `{"error","error_description"}` shape as every other error:
 * - {@link frameworkErrors}: the router could not decode the URL (invalid percent-encoding) or a
 *   path parameter was longer than the router allows;
 * - {@link clientErrorHandler}: Node's HTTP parser refused the request (e.g. `Content-Length: abc`),
 *   so there is no request object and the answer is written to the socket directly;
 * - {@link answerNodeRefusalsInJson}: requests Node's server refuses by itself (`Expect`, `CONNECT`).
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/** Writes a JSON error answer on a raw Node response (no fastify reply exists there). */
function writeRawError(res: ServerResponse, status: number, description: string): void {
  const body = JSON.stringify({ error: 'invalid_request', error_description: description });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}

/**
 * Answers in the service's JSON shape the requests Node's HTTP server refuses by itself, before
 * fastify sees them, with an empty body or none at all:
 * - an `Expect` other than `100-continue` (Node: 417 with no body): 417 JSON;
 * - `CONNECT` (Node: the connection is dropped without an answer): 405 JSON, then closed.
 */
export function answerNodeRefusalsInJson(server: Server): void {
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    writeRawError(res, 417, 'The Expect header is not supported; only 100-continue is.');
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    const body = JSON.stringify({ error: 'method_not_allowed', error_description: 'CONNECT is not allowed: this is not a proxy.' });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 405 ${STATUS_CODES[405]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });
}
