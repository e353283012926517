/**
 * The interceptor chain of `src/client/http.ts` as a whole: how retry, auth and timeout share one
 * request's record, and the composed dispatcher used on its own. MockAgent at the HTTP boundary.
 */
import { getEventListeners } from 'node:events';
import { errors as undiciErrors, MockAgent } from 'undici';
import { orgPath, orgsPath, tokenPath } from '../../src/api';
import { StaticTokenSource, TimeoutError, UnauthorizedError } from '../../src/client';
import { composeApiDispatcher } from '../../src/client/http';
import { bufferedInterceptor } from '../../src/client/interceptors/buffered';
import { HeldAnswers } from './held-answers';
import { ManualTimer } from './manual-timer';
import { BASE_URL, errorBody, JSON_HEADERS, mockSetup, org, replyToken, type MockSetup } from './support';

describe('the interceptor chain', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.close();
  });

  it('refreshes the token once per request, across retries, and logs every attempt in order', async () => {
    setup = mockSetup();
    replyToken(setup.pool, 'stale');
    replyToken(setup.pool, 'fresh');
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(401, errorBody('invalid_token', 'Token expired'));
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(503, '');
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(401, errorBody('invalid_token', 'Not allowed'));

    const error = (await setup.client.getOrganization('o1').catch((e: unknown) => e)) as UnauthorizedError;

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).toContain('even with a fresh token');
    expect(error.attempts?.outcomes).toEqual(['HTTP 401 (fresh token fetched)', 'HTTP 503', 'HTTP 401']);
    expect(setup.tokens.tokenRequests).toBe(2);
    expect(setup.apiCalls().map((c) => c.headers?.authorization)).toEqual(['Bearer stale', 'Bearer fresh', 'Bearer fresh']);
  });

  it('logs one attempt when a static token that a 401 rejected cannot be replaced', async () => {
    setup = mockSetup({ tokenSource: new StaticTokenSource('user-token') });
    setup.pool.intercept({ path: orgsPath('acme') }).reply(401, errorBody('invalid_token', 'Token expired'));

    const error = (await setup.client.listOrganizations().catch((e: unknown) => e)) as UnauthorizedError;

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).not.toContain('even with a fresh token');
    expect(error.attempts?.outcomes).toEqual(['HTTP 401']);
  });

  it("fails an attempt in flight with the caller's reason when the caller aborts, not as a timeout, and leaves no listener on the caller's signal", async () => {
    const hold = new HeldAnswers({ path: orgPath('acme', 'o1') });
    setup = mockSetup({ hold });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS);
    setup.pool.intercept({ path: orgPath('acme', 'o2') }).reply(200, org('o2'), JSON_HEADERS);
    const finished = new AbortController();
    await expect(setup.client.getOrganization('o2', { signal: finished.signal })).resolves.toMatchObject({ id: 'o2' });
    // A request that ended leaves nothing listening on the signal its caller may keep using.
    expect(getEventListeners(finished.signal, 'abort')).toHaveLength(0);

    const controller = new AbortController();
    const call = setup.client.getOrganization('o1', { signal: controller.signal });
    await hold.whenHeld();
    controller.abort(new Error('plan cancelled'));

    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('plan cancelled');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("stops waiting for a token when the caller aborts, with the caller's reason", async () => {
    const hold = new HeldAnswers({ path: tokenPath('acme'), method: 'POST' });
    setup = mockSetup({ hold });
    setup.pool
      .intercept({ path: tokenPath('acme'), method: 'POST' })
      .reply(200, { access_token: 'late', expires_in: 300 }, JSON_HEADERS);
    const controller = new AbortController();

    const call = setup.client.listOrganizations({}, { signal: controller.signal });
    // The token request is out and its answer held: the call waits for the token.
    await hold.whenHeld();
    controller.abort(new Error('plan cancelled'));

    await expect(call).rejects.toThrow('plan cancelled');
    // The late token, once it comes, sends nothing on behalf of the cancelled call.
    hold.release();
    await expect(setup.tokens.getToken('acme')).resolves.toBe('late');
    expect(setup.apiCalls()).toHaveLength(0);
  });

  it("reports undici's own headers timeout as a timed-out attempt and retries it", async () => {
    setup = mockSetup({ timeoutMs: 5_000, maxRetries: 1 });
    replyToken(setup.pool);
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).replyWithError(new undiciErrors.HeadersTimeoutError());
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).replyWithError(new undiciErrors.HeadersTimeoutError());

    const error = (await setup.client.getOrganization('o1').catch((e: unknown) => e)) as TimeoutError;

    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.attempts?.outcomes).toEqual(['timed out after 5000 ms', 'timed out after 5000 ms']);
    expect(setup.sleeps).toHaveLength(1);
  });

  it('passes the body of a success answer up whole', async () => {
    setup = mockSetup();
    replyToken(setup.pool);
    const page = Array.from({ length: 100 }, (_, i) => org(`o${i}`, `name-${'x'.repeat(200)}-${i}`));
    setup.pool.intercept({ path: orgsPath('acme') }).reply(200, page, JSON_HEADERS);

    await expect(setup.client.listOrganizations()).resolves.toEqual(page);
  });
});

describe('the composed dispatcher on its own', () => {
  it('retries a request sent without the SDK, by its method, and sends no token', async () => {
    const agent = new MockAgent({ enableCallHistory: true });
    agent.disableNetConnect();
    const pool = agent.get(BASE_URL);
    pool.intercept({ path: '/health' }).reply(503, '');
    pool.intercept({ path: '/health' }).reply(200, 'ok');
    const sleeps: number[] = [];
    const dispatcher = composeApiDispatcher(agent, {
      tokenSource: new StaticTokenSource('never-sent'),
      timeoutMs: 1_000,
      // Never expired: every answer comes at once.
      timer: new ManualTimer().timer,
      maxRetries: 1,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 1_000,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });

    const response = await dispatcher.request({ origin: BASE_URL, path: '/health', method: 'GET' });

    expect(response.statusCode).toBe(200);
    await expect(response.body.text()).resolves.toBe('ok');
    expect(sleeps).toEqual([50]);
    expect(agent.getCallHistory()!.calls().map((c) => c.headers?.authorization)).toEqual([undefined, undefined]);
    await agent.close();
  });
});

describe('bufferedInterceptor', () => {
  it('tells a handler that aborts while the answer is passed up about its abort, once, and nothing more', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(BASE_URL).intercept({ path: '/x' }).reply(200, 'body');
    const dispatcher = agent.compose(bufferedInterceptor((opts, next, signal) => next(opts, signal)));
    const events: string[] = [];

    await new Promise<void>((resolve) => {
      dispatcher.dispatch(
        { origin: BASE_URL, path: '/x', method: 'GET' },
        {
          // undici takes a handler without onRequestStart for one of its old-style handlers.
          onRequestStart: () => events.push('request start'),
          onResponseStart(controller, statusCode) {
            events.push(`start ${statusCode}`);
            controller.abort(new Error('enough'));
          },
          onResponseData: () => events.push('data'),
          onResponseEnd: () => {
            events.push('end');
            resolve();
          },
          onResponseError: (_controller, error) => {
            events.push(`error: ${error.message}`);
            resolve();
          },
        },
      );
    });

    expect(events).toEqual(['request start', 'start 200', 'error: enough']);
    await agent.close();
  });
});
