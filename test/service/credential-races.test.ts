/**
 * The failed-credential throttle under real concurrency (issue 27, finding 1): 120 attempts sent at
 * once over the service's real port, from one address, for one credential. The throttle counts an
 * attempt before the work it protects, so exactly as many attempts reach the password or secret
 * check as a sequential guesser would get (the free failures plus the one that starts the wait),
 * and every other answer is a 429 that did no work. A burst after the wait gets one attempt again.
 * The service clock is injected, so the wait is stepped through without sleeping.
 *
 * The service runs on PostgreSQL, where every credential check waits for the database: on SQLite
 * a client-secret check never yields to the event loop (its reads are synchronous and its hash is
 * an HMAC), so only the password checks (scrypt, in the thread pool) would race there.
 */
import { request } from 'undici';
import { tokenPath } from '../../src/api';
import { DEFAULT_CREDENTIAL_THROTTLE } from '../../src/service/auth/credential-throttle';
import { authorizationPath } from '../../src/service/login-paths';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';
import { Browser, hiddenFields, pkcePair } from './login/browser-like';

/** Attempts sent at once in each burst. */
const BURST = 120;
/** What a sequential guesser gets before the first wait: the free failures and the one that starts the wait. */
const THROUGH = DEFAULT_CREDENTIAL_THROTTLE.freeFailures + 1;

let clock = Date.UTC(2026, 0, 1);
let postgres: TestPostgres;
let svc: TestService;
let key: { clientId: string; clientSecret: string };

beforeAll(async () => {
  postgres = await startPostgres();
  svc = await startTestService({ now: () => clock, dataFile: await postgres.createSchema() });
  key = await createTestRealm(svc, 'acme');
  await svc.admin.createUser('acme', { username: 'alice', password: 'correct horse battery staple' });
});
afterAll(async () => {
  await svc?.close();
  await postgres?.stop();
});

/** Sends `count` copies of a form POST at once and tallies the statuses. */
async function burst(count: number, url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Map<number, number>> {
  const statuses = await Promise.all(
    Array.from({ length: count }, async () => {
      const answer = await request(`${svc.baseUrl}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      });
      await answer.body.dump();
      return answer.statusCode;
    }),
  );
  const tally = new Map<number, number>();
  for (const status of statuses) tally.set(status, (tally.get(status) ?? 0) + 1);
  return tally;
}

/** Steps the service clock past the wait the last burst started (the first wait is the base delay). */
const stepPastWait = (ms: number): void => {
  clock += ms + 1;
};

describe('concurrent guesses are throttled exactly like sequential ones', () => {
  it('lets 6 of 120 parallel wrong passwords reach the password check, then 1 of the next burst after the wait', async () => {
    const form = { grant_type: 'password', client_id: 'admin-cli', username: 'alice', password: 'wrong' };
    const first = await burst(BURST, tokenPath('acme'), form);
    expect(Object.fromEntries(first)).toEqual({ 400: THROUGH, 429: BURST - THROUGH });

    stepPastWait(DEFAULT_CREDENTIAL_THROTTLE.baseDelayMs);
    const second = await burst(BURST, tokenPath('acme'), form);
    expect(Object.fromEntries(second)).toEqual({ 400: 1, 429: BURST - 1 });
  });

  it('lets 6 of 120 parallel wrong client secrets reach the secret check, then 1 of the next burst after the wait', async () => {
    const form = { grant_type: 'client_credentials', client_id: key.clientId, client_secret: 'wrong' };
    const first = await burst(BURST, tokenPath('acme'), form);
    expect(Object.fromEntries(first)).toEqual({ 401: THROUGH, 429: BURST - THROUGH });

    stepPastWait(DEFAULT_CREDENTIAL_THROTTLE.baseDelayMs);
    const second = await burst(BURST, tokenPath('acme'), form);
    expect(Object.fromEntries(second)).toEqual({ 401: 1, 429: BURST - 1 });
  });

  it('lets 6 of 120 parallel login form posts with a wrong password through, then 1 after the wait', async () => {
    await svc.admin.createUser('acme', { username: 'bob', password: 'another long password' });
    const browser = new Browser(svc.baseUrl);
    const { challenge } = pkcePair();
    const query = new URLSearchParams({
      client_id: 'orgadmin-dashboard',
      redirect_uri: `${svc.baseUrl}/realms/acme/dashboard/callback`,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const page = await browser.go('GET', `${authorizationPath('acme')}?${query}`);
    expect(page.status).toBe(200);
    const form = { ...hiddenFields(page.text), username: 'bob', password: 'wrong' };
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

    const first = await burst(BURST, authorizationPath('acme'), form, { cookie });
    expect(Object.fromEntries(first)).toEqual({ 401: THROUGH, 429: BURST - THROUGH });

    stepPastWait(DEFAULT_CREDENTIAL_THROTTLE.baseDelayMs);
    const second = await burst(BURST, authorizationPath('acme'), form, { cookie });
    expect(Object.fromEntries(second)).toEqual({ 401: 1, 429: BURST - 1 });
  });
});
