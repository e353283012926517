import { errors as undiciErrors } from 'undici';
import { memberPath, orgPath, orgsPath, portalLinkPath, tokenPath } from '../../src/api';
import {
  NetworkError,
  RateLimitedError,
  ServerError,
  StaticTokenSource,
  TimeoutError,
  UnauthorizedError,
} from '../../src/client';
import { defaultSleep, parseRetryAfter } from '../../src/client/transport';
import { backoffDelay } from '../../src/client/retry-policy';
import { HeldAnswers } from './held-answers';
import { ManualTimer } from './manual-timer';
import { BASE_URL, errorBody, JSON_HEADERS, mockSetup, org, replyToken, systemError, type MockSetup } from './support';

describe('request pipeline retries', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.close();
  });

  it('retries a GET after 503 and returns the answer that follows', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(503, errorBody('internal_error', 'Try later'), JSON_HEADERS);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS);

    await expect(setup.client.getOrganization('o1')).resolves.toMatchObject({ id: 'o1' });

    expect(setup.apiCalls()).toHaveLength(2);
    expect(setup.sleeps).toHaveLength(1);
  });

  it('retries 502 and 504 as well', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(502, 'Bad Gateway');
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(504, 'Gateway Timeout');
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS);

    await expect(setup.client.getOrganization('o1')).resolves.toMatchObject({ id: 'o1' });
    expect(setup.apiCalls()).toHaveLength(3);
  });

  it('gives up after maxRetries with ServerError, waiting longer each time (exponential backoff)', async () => {
    setup = mockSetup({ maxRetries: 3, retryBaseDelayMs: 100, retryMaxDelayMs: 10_000 });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(503, errorBody('internal_error', 'Down')).times(4);

    const error = await setup.client.getOrganization('o1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'ORGADMIN_SERVER' });
    expect(setup.apiCalls()).toHaveLength(4);
    // random() is 0.5 in the set-up: half of 100, 200, 400.
    expect(setup.sleeps).toEqual([50, 100, 200]);
  });

  it('honours Retry-After in seconds on 429, then succeeds', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool
      .intercept({ path: orgsPath('acme') })
      .reply(429, errorBody('rate_limited', 'Slow down'), { headers: { 'retry-after': '2', 'content-type': 'application/json' } });
    setup.pool.intercept({ path: orgsPath('acme') }).reply(200, [org('o1')], JSON_HEADERS);

    await expect(setup.client.listOrganizations()).resolves.toHaveLength(1);

    expect(setup.sleeps).toEqual([2000]);
  });

  it('waits for an HTTP-date Retry-After before retrying', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    const inThreeSeconds = new Date(Date.now() + 3_000).toUTCString();
    setup.pool.intercept({ path: orgsPath('acme') }).reply(429, '', { headers: { 'retry-after': inThreeSeconds } });
    setup.pool.intercept({ path: orgsPath('acme') }).reply(200, [], JSON_HEADERS);

    await setup.client.listOrganizations();

    expect(setup.sleeps).toHaveLength(1);
    expect(setup.sleeps[0]).toBeGreaterThanOrEqual(2_000);
    expect(setup.sleeps[0]).toBeLessThanOrEqual(4_000);
  });

  it('caps a long Retry-After at retryMaxDelayMs', async () => {
    setup = mockSetup({ retryMaxDelayMs: 1_500 });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme') }).reply(429, '', { headers: { 'retry-after': '3600' } });
    setup.pool.intercept({ path: orgsPath('acme') }).reply(200, [], JSON_HEADERS);

    await setup.client.listOrganizations();

    expect(setup.sleeps).toEqual([1_500]);
  });

  it('really waits between attempts with the default sleep', async () => {
    // The default sleep is a real timer; the test's clock is jest's (timers and performance.now),
    // which it moves by hand, so the 59 ms wait is measured without being waited for.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate'] });
    try {
      setup = mockSetup({ sleep: undefined, retryBaseDelayMs: 60, random: () => 0.999 });
      replyToken(setup.pool);
      setup.pool.intercept({ path: orgsPath('acme') }).reply(503, '');
      setup.pool.intercept({ path: orgsPath('acme') }).reply(200, [], JSON_HEADERS);
      // The recording sleep of mockSetup is replaced by the real one: measure instead.
      const started = performance.now();
      let answeredAt: number | undefined;
      const listing = setup.client.listOrganizations().then(() => (answeredAt = performance.now()));
      await jest.advanceTimersByTimeAsync(2_000);
      await listing;
      const elapsed = answeredAt! - started;

      expect(elapsed).toBeGreaterThanOrEqual(50);
      expect(elapsed).toBeLessThan(2_000);
    } finally {
      jest.useRealTimers();
    }
  });

  it('throws RateLimitedError with retryAfterSeconds when 429 persists', async () => {
    setup = mockSetup({ maxRetries: 1 });
    replyToken(setup.pool);
    setup.pool
      .intercept({ path: orgsPath('acme') })
      .reply(429, errorBody('rate_limited', 'Too many requests'), { headers: { 'retry-after': '1' } })
      .times(2);

    const error = await setup.client.listOrganizations().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 1, error: 'rate_limited', code: 'ORGADMIN_RATE_LIMITED' });
  });

  it('retries a GET after a reset connection', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).replyWithError(systemError('ECONNRESET'));
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS);

    await expect(setup.client.getOrganization('o1')).resolves.toMatchObject({ id: 'o1' });
    expect(setup.apiCalls()).toHaveLength(2);
  });

  it('retries a DELETE after the socket was closed by the other side', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1'), method: 'DELETE' }).replyWithError(new undiciErrors.SocketError('other side closed'));
    setup.pool.intercept({ path: orgPath('acme', 'o1'), method: 'DELETE' }).reply(204, '');

    await expect(setup.client.deleteOrganization('o1')).resolves.toBeUndefined();
    expect(setup.apiCalls()).toHaveLength(2);
  });

  it('throws NetworkError carrying the cause code once the network retries are used up', async () => {
    setup = mockSetup({ maxRetries: 2 });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).replyWithError(systemError('ECONNRESET')).times(3);

    const error = await setup.client.getOrganization('o1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'ORGADMIN_NETWORK', causeCode: 'ECONNRESET', method: 'GET', path: orgPath('acme', 'o1') });
    expect(setup.apiCalls()).toHaveLength(3);
  });

  it('retries an idempotent PUT (add member) after 503', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: memberPath('acme', 'o1', 'u1'), method: 'PUT' }).reply(503, '');
    setup.pool.intercept({ path: memberPath('acme', 'o1', 'u1'), method: 'PUT' }).reply(201, '');

    await expect(setup.client.addMember('o1', 'u1')).resolves.toBeUndefined();
    expect(setup.apiCalls()).toHaveLength(2);
  });

  it('never retries a POST create after 503: it might have created the organization', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(503, errorBody('internal_error', 'Oops'));

    const error = await setup.client.createOrganization({ name: 'globex' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ServerError);
    expect(setup.apiCalls()).toHaveLength(1);
    expect(setup.sleeps).toEqual([]);
  });

  it('never retries a POST after a reset connection', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: portalLinkPath('acme', 'o1'), method: 'POST' }).replyWithError(systemError('ECONNRESET'));

    await expect(setup.client.createPortalLink('o1')).rejects.toBeInstanceOf(NetworkError);
    expect(setup.apiCalls()).toHaveLength(1);
  });

  it('retries a POST whose connection was refused, since nothing reached the service', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).replyWithError(systemError('ECONNREFUSED'));
    setup.pool
      .intercept({ path: orgsPath('acme'), method: 'POST' })
      .reply(201, '', { headers: { location: `${BASE_URL}${orgsPath('acme')}/new-id` } });

    await expect(setup.client.createOrganization({ name: 'globex' })).resolves.toBe('new-id');
    expect(setup.apiCalls()).toHaveLength(2);
  });

  it('retries the attempt when the token endpoint refused the connection', async () => {
    setup = mockSetup();
    setup.pool.intercept({ path: tokenPath('acme'), method: 'POST' }).replyWithError(systemError('ECONNREFUSED'));
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(201, '', {
      headers: { location: `${BASE_URL}${orgsPath('acme')}/created` },
    });

    await expect(setup.client.createOrganization({ name: 'globex' })).resolves.toBe('created');
    expect(setup.tokens.tokenRequests).toBe(2);
    expect(setup.apiCalls()).toHaveLength(1);
  });

  it('retries the attempt when the token endpoint answers 429, waiting its Retry-After', async () => {
    setup = mockSetup();
    setup.pool
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(429, errorBody('rate_limited', 'Too many requests'), { headers: { 'content-type': 'application/json', 'retry-after': '2' } });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme'), method: 'GET' }).reply(200, [], JSON_HEADERS);

    await expect(setup.client.listOrganizations()).resolves.toEqual([]);
    expect(setup.sleeps).toEqual([2000]);
    expect(setup.tokens.tokenRequests).toBe(2);
    expect(setup.apiCalls()).toHaveLength(1);
  });

  it('retries the attempt when the token endpoint answers 503, even for a POST create', async () => {
    setup = mockSetup();
    setup.pool.intercept({ path: tokenPath('acme'), method: 'POST' }).reply(503, errorBody('internal_error', 'Down'));
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(201, '', {
      headers: { location: `${BASE_URL}${orgsPath('acme')}/created` },
    });

    await expect(setup.client.createOrganization({ name: 'globex' })).resolves.toBe('created');
    expect(setup.tokens.tokenRequests).toBe(2);
    expect(setup.apiCalls()).toHaveLength(1);
  });

  it('gives up with the TokenError once the token endpoint stays unavailable past maxRetries', async () => {
    setup = mockSetup({ maxRetries: 1 });
    setup.pool.intercept({ path: tokenPath('acme'), method: 'POST' }).reply(503, errorBody('internal_error', 'Down')).times(2);

    await expect(setup.client.listOrganizations()).rejects.toMatchObject({ name: 'TokenError', status: 503 });
    expect(setup.tokens.tokenRequests).toBe(2);
    expect(setup.apiCalls()).toHaveLength(0);
  });

  it('does not retry a token request that the token endpoint refused', async () => {
    setup = mockSetup();
    setup.pool.intercept({ path: tokenPath('acme'), method: 'POST' }).reply(401, errorBody('unauthorized_client', 'Invalid client secret'));

    await expect(setup.client.listOrganizations()).rejects.toMatchObject({ name: 'TokenError', status: 401, error: 'unauthorized_client' });
    expect(setup.tokens.tokenRequests).toBe(1);
    expect(setup.apiCalls()).toHaveLength(0);
  });

  it('does not retry a 400', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1'), method: 'PUT' }).reply(400, errorBody('invalid_body', 'name is required'));

    await expect(setup.client.updateOrganization('o1', { name: '' })).rejects.toMatchObject({ status: 400 });
    expect(setup.apiCalls()).toHaveLength(1);
  });

  it('on 401 drops the token, fetches a fresh one and retries once', async () => {
    setup = mockSetup();
    replyToken(setup.pool, 'stale');
    replyToken(setup.pool, 'fresh');
    setup.pool
      .intercept({ path: orgPath('acme', 'o1'), headers: { authorization: 'Bearer stale' } })
      .reply(401, errorBody('invalid_token', 'Token expired'));
    setup.pool
      .intercept({ path: orgPath('acme', 'o1'), headers: { authorization: 'Bearer fresh' } })
      .reply(200, org('o1'), JSON_HEADERS);

    await expect(setup.client.getOrganization('o1')).resolves.toMatchObject({ id: 'o1' });

    expect(setup.tokens.tokenRequests).toBe(2);
    expect(setup.apiCalls()).toHaveLength(2);
  });

  it('throws UnauthorizedError saying the credentials are wrong or lack permission when 401 persists', async () => {
    setup = mockSetup();
    replyToken(setup.pool, 'first');
    replyToken(setup.pool, 'second');
    setup.pool
      .intercept({ path: orgsPath('acme'), method: 'POST' })
      .reply(401, errorBody('invalid_token', 'Not allowed'))
      .times(2);

    const error = await setup.client.createOrganization({ name: 'x' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: 'ORGADMIN_UNAUTHORIZED', error: 'invalid_token' });
    expect((error as Error).message).toMatch(/^POST \/realms\/acme\/orgs failed: 401 invalid_token: Not allowed\./);
    expect((error as Error).message).toContain('lacks the permission');
    expect(setup.tokens.tokenRequests).toBe(2);
    expect(setup.apiCalls()).toHaveLength(2);
  });

  it('does not resend with a static token that a 401 rejected', async () => {
    setup = mockSetup({ tokenSource: new StaticTokenSource('user-token') });
    setup.pool.intercept({ path: orgsPath('acme') }).reply(401, errorBody('invalid_token', 'Token expired'));

    await expect(setup.client.listOrganizations()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(setup.apiCalls()).toHaveLength(1);
  });

  it('retries a GET that timed out, and says so when every attempt timed out', async () => {
    const hold = new HeldAnswers({ path: orgPath('acme', 'o1') });
    const clock = new ManualTimer();
    setup = mockSetup({ timeoutMs: 40, maxRetries: 1, hold, timer: clock.timer });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS).times(2);

    const pending = setup.client.getOrganization('o1').catch((e: unknown) => e);
    // Each attempt's answer is held until its 40 ms have run out.
    for (const attempt of [1, 2]) {
      await hold.whenHeld(attempt);
      expect(clock.running).toEqual([40]);
      clock.expire();
    }
    const error = (await pending) as TimeoutError;

    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'ORGADMIN_TIMEOUT', method: 'GET', path: orgPath('acme', 'o1'), timeoutMs: 40 });
    expect(setup.apiCalls()).toHaveLength(2);
    expect(error.attempts?.outcomes).toEqual(['timed out after 40 ms', 'timed out after 40 ms']);
    expect(error.message).toContain('2 attempts');
  });

  it('returns the answer of a retry after a GET timed out once', async () => {
    const hold = new HeldAnswers({ path: orgPath('acme', 'o1'), times: 1 });
    const clock = new ManualTimer();
    setup = mockSetup({ timeoutMs: 40, hold, timer: clock.timer });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1', 'second'), JSON_HEADERS);

    const found = setup.client.getOrganization('o1');
    await hold.whenHeld();
    clock.expire();

    await expect(found).resolves.toMatchObject({ name: 'second' });
    expect(setup.apiCalls()).toHaveLength(2);
  });

  it('retries a POST create after 429: the service did nothing', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool
      .intercept({ path: orgsPath('acme'), method: 'POST' })
      .reply(429, errorBody('rate_limited', 'Slow down'), { headers: { 'content-type': 'application/json', 'retry-after': '1' } });
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(201, '', { headers: { location: `${BASE_URL}${orgsPath('acme')}/made` } });

    await expect(setup.client.createOrganization({ name: 'globex' })).resolves.toBe('made');
    expect(setup.apiCalls()).toHaveLength(2);
    expect(setup.sleeps).toEqual([1000]);
  });

  it('retries a POST create after 503 with Retry-After, but not after a bare 503', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    setup.pool
      .intercept({ path: orgsPath('acme'), method: 'POST' })
      .reply(503, errorBody('unavailable', 'Maintenance'), { headers: { 'content-type': 'application/json', 'retry-after': '2' } });
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(503, errorBody('internal_error', 'Oops'));

    const error = (await setup.client.createOrganization({ name: 'globex' }).catch((e: unknown) => e)) as ServerError;

    expect(error).toBeInstanceOf(ServerError);
    expect(setup.apiCalls()).toHaveLength(2);
    expect(error.attempts?.outcomes).toEqual(['HTTP 503 (Retry-After 2 s)', 'HTTP 503']);
    expect(error.attempts?.stoppedBecause).toMatch(/could do it twice/);
  });

  it('retries a create that carries a client-chosen id after a timeout and a dropped connection', async () => {
    const hold = new HeldAnswers({ path: orgsPath('acme'), method: 'POST', times: 1 });
    const clock = new ManualTimer();
    setup = mockSetup({ timeoutMs: 40, hold, timer: clock.timer });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(201, '');
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).replyWithError(systemError('ECONNRESET'));
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(201, '', { headers: { location: `${BASE_URL}${orgsPath('acme')}/chosen-id` } });

    const created = setup.client.createOrganization({ id: 'chosen-id', name: 'globex' });
    await hold.whenHeld();
    clock.expire();

    await expect(created).resolves.toBe('chosen-id');
    expect(setup.apiCalls()).toHaveLength(3);
  });

  it('does not retry a create without an id after a timeout, and says why', async () => {
    const hold = new HeldAnswers({ path: orgsPath('acme'), method: 'POST' });
    const clock = new ManualTimer();
    setup = mockSetup({ timeoutMs: 40, hold, timer: clock.timer });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(201, '');

    const pending = setup.client.createOrganization({ name: 'globex' }).catch((e: unknown) => e);
    await hold.whenHeld();
    clock.expire();
    const error = (await pending) as TimeoutError;

    expect(error).toBeInstanceOf(TimeoutError);
    expect(setup.apiCalls()).toHaveLength(1);
    expect(error.attempts?.outcomes).toEqual(['timed out after 40 ms']);
    expect(error.message).toContain('not retried: the request may have been carried out');
  });

  it('counts the attempts it really made in the error, retries and all', async () => {
    setup = mockSetup({ maxRetries: 3 });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(503, '');
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).replyWithError(systemError('ECONNRESET'));
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(429, '', { headers: { 'retry-after': '1' } });
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(502, '');

    const error = (await setup.client.getOrganization('o1').catch((e: unknown) => e)) as ServerError;

    expect(setup.apiCalls()).toHaveLength(4);
    expect(error.attempts?.outcomes).toEqual(['HTTP 503', 'connection failed (ECONNRESET)', 'HTTP 429 (Retry-After 1 s)', 'HTTP 502']);
    expect(error.attempts?.stoppedBecause).toBe('gave up after 4 attempts (max_retries = 3)');
  });

  it("stops waiting between attempts when the caller's signal aborts, with the caller's reason", async () => {
    // The real sleep (a 4995 ms timer), watched so that the abort comes once it has started.
    let sleepStarted!: () => void;
    const sleeping = new Promise<void>((resolve) => (sleepStarted = resolve));
    setup = mockSetup({
      sleep: (ms, signal) => {
        const slept = defaultSleep(ms, signal);
        sleepStarted();
        return slept;
      },
      retryBaseDelayMs: 5_000,
      random: () => 0.999,
    });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgsPath('acme') }).reply(503, '');
    const controller = new AbortController();

    const started = performance.now();
    const call = setup.client.listOrganizations({}, { signal: controller.signal });
    await sleeping;
    controller.abort(new Error('deploy cancelled'));

    await expect(call).rejects.toThrow('deploy cancelled');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('backoff and Retry-After arithmetic', () => {
  it('caps the backoff at retryMaxDelayMs', () => {
    expect(backoffDelay(0, 250, 1000, () => 0.999)).toBe(249);
    expect(backoffDelay(10, 250, 1000, () => 0.999)).toBe(999);
    expect(backoffDelay(3, 250, 1000, () => 0)).toBe(0);
  });

  it('honours Retry-After given as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
