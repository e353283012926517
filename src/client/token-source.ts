/**
 * Where the SDK gets bearer tokens. {@link ClientCredentialsTokenSource} runs the OAuth 2.0
 * client-credentials grant (RFC 6749 §4.4) against a realm's token endpoint, caches the token per
 * realm until shortly before it expires, and lets only one token request per realm be in flight:
 * a hundred concurrent API calls cost one token request. Its token requests go through the same
 * retry and timeout interceptors as API requests (`./interceptors/`), composed onto its own
 * dispatcher, so the retries happen inside the single flight. {@link StaticTokenSource} hands out
 * a token you already have.
 */
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { revocationPath, tokenPath } from '../api';
import { redactKnownSecrets } from '../api/redaction';
import { OrgAdminError, TokenError } from './errors';
import { errorOfTokenAnswer } from './failures';
import { newRequestRecord, sendRecorded, type RecordedAnswer, type RequestRecord } from './interceptors/request-record';
import { retryInterceptor, type RetryInterceptorSettings } from './interceptors/retry';
import { timeoutInterceptor } from './interceptors/timeout';
import { DEFAULT_RETRY_SETTINGS } from './retry-policy';
import { defaultSleep, defaultTimer, type SleepFunction, type TimerFunction } from './transport';

/** Supplies access tokens per realm; the auth interceptor asks before every attempt. */
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
  /**
   * Retries of a failed token request, by the SDK's retry policy (`./retry-policy`: 429, 502–504,
   * timeouts and dropped connections; the token request is repeatable). They happen inside the
   * single flight, so every call waiting for the token shares them. @default 3
   */
  maxRetries?: number;
  /** First backoff ceiling, in milliseconds. @default 250 */
  retryBaseDelayMs?: number;
  /** Cap of every wait, backoff or `Retry-After`, in milliseconds. @default 10000 */
  retryMaxDelayMs?: number;
  /** Waits between attempts (tests inject one that records). @default a timer */
  sleep?: SleepFunction;
  /** Random source of the jitter, in [0, 1). @default Math.random */
  random?: () => number;
  /**
   * Times the limit of each token request (`timeoutMs`): tests inject one they expire themselves
   * instead of waiting. @default `setTimeout`
   */
  timer?: TimerFunction;
}

/** A token as the token endpoint issued it ({@link ClientCredentialsTokenSource.issueToken}). */
export interface IssuedToken {
  /** The bearer token. */
  readonly accessToken: string;
  /** The token type the endpoint named (`Bearer`). */
  readonly tokenType: string;
  /** Its lifetime in seconds, counted from {@link issuedAt}. */
  readonly expiresIn: number;
  /** The permissions it carries, space separated, when the endpoint said. */
  readonly scope?: string;
  /** When the attempt that got it started, in milliseconds since the epoch (the source's clock). */
  readonly issuedAt: number;
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
 * realm share one token request (single flight), retries included: a dropped answer is retried
 * once for all of them, by the policy of `./retry-policy`.
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
  private readonly baseDispatcher: Dispatcher | undefined;
  /** The base dispatcher with the retry and timeout interceptors; composed on first use. */
  private composed: Dispatcher | undefined;
  private readonly refreshSkewSeconds: number;
  private readonly timeoutMs: number;
  private readonly timer: TimerFunction;
  private readonly now: () => number;
  private readonly retry: RetryInterceptorSettings;
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
    this.baseDispatcher = options.dispatcher;
    this.refreshSkewSeconds = skew;
    this.timeoutMs = timeoutMs;
    this.timer = options.timer ?? defaultTimer;
    this.now = options.now ?? Date.now;
    const maxRetries = options.maxRetries ?? DEFAULT_RETRY_SETTINGS.maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new TypeError(`ClientCredentialsTokenSource: maxRetries must be a whole number >= 0, got ${maxRetries}`);
    }
    this.retry = {
      maxRetries,
      retryBaseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_SETTINGS.retryBaseDelayMs,
      retryMaxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_SETTINGS.retryMaxDelayMs,
      random: options.random ?? Math.random,
      sleep: options.sleep ?? defaultSleep,
    };
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

  /**
   * A token of its own for someone else to use (another tool, a script): always a new token
   * request, never the cached token, and never cached. `scope` asks for fewer permissions than the
   * API key holds (space separated). Rejects like {@link getToken}.
   */
  async issueToken(realm: string, options?: { scope?: string; signal?: AbortSignal }): Promise<IssuedToken> {
    options?.signal?.throwIfAborted();
    return this.fetchToken(realm, options?.scope, options?.signal);
  }

  /**
   * Ends a token this API key was issued before it expires (OAuth 2.0 token revocation, RFC 7009):
   * the service refuses it from then on. Revoking an expired or already revoked token succeeds.
   * Rejects with a {@link TokenError} when the endpoint refuses.
   */
  async revokeToken(realm: string, token: string, options?: { signal?: AbortSignal }): Promise<void> {
    options?.signal?.throwIfAborted();
    const form = new URLSearchParams({ token, token_type_hint: 'access_token', client_id: this.clientId, client_secret: this.#clientSecret });
    const { status, headers, text, record } = await this.post(revocationPath(realm), form, undefined, options?.signal);
    if (status !== 200) throw errorOfTokenAnswer(realm, status, headers, this.scrub(text) ?? '', record); // scrubbed before it is read (see errorOfTokenAnswer)
  }

  /**
   * The dispatcher of token requests: retries by the SDK's policy (the token request is
   * repeatable: a second token is harmless) and a limit per attempt. Composed on first use, so
   * that undici's global dispatcher is looked up only when a token is needed.
   */
  private get dispatcher(): Dispatcher {
    this.composed ??= (this.baseDispatcher ?? getGlobalDispatcher()).compose(
      timeoutInterceptor(this.timeoutMs, this.timer),
      retryInterceptor(this.retry),
    );
    return this.composed;
  }

  /** Gets a token (retries included) and caches it. Failures carry what every attempt got. */
  private async requestToken(realm: string): Promise<CachedToken> {
    const issued = await this.fetchToken(realm, undefined);
    // Refresh early so a token never expires between our check and the service's, but never
    // earlier than half-way: a short-lived token would otherwise be refetched on every call.
    const skew = Math.min(this.refreshSkewSeconds, issued.expiresIn / 2);
    const entry: CachedToken = { token: issued.accessToken, refreshAt: issued.issuedAt + (issued.expiresIn - skew) * 1000 };
    this.cache.set(realm, entry);
    return entry;
  }

  /** One client-credentials token request (retries included), not cached. */
  private async fetchToken(realm: string, scope: string | undefined, signal?: AbortSignal): Promise<IssuedToken> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.clientId,
      client_secret: this.#clientSecret,
      ...(scope !== undefined ? { scope } : {}),
    });
    let startedAt = this.now();
    const onAttempt = (): void => {
      this.requestsSent += 1;
      // The token's lifetime counts from the attempt that got it.
      startedAt = this.now();
    };
    const { status, headers, text, record } = await this.post(tokenPath(realm), form, onAttempt, signal);
    if (status !== 200) throw errorOfTokenAnswer(realm, status, headers, this.scrub(text) ?? '', record); // scrubbed before it is read (see errorOfTokenAnswer)
    const parsed = this.parseTokenResponse(realm, text);
    if (parsed instanceof OrgAdminError) throw parsed;
    return { ...parsed, issuedAt: startedAt };
  }

  /** Posts a form to one of the realm's OAuth endpoints (retries and timeout included). */
  private async post(
    path: string,
    form: URLSearchParams,
    onAttempt: (() => void) | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RecordedAnswer & { record: RequestRecord }> {
    const prefix = this.baseUrl.pathname.replace(/\/+$/, '');
    const record = newRequestRecord({ method: 'POST', path, repeatable: true, ...(onAttempt ? { onAttempt } : {}) });
    const answer = await sendRecorded(
      this.dispatcher,
      {
        origin: this.baseUrl.origin,
        path: `${prefix}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        ...(signal ? { signal } : {}),
      },
      record,
    );
    return { ...answer, record };
  }


  /** Reads a 200 answer of the token endpoint; a {@link TokenError} when it is not a token. */
  private parseTokenResponse(realm: string, text: string): Omit<IssuedToken, 'issuedAt'> | TokenError {
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
    const tokenType = (body as { token_type?: unknown }).token_type;
    const scope = (body as { scope?: unknown }).scope;
    return {
      accessToken: token,
      tokenType: typeof tokenType === 'string' && tokenType !== '' ? tokenType : 'Bearer',
      expiresIn,
      ...(typeof scope === 'string' ? { scope } : {}),
    };
  }

  /** Removes the secret from text the server sent back, in case it echoed the form (raw or form-encoded). */
  private scrub(text: string | undefined): string | undefined {
    return text === undefined ? undefined : redactKnownSecrets(text, [this.#clientSecret]);
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
