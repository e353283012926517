/**
 * Raw HTTP/1.1 over a socket, for requests no HTTP client would send (no Host, two Hosts, broken
 * framing): the bytes go out as written and the answer is read until the server closes.
 */
import { connect } from 'node:net';

/** A raw answer split into status, lower-cased headers and body. */
export interface RawAnswer {
  /** 0 when the server closed without answering. */
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `bytes` to `baseUrl`'s host and port and reads until the connection closes. With
 * `halfClose: false` the client keeps its side open (no FIN after the request), as a client
 * waiting for a `Connection: close` answer does: Node's server drops a half-closed connection
 * whose answer is not ready by its next read.
 */
export function rawRequest(baseUrl: string, bytes: string | Buffer, { halfClose = true }: { halfClose?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the answer was read still leaves that answer to look at.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(error);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    if (halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

/** Splits the first raw HTTP answer into status, lower-cased headers and body (by Content-Length). */
export function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: raw };
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(end + 4);
  const length = Number(headers['content-length']);
  if (Number.isInteger(length)) body = Buffer.from(body).subarray(0, length).toString('utf8');
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** True when an answer is the service's JSON error shape. */
export function isJsonError(answer: { headers: Record<string, string | string[] | undefined>; body: string }): boolean {
  const type = answer.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/json')) return false;
  try {
    const parsed = JSON.parse(answer.body) as { error?: unknown; error_description?: unknown };
    return typeof parsed.error === 'string' && typeof parsed.error_description === 'string';
  } catch {
    return false;
  }
}
