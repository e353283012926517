/**
 * HTTP calls against a running test service over its real port (undici), with the answer read
 * fully: the tests exercise the same socket path as clients do.
 */
import { request } from 'undici';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';

/**
 * The set-up most route tests share: a service on a free port with one realm and an access token
 * of an API key holding every permission.
 */
export async function startServiceWithToken(realm = 'acme'): Promise<{ svc: TestService; token: string }> {
  const svc = await startTestService();
  const key = await createTestRealm(svc, realm);
  return { svc, token: await getToken(svc, realm, key.clientId, key.clientSecret) };
}

/** A fully read answer. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when empty or not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One request. `payload` objects are sent as JSON; strings as they are. */
export async function call(
  svc: TestService,
  opts: { method: string; url: string; token?: string; payload?: unknown; headers?: Record<string, string> },
): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.payload !== undefined) {
    if (typeof opts.payload === 'string') {
      body = opts.payload;
    } else {
      body = JSON.stringify(opts.payload);
      headers['content-type'] ??= 'application/json';
    }
  }
  const response = await request(`${svc.baseUrl}${opts.url}`, { method: opts.method as 'GET', headers, body });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

/** A form-encoded POST. */
export function postForm(
  svc: TestService,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return call(svc, {
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}
