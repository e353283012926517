/**
 * A minimal browser for the login tests: keeps cookies per name, follows nothing by itself, reads
 * the hidden fields of the service's HTML forms. Requests go over the service's real port (undici).
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';

/** One answer, fully read. */
export interface Page {
  status: number;
  location: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The `name → value` of the hidden inputs of the first form in `html`. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const form = /<form[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]] = match[2].replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
  }
  return fields;
}

/** A cookie jar and request helper. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  /** GET or POST (form) a path or absolute URL, recording Set-Cookie. */
  async go(method: 'GET' | 'POST', url: string, form?: Record<string, string>, extraHeaders: Record<string, string> = {}): Promise<Page> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const answer = await request(url.startsWith('http') ? url : `${this.baseUrl}${url}`, { method, headers, body });
    const text = await answer.body.text();
    const setCookie = answer.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/Max-Age=0\b/.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = answer.headers.location;
    return { status: answer.statusCode, location: typeof location === 'string' ? location : undefined, headers: answer.headers, text };
  }
}

/** What {@link codeFlowTokens} hands back: the token endpoint's answer and the browser that signed in. */
export interface CodeFlowResult {
  accessToken: string;
  idToken: string;
  browser: Browser;
}

/**
 * Signs `username` in through the authorization code flow with PKCE as client `clientId` (the
 * dashboard's own client by default, whose redirect URI is the service's callback) and exchanges
 * the code at the token endpoint, as a public client does.
 */
export async function codeFlowTokens(
  baseUrl: string,
  realm: string,
  user: { username: string; password: string },
  client: { clientId: string; redirectUri: string } = { clientId: 'orgadmin-dashboard', redirectUri: `${baseUrl}/realms/${realm}/dashboard/callback` },
): Promise<CodeFlowResult> {
  const browser = new Browser(baseUrl);
  const { verifier, challenge } = pkcePair();
  const auth = `/realms/${realm}/protocol/openid-connect/auth`;
  const query = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: 'code',
    scope: 'openid',
    state: 'state',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const login = await browser.go('GET', `${auth}?${query}`);
  if (login.status !== 200) throw new Error(`the login page answered ${login.status}`);
  const signedIn = await browser.go('POST', auth, { ...hiddenFields(login.text), username: user.username, password: user.password });
  const code = signedIn.location ? new URL(signedIn.location).searchParams.get('code') : null;
  if (!code) throw new Error(`signing in answered ${signedIn.status} without a code`);
  const answer = await request(`${baseUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: client.clientId, code, redirect_uri: client.redirectUri, code_verifier: verifier }).toString(),
  });
  const tokens = (await answer.body.json()) as { access_token?: string; id_token?: string };
  if (answer.statusCode !== 200 || !tokens.access_token || !tokens.id_token) throw new Error(`the code exchange answered ${answer.statusCode}`);
  return { accessToken: tokens.access_token, idToken: tokens.id_token, browser };
}
