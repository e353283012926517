import { inspect } from 'node:util';
import { MockAgent } from 'undici';
import { revocationPath, tokenPath } from '../../src/api';
import {
  ClientCredentialsTokenSource,
  NetworkError,
  StaticTokenSource,
  TimeoutError,
  TokenError,
  type ClientCredentialsTokenSourceOptions,
} from '../../src/client';
import { HeldAnswers } from './held-answers';
import { ManualTimer } from './manual-timer';
import { BASE_URL, CLIENT_ID, CLIENT_SECRET, errorBody, JSON_HEADERS, replyToken, systemError } from './support';

describe('ClientCredentialsTokenSource', () => {
  let agent: MockAgent;
  let clock: number;
  const now = (): number => clock;
  /** Backoff waits the token source asked for (recorded, never slept). */
  let sleeps: number[] = [];
  const source = (extra: Partial<ClientCredentialsTokenSourceOptions> = {}): ClientCredentialsTokenSource =>
    new ClientCredentialsTokenSource({
      baseUrl: BASE_URL,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      dispatcher: agent,
      now,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...extra,
    });

  beforeEach(() => {
    sleeps = [];
    agent = new MockAgent({ enableCallHistory: true });
    agent.disableNetConnect();
    clock = 1_000_000;
  });
  afterEach(async () => {
    await agent.close();
  });

  it('posts the client-credentials form to the realm token endpoint and returns the access token', async () => {
    replyToken(agent.get(BASE_URL), 'abc');
    const tokens = source();

    await expect(tokens.getToken('acme')).resolves.toBe('abc');

    const call = agent.getCallHistory()!.lastCall()!;
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/realms/acme/protocol/openid-connect/token');
    expect(call.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(new URLSearchParams(String(call.body)))).toEqual({
      grant_type: 'client_credentials',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    expect(tokens.tokenRequests).toBe(1);
  });

  it('reuses the cached token instead of asking again', async () => {
    replyToken(agent.get(BASE_URL), 'abc');
    const tokens = source();

    await tokens.getToken('acme');
    await expect(tokens.getToken('acme')).resolves.toBe('abc');

    expect(tokens.tokenRequests).toBe(1);
  });

  it('fetches a new token once expires_in minus the refresh skew has passed', async () => {
    const pool = agent.get(BASE_URL);
    replyToken(pool, 'first', { expiresIn: 300 });
    replyToken(pool, 'second', { expiresIn: 300 });
    const tokens = source({ refreshSkewSeconds: 30 });

    await expect(tokens.getToken('acme')).resolves.toBe('first');
    clock += 269_999;
    await expect(tokens.getToken('acme')).resolves.toBe('first');
    clock += 1;
    await expect(tokens.getToken('acme')).resolves.toBe('second');

    expect(tokens.tokenRequests).toBe(2);
  });

  it('caps the refresh skew to half the lifetime of a short-lived token', async () => {
    const pool = agent.get(BASE_URL);
    replyToken(pool, 'short', { expiresIn: 20 });
    replyToken(pool, 'next', { expiresIn: 20 });
    const tokens = source({ refreshSkewSeconds: 30 });

    await tokens.getToken('acme');
    clock += 9_999;
    await expect(tokens.getToken('acme')).resolves.toBe('short');
    clock += 1;
    await expect(tokens.getToken('acme')).resolves.toBe('next');
  });

  it('keeps one cache entry per realm, each from its own token endpoint', async () => {
    const pool = agent.get(BASE_URL);
    replyToken(pool, 'acme-token', { realm: 'acme' });
    replyToken(pool, 'globex-token', { realm: 'globex' });
    const tokens = source();

    await expect(tokens.getToken('acme')).resolves.toBe('acme-token');
    await expect(tokens.getToken('globex')).resolves.toBe('globex-token');
    await expect(tokens.getToken('acme')).resolves.toBe('acme-token');

    expect(tokens.tokenRequests).toBe(2);
    expect(agent.getCallHistory()!.calls().map((c) => c.path)).toEqual([tokenPath('acme'), tokenPath('globex')]);
  });

  it('sends a single token request when many callers ask at the same time', async () => {
    const pool = agent.get(BASE_URL);
    pool
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(200, { access_token: 'shared', token_type: 'Bearer', expires_in: 300 }, JSON_HEADERS);
    const hold = new HeldAnswers({ path: tokenPath('acme'), method: 'POST' });
    const tokens = source({ dispatcher: hold.wrap(agent) });

    const calls = Array.from({ length: 20 }, () => tokens.getToken('acme'));
    // Every caller waits while the one token request is out.
    await hold.whenHeld();
    hold.release();
    const results = await Promise.all(calls);

    expect(new Set(results)).toEqual(new Set(['shared']));
    expect(tokens.tokenRequests).toBe(1);
    expect(agent.getCallHistory()!.calls()).toHaveLength(1);
  });

  it('drops the cached token on invalidate so the next call fetches a fresh one', async () => {
    const pool = agent.get(BASE_URL);
    replyToken(pool, 'old');
    replyToken(pool, 'new');
    const tokens = source();

    await tokens.getToken('acme');
    tokens.invalidate('acme', 'old');

    await expect(tokens.getToken('acme')).resolves.toBe('new');
    expect(tokens.tokenRequests).toBe(2);
  });

  it('keeps the cached token when invalidate names a token that was already replaced', async () => {
    replyToken(agent.get(BASE_URL), 'current');
    const tokens = source();

    await tokens.getToken('acme');
    tokens.invalidate('acme', 'some-older-token');

    await expect(tokens.getToken('acme')).resolves.toBe('current');
    expect(tokens.tokenRequests).toBe(1);
  });

  it('throws TokenError with status, error and description when the secret is wrong, without the secret', async () => {
    agent
      .get(BASE_URL)
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(401, errorBody('unauthorized_client', 'Invalid client secret'), JSON_HEADERS);
    const tokens = source();

    const error = await tokens.getToken('acme').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({
      code: 'ORGADMIN_TOKEN',
      status: 401,
      error: 'unauthorized_client',
      errorDescription: 'Invalid client secret',
      realm: 'acme',
    });
    expect((error as Error).message).toBe('Token request for realm "acme" failed: 401 unauthorized_client: Invalid client secret');
    expect(JSON.stringify(error)).not.toContain(CLIENT_SECRET);
    expect(inspect(error)).not.toContain(CLIENT_SECRET);
  });

  it('redacts the secret when a token endpoint echoes it back in an error', async () => {
    agent
      .get(BASE_URL)
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(400, errorBody('invalid_request', `bad form client_secret=${CLIENT_SECRET}`), JSON_HEADERS);

    const error = (await source().getToken('acme').catch((e: unknown) => e)) as TokenError;

    expect(error.message).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify(error)).not.toContain(CLIENT_SECRET);
    expect(error.errorDescription).toContain('[redacted]');
  });

  it('redacts a secret with reserved characters echoed form-encoded, in the error code as well', async () => {
    const secret = 'a+b/c=d&e f';
    const encoded = new URLSearchParams({ client_secret: secret }).toString();
    agent
      .get(BASE_URL)
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(400, errorBody(`invalid_request ${secret}`, `bad form ${encoded}`), JSON_HEADERS);
    const tokens = new ClientCredentialsTokenSource({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: secret, dispatcher: agent, now });

    const error = (await tokens.getToken('acme').catch((e: unknown) => e)) as TokenError;

    expect(error).toBeInstanceOf(TokenError);
    expect(error.error).toBe('invalid_request [redacted]');
    expect(error.errorDescription).toBe('bad form client_secret=[redacted]');
    expect(error.message).not.toContain(encoded.slice('client_secret='.length));
  });

  it('redacts an echoed secret before the excerpt of a non-JSON body is cut, so no prefix survives', async () => {
    // The secret straddles the 200-character cut of the excerpt.
    const body = `${'x'.repeat(190)} ${CLIENT_SECRET} and the rest of a proxy's HTML page`;
    agent.get(BASE_URL).intercept({ path: tokenPath('acme'), method: 'POST' }).reply(400, body, { headers: { 'content-type': 'text/html' } });

    const error = (await source().getToken('acme').catch((e: unknown) => e)) as TokenError;

    expect(error).toBeInstanceOf(TokenError);
    // The cut falls inside the marker, not inside the secret.
    expect(error.errorDescription).toMatch(/ \[redacted…$/);
    expect(JSON.stringify(error)).not.toContain(CLIENT_SECRET.slice(0, 8));
  });

  it('does not cache a failure: the next call asks again', async () => {
    const pool = agent.get(BASE_URL);
    pool.intercept({ path: tokenPath('acme'), method: 'POST' }).reply(503, 'busy');
    replyToken(pool, 'after-outage');
    const tokens = source({ maxRetries: 0 });

    await expect(tokens.getToken('acme')).rejects.toMatchObject({ code: 'ORGADMIN_TOKEN', status: 503 });
    await expect(tokens.getToken('acme')).resolves.toBe('after-outage');
    expect(tokens.tokenRequests).toBe(2);
  });

  it('rejects a 200 answer that carries no access token', async () => {
    agent.get(BASE_URL).intercept({ path: tokenPath('acme'), method: 'POST' }).reply(200, { token_type: 'Bearer' }, JSON_HEADERS);

    await expect(source().getToken('acme')).rejects.toMatchObject({
      name: 'TokenError',
      message: expect.stringContaining('without an access_token'),
    });
  });

  it('turns a refused connection into NetworkError with the cause code', async () => {
    agent.get(BASE_URL).intercept({ path: tokenPath('acme'), method: 'POST' }).replyWithError(systemError('ECONNREFUSED'));

    const error = await source({ maxRetries: 0 }).getToken('acme').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'ORGADMIN_NETWORK', causeCode: 'ECONNREFUSED', method: 'POST', path: tokenPath('acme') });
  });

  it('turns a token endpoint that does not answer in time into TimeoutError', async () => {
    agent
      .get(BASE_URL)
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(200, { access_token: 'late', expires_in: 300 }, JSON_HEADERS);
    const hold = new HeldAnswers({ path: tokenPath('acme'), method: 'POST' });
    const clock = new ManualTimer();

    const pending = source({ timeoutMs: 40, maxRetries: 0, dispatcher: hold.wrap(agent), timer: clock.timer })
      .getToken('acme')
      .catch((e: unknown) => e);
    // The answer is held: the 40 ms run out before it comes.
    await hold.whenHeld();
    expect(clock.running).toEqual([40]);
    clock.expire();
    const error = await pending;

    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'ORGADMIN_TIMEOUT', timeoutMs: 40 });
  });

  it('retries a dropped token answer once for all the calls waiting for it', async () => {
    const pool = agent.get(BASE_URL);
    pool.intercept({ path: tokenPath('acme'), method: 'POST' }).replyWithError(systemError('ECONNRESET'));
    replyToken(pool, 'second-try');
    const tokens = source();

    const tokensGot = await Promise.all(Array.from({ length: 20 }, () => tokens.getToken('acme')));

    expect(new Set(tokensGot)).toEqual(new Set(['second-try']));
    // One failed request and one retry, shared by the 20 callers: not one retry per caller.
    expect(tokens.tokenRequests).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it('retries a token request that timed out', async () => {
    const pool = agent.get(BASE_URL);
    pool.intercept({ path: tokenPath('acme'), method: 'POST' }).reply(200, { access_token: 'late', expires_in: 300 }, JSON_HEADERS);
    replyToken(pool, 'in-time');
    // Only the first answer is held; the retry is answered at once.
    const hold = new HeldAnswers({ path: tokenPath('acme'), method: 'POST', times: 1 });
    const clock = new ManualTimer();

    const token = source({ timeoutMs: 40, dispatcher: hold.wrap(agent), timer: clock.timer }).getToken('acme');
    await hold.whenHeld();
    clock.expire();

    await expect(token).resolves.toBe('in-time');
  });

  it('says how many token requests were made and what each got when it gives up', async () => {
    const pool = agent.get(BASE_URL);
    pool.intercept({ path: tokenPath('acme'), method: 'POST' }).reply(503, 'busy');
    pool.intercept({ path: tokenPath('acme'), method: 'POST' }).replyWithError(systemError('ECONNRESET'));
    pool.intercept({ path: tokenPath('acme'), method: 'POST' }).reply(502, 'bad gateway');
    const tokens = source({ maxRetries: 2 });

    const error = (await tokens.getToken('acme').catch((e: unknown) => e)) as TokenError;

    expect(error).toBeInstanceOf(TokenError);
    expect(tokens.tokenRequests).toBe(3);
    expect(error.attempts?.outcomes).toEqual(['HTTP 503', 'connection failed (ECONNRESET)', 'HTTP 502']);
    expect(error.message).toContain('3 attempts: HTTP 503; connection failed (ECONNRESET); HTTP 502');
  });

  it('does not retry a refused client secret', async () => {
    agent.get(BASE_URL).intercept({ path: tokenPath('acme'), method: 'POST' }).reply(401, { error: 'unauthorized_client', error_description: 'Invalid client secret' }, JSON_HEADERS);
    const tokens = source();

    await expect(tokens.getToken('acme')).rejects.toMatchObject({ status: 401, error: 'unauthorized_client' });
    expect(tokens.tokenRequests).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('lets one waiting caller give up without failing the others that share the request', async () => {
    agent
      .get(BASE_URL)
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(200, { access_token: 'shared', expires_in: 300 }, JSON_HEADERS);
    const hold = new HeldAnswers({ path: tokenPath('acme'), method: 'POST' });
    const tokens = source({ dispatcher: hold.wrap(agent) });
    const impatient = new AbortController();

    const abandoned = tokens.getToken('acme', { signal: impatient.signal });
    const patient = tokens.getToken('acme');
    await hold.whenHeld();
    impatient.abort(new Error('caller gave up'));

    await expect(abandoned).rejects.toThrow('caller gave up');
    hold.release();
    await expect(patient).resolves.toBe('shared');
    expect(tokens.tokenRequests).toBe(1);
  });

  it('issues a token of its own with the scope asked for, leaving the cached one alone', async () => {
    replyToken(agent.get(BASE_URL), 'cached');
    replyToken(agent.get(BASE_URL), 'issued', { expiresIn: 120 });
    const tokens = source();
    await tokens.getToken('acme');

    const issued = await tokens.issueToken('acme', { scope: 'view-organizations' });

    expect(issued).toEqual({ accessToken: 'issued', tokenType: 'Bearer', expiresIn: 120, scope: 'view-organizations', issuedAt: clock });
    expect(Object.fromEntries(new URLSearchParams(String(agent.getCallHistory()!.lastCall()!.body)))).toMatchObject({ scope: 'view-organizations' });
    await expect(tokens.getToken('acme')).resolves.toBe('cached');
    expect(tokens.tokenRequests).toBe(2);
  });

  it('revokes a token at the realm revocation endpoint with the API key, and reports a refusal as TokenError', async () => {
    const pool = agent.get(BASE_URL);
    pool.intercept({ path: revocationPath('acme'), method: 'POST' }).reply(200, '');
    pool.intercept({ path: revocationPath('acme'), method: 'POST' }).reply(400, errorBody('unauthorized_client', 'The token was issued to another client.'), JSON_HEADERS);
    const tokens = source();

    await tokens.revokeToken('acme', 'tok-1');
    const call = agent.getCallHistory()!.lastCall()!;
    expect(call.path).toBe('/realms/acme/protocol/openid-connect/revoke');
    expect(Object.fromEntries(new URLSearchParams(String(call.body)))).toEqual({
      token: 'tok-1',
      token_type_hint: 'access_token',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });

    const refused = await tokens.revokeToken('acme', 'tok-2').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TokenError);
    expect(refused).toMatchObject({ status: 400, error: 'unauthorized_client' });
    expect(String((refused as Error).message)).not.toContain(CLIENT_SECRET);
    // Revocations are not token requests.
    expect(tokens.tokenRequests).toBe(0);
  });

  it('never shows the secret when the token source itself is printed or serialised', () => {
    const tokens = source();
    expect(JSON.stringify(tokens)).not.toContain(CLIENT_SECRET);
    expect(inspect(tokens, { depth: 5 })).not.toContain(CLIENT_SECRET);
  });

  it('rejects a missing secret or a base address that is not http(s) at construction', () => {
    expect(() => new ClientCredentialsTokenSource({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: '' })).toThrow(
      'needs a clientSecret',
    );
    expect(
      () => new ClientCredentialsTokenSource({ baseUrl: 'ftp://acme.example.com', clientId: CLIENT_ID, clientSecret: 'x' }),
    ).toThrow('must be http or https');
  });
});

describe('StaticTokenSource', () => {
  it('hands out the token it was given, whatever the realm, and ignores invalidate', async () => {
    const tokens = new StaticTokenSource('user-token');
    tokens.invalidate('acme', 'user-token');
    await expect(tokens.getToken('acme')).resolves.toBe('user-token');
    await expect(tokens.getToken('globex')).resolves.toBe('user-token');
  });

  it('rejects an empty token', () => {
    expect(() => new StaticTokenSource('')).toThrow('non-empty access token');
  });
});
