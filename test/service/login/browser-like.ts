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
