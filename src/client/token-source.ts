/**
 * Where the SDK gets bearer tokens. {@link ClientCredentialsTokenSource} runs the OAuth 2.0
 * client-credentials grant (RFC 6749 §4.4) against a realm's token endpoint, caches the token per
 * realm until shortly before it expires, and lets only one token request per realm be in flight:
 * a hundred concurrent API calls cost one token request. {@link StaticTokenSource} hands out a
 * token you already have.
 */
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { tokenPath } from '../api';
import { OrgAdminError, TokenError } from './errors';
import { parseRetryAfter, readErrorBody, toTransportError } from './http';

/** Supplies access tokens per realm; the request pipeline asks before every attempt. */
export interface TokenSource {
  /**
   * A valid access token for `realm`. Cheap when cached. Rejects with a {@link TokenError} when
   * the token endpoint refuses, or with the signal's reason when `options.signal` aborts.
   */
  getToken(realm: string, options?: { signal?: AbortSignal }): Promise<string>;
  /**
   * The service rejected `token` (401): forget it, so the next {@link getToken} fetches a fresh
   * one. Does nothing when the cache already holds another token (someone refreshed meanwhile).
   */
  invalidate(realm: string, token: string): void;
}

/** Options of {@link ClientCredentialsTokenSource}. */
export interface ClientCredentialsTokenSourceOptions {
  /** The service's base address, e.g. `https://acme.example.com`; a path prefix is kept. */
  baseUrl: string;
  /** The API key's client ID. */
  clientId: string;
  /** The API key's secret. Sent only in the token request's form body; never in errors or logs. */
  clientSecret: string;
  /** Sends the token requests. @default undici's global dispatcher (keep-alive, shared) */
  dispatcher?: Dispatcher;
  /**
   * Fetch a new token this many seconds before the current one expires, so that a token never
   * expires in flight. Capped to half the token's lifetime. @default 30
   */
  refreshSkewSeconds?: number;
  /** Limit of one token request, in milliseconds. @default 30000 */
  timeoutMs?: number;
  /** The clock, in milliseconds since the epoch (tests move it). @default Date.now */
  now?: () => number;
}

/** A cached token and when to stop using it. */
interface CachedToken {
  token: string;
  /** `now()` value after which a new token is fetched. */
  refreshAt: number;
}

/** Resolves with `promise`, or rejects with the signal's reason as soon as it aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Gets tokens with the client-credentials grant: `POST {base}/realms/{realm}/protocol/openid-connect/token`
 * with `grant_type=client_credentials`, `client_id` and `client_secret` as form fields.
 *
 * Tokens are cached per realm until `expires_in - refreshSkewSeconds`. Concurrent callers of one
 * realm share one token request (single flight). The token request is not retried here; see the
 * retry policy in `./http`.
 *
 * @example
 * const tokens = new ClientCredentialsTokenSource({ baseUrl, clientId, clientSecret });
 * const client = new OrgAdminClient({ baseUrl, tokenSource: tokens });
 */
export class ClientCredentialsTokenSource implements TokenSource {
  // A private field: JSON.stringify and util.inspect of this object never show the secret.
  readonly #clientSecret: string;
  private readonly baseUrl: URL;
  private readonly clientId: string;
  private readonly dispatcher: Dispatcher | undefined;
  private readonly refreshSkewSeconds: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, CachedToken>();
  private readonly inFlight = new Map<string, Promise<CachedToken>>();
  private requestsSent = 0;

  /** @param options the token endpoint's base address and the API key */
  constructor(options: ClientCredentialsTokenSourceOptions) {
    if (!options.clientId) throw new TypeError('ClientCredentialsTokenSource needs a clientId');
    if (!options.clientSecret) throw new TypeError('ClientCredentialsTokenSource needs a clientSecret');
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`ClientCredentialsTokenSource: baseUrl ${JSON.stringify(options.baseUrl)} is not a URL`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`ClientCredentialsTokenSource: baseUrl must be http or https, got ${base.protocol}`);
    }
    const skew = options.refreshSkewSeconds ?? 30;
    if (!Number.isFinite(skew) || skew < 0) {
      throw new TypeError(`ClientCredentialsTokenSource: refreshSkewSeconds must be a number >= 0, got ${skew}`);
    }
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError(`ClientCredentialsTokenSource: timeoutMs must be a number > 0, got ${timeoutMs}`);
    }
    this.baseUrl = base;
    this.clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    this.dispatcher = options.dispatcher;
    this.refreshSkewSeconds = skew;
    this.timeoutMs = timeoutMs;
    this.now = options.now ?? Date.now;
  }

  /** How many token requests were sent so far (observability; tests count them). */
  get tokenRequests(): number {
    return this.requestsSent;
  }

  /** {@inheritDoc TokenSource.getToken} */
  async getToken(realm: string, options?: { signal?: AbortSignal }): Promise<string> {
    options?.signal?.throwIfAborted();
    const cached = this.cache.get(realm);
    if (cached && this.now() < cached.refreshAt) return cached.token;
    let pending = this.inFlight.get(realm);
    if (!pending) {
      // The shared request has its own timeout and ignores any one caller's signal: a caller that
      // gives up must not fail the others who wait for the same token.
      pending = this.requestToken(realm).finally(() => this.inFlight.delete(realm));
      this.inFlight.set(realm, pending);
    }
    const fresh = await raceAbort(pending, options?.signal);
    return fresh.token;
  }

  /** {@inheritDoc TokenSource.invalidate} */
  invalidate(realm: string, token: string): void {
    if (this.cache.get(realm)?.token === token) this.cache.delete(realm);
  }

  /** Sends one token request and caches its answer. */
  private async requestToken(realm: string): Promise<CachedToken> {
    const path = tokenPath(realm);
    const prefix = this.baseUrl.pathname.replace(/\/+$/, '');
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.clientId,
      client_secret: this.#clientSecret,
    });
    const startedAt = this.now();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    this.requestsSent += 1;
    let status: number;
    let retryAfter: string | string[] | undefined;
    let text: string;
    try {
      const response = await (this.dispatcher ?? getGlobalDispatcher()).request({
        origin: this.baseUrl.origin,
        path: `${prefix}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: timeout,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      text = await response.body.text();
    } catch (error) {
      throw toTransportError(error, { method: 'POST', path, timeoutMs: this.timeoutMs, timedOut: timeout.aborted });
    }

    if (status !== 200) {
      const read = readErrorBody(text);
      const retryAfterSeconds = parseRetryAfter(retryAfter);
      throw new TokenError({
        realm,
        status,
        error: this.scrub(read.error),
        errorDescription: this.scrub(read.errorDescription),
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      });
    }
    const parsed = this.parseTokenResponse(realm, text);
    if (parsed instanceof OrgAdminError) throw parsed;
    // Refresh early so a token never expires between our check and the service's, but never
    // earlier than half-way: a short-lived token would otherwise be refetched on every call.
    const skew = Math.min(this.refreshSkewSeconds, parsed.expiresIn / 2);
    const entry: CachedToken = { token: parsed.token, refreshAt: startedAt + (parsed.expiresIn - skew) * 1000 };
    this.cache.set(realm, entry);
    return entry;
  }

  /** Reads a 200 answer of the token endpoint; a {@link TokenError} when it is not a token. */
  private parseTokenResponse(realm: string, text: string): { token: string; expiresIn: number } | TokenError {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new TokenError({ realm, status: 200, message: `Token endpoint of realm "${realm}" answered 200 with a body that is not JSON` });
    }
    const token = (body as { access_token?: unknown } | null)?.access_token;
    const expiresIn = (body as { expires_in?: unknown } | null)?.expires_in;
    if (typeof token !== 'string' || token === '') {
      return new TokenError({ realm, status: 200, message: `Token endpoint of realm "${realm}" answered 200 without an access_token` });
    }
    if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      return new TokenError({ realm, status: 200, message: `Token endpoint of realm "${realm}" answered 200 without a positive expires_in` });
    }
    return { token, expiresIn };
  }

  /**
   * Removes the secret from text the server sent back, in case it echoed the form: as sent
   * (form-encoded, where `+`, `/`, `=` and the like are escaped) as well as decoded.
   */
  private scrub(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    const encoded = new URLSearchParams({ s: this.#clientSecret }).toString().slice('s='.length);
    return text.split(this.#clientSecret).join('[redacted]').split(encoded).join('[redacted]');
  }
}

/**
 * A token you already have (e.g. a user's access token from elsewhere). It is never refreshed, so
 * a 401 is final.
 */
export class StaticTokenSource implements TokenSource {
  readonly #accessToken: string;

  /** @param accessToken the bearer token to send */
  constructor(accessToken: string) {
    if (!accessToken) throw new TypeError('StaticTokenSource needs a non-empty access token');
    this.#accessToken = accessToken;
  }

  /** {@inheritDoc TokenSource.getToken} */
  async getToken(_realm: string, options?: { signal?: AbortSignal }): Promise<string> {
    options?.signal?.throwIfAborted();
    return this.#accessToken;
  }

  /** Nothing to forget: the token is all this source has. */
  invalidate(_realm: string, _token: string): void {
    // Intentionally empty: a static token cannot be refreshed.
  }
}
