import { connect } from 'node:net';
import type { TestService } from '../helpers/service';
import { call, startServiceWithToken } from './support';

/** Sends raw bytes and reads until the server closes the connection. */
function rawRequest(svc: TestService, bytes: string): Promise<string> {
  const { hostname, port } = new URL(svc.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(bytes);
  });
}

/** Splits a raw HTTP answer into status, lower-cased headers and body. */
function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('errors raised before the service error handler', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers a URL with invalid percent-encoding with 400 invalid_request in the service shape', async () => {
    const res = await call(svc, { method: 'GET', url: '/realms/acme/orgs/%zz', token });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json).toEqual({
      error: 'invalid_request',
      error_description: 'The request URL is not valid: it has invalid percent-encoding.',
    });
  });

  it('answers a request the HTTP parser rejects (Content-Length: abc) with 400 invalid_request JSON and closes', async () => {
    const raw = await rawRequest(svc, 'POST /realms/acme/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n{}');
    const answer = parseAnswer(raw);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toEqual({ error: 'invalid_request', error_description: 'The request is not valid HTTP.' });
  });

  it('answers oversized request headers with 431 invalid_request JSON', async () => {
    const raw = await rawRequest(svc, `GET /realms/acme/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    const answer = parseAnswer(raw);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ error: 'invalid_request', error_description: 'The request headers are too large.' });
  });
});
