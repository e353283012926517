/**
 * Test helper: an upstream OpenID Connect provider on a free port of 127.0.0.1 (node:http,
 * RS256 signatures with node:crypto), for the broker's tests. It signs everyone in at once (no
 * login page): `/authorize` answers a redirect back with a code, `/token` exchanges the code (PKCE
 * S256 and the client's secret checked) for an ID token of the person set in {@link TestOidcProvider.person}.
 * `tamper` changes the next ID token's claims or key before signing, so tests can forge what a
 * hostile or broken upstream would send.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One token request the provider answered (for checking how the broker authenticates). */
export interface TokenRequest {
  form: Record<string, string>;
  authorization: string | undefined;
}

/** How the next ID token is changed before it is signed. */
export interface Tamper {
  claims?: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** Sign with this key instead (its signature will not match the JWKS). */
  key?: KeyObject;
}

/** A running test provider. */
export interface TestOidcProvider {
  /** `http://127.0.0.1:PORT`: also its issuer. */
  issuer: string;
  /** Its discovery document's URL. */
  discoveryUrl: string;
  /** The registered client and its secret (confidential, `client_secret_post` or `_basic`). */
  clientId: string;
  clientSecret: string;
  /** Claims of the person signed in next (besides iss, aud, exp, iat, nonce). */
  person: Record<string, unknown>;
  /** Applied to the next ID token only. */
  tamper: Tamper | undefined;
  /** When set, `/authorize` answers this OAuth error instead of a code. */
  refuseWith: string | undefined;
  /** Every authorization request's parameters, in order. */
  authorizeRequests: Array<Record<string, string>>;
  tokenRequests: TokenRequest[];
  close(): Promise<void>;
}

const b64url = (value: Buffer | string): string => Buffer.from(value).toString('base64url');

/** A compact RS256 JWS of `claims` under `key`. */
export function signRs256(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
  const payload = b64url(JSON.stringify(claims));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key);
  return `${header}.${payload}.${b64url(signature)}`;
}

async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

/** Starts a provider; `now` is its clock in ms (default the machine's). */
export async function startOidcProvider(opts: { now?: () => number } = {}): Promise<TestOidcProvider> {
  const now = opts.now ?? Date.now;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key-1';
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; nonce: string | undefined }>();
  let issuer = '';
  const provider: TestOidcProvider = {
    issuer: '',
    discoveryUrl: '',
    clientId: 'orgadmin-broker',
    clientSecret: randomBytes(24).toString('base64url'),
    person: { sub: 'upstream-bob', email: 'bob@globex.example', email_verified: true, given_name: 'Bob', family_name: 'Builder' },
    tamper: undefined,
    refuseWith: undefined,
    authorizeRequests: [],
    tokenRequests: [],
    close: async () => undefined,
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', issuer);
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(response, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        });
      }
      if (url.pathname === '/jwks') return json(response, 200, { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }] });
      if (url.pathname === '/authorize') {
        const params = Object.fromEntries(url.searchParams);
        provider.authorizeRequests.push(params);
        const back = new URL(params.redirect_uri ?? '');
        if (provider.refuseWith) back.searchParams.set('error', provider.refuseWith);
        else {
          const code = randomBytes(16).toString('base64url');
          codes.set(code, { clientId: params.client_id ?? '', redirectUri: params.redirect_uri ?? '', challenge: params.code_challenge ?? '', nonce: params.nonce });
          back.searchParams.set('code', code);
        }
        if (params.state !== undefined) back.searchParams.set('state', params.state);
        response.writeHead(302, { location: back.toString() }).end();
        return;
      }
      if (url.pathname === '/token' && request.method === 'POST') {
        const form = await readForm(request);
        provider.tokenRequests.push({ form, authorization: request.headers.authorization });
        const basic = request.headers.authorization?.startsWith('Basic ') ? Buffer.from(request.headers.authorization.slice(6), 'base64').toString() : undefined;
        const [basicId, basicSecret] = basic ? basic.split(':').map(decodeURIComponent) : [];
        const clientId = form.client_id ?? basicId;
        const secret = form.client_secret ?? basicSecret;
        if (clientId !== provider.clientId || secret !== provider.clientSecret) return json(response, 401, { error: 'invalid_client' });
        const grant = codes.get(form.code ?? '');
        codes.delete(form.code ?? '');
        const challenge = createHash('sha256').update(form.code_verifier ?? '').digest('base64url');
        if (!grant || grant.redirectUri !== form.redirect_uri || grant.clientId !== clientId || grant.challenge !== challenge) return json(response, 400, { error: 'invalid_grant' });
        const seconds = Math.floor(now() / 1000);
        let claims: Record<string, unknown> = { iss: issuer, aud: clientId, iat: seconds, exp: seconds + 300, ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}), ...provider.person };
        const tamper = provider.tamper;
        provider.tamper = undefined;
        if (tamper?.claims) claims = tamper.claims(claims);
        const idToken = signRs256(claims, tamper?.key ?? privateKey, kid);
        return json(response, 200, { access_token: randomBytes(16).toString('base64url'), token_type: 'Bearer', expires_in: 300, id_token: idToken });
      }
      json(response, 404, { error: 'not_found' });
    })().catch((error: unknown) => json(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider.issuer = issuer;
  provider.discoveryUrl = `${issuer}/.well-known/openid-configuration`;
  provider.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return provider;
}
