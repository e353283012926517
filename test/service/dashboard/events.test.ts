/**
 * The dashboard's Events page without a browser (the real service on port 0 with a real SQLite
 * file, cookies by hand): the realm's audit log, newest first, with the filters of the JSON API
 * (type, resource path prefix, actor, time range) and paging; a bad filter answers 400 with the
 * audit log's own message and keeps what was typed; stored text is escaped. Event times come from
 * a clock the test sets.
 */
import type { EventRepresentation } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { startTestService, type TestService } from '../../helpers/service';
import { Browser, hiddenFields } from '../login/browser-like';

const EVENTS = '/realms/acme/dashboard/events';
const KEY_ORIGIN = { clientId: 'ci-key', userId: 'service-account-ci', ipAddress: '192.0.2.7' };

let svc: TestService;
let browser: Browser;
/** The store's clock of event times: each event one second after the previous. */
let now = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  svc = await startTestService({ clock: () => (now += 1000) });
  await svc.admin.createRealm('acme');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', realmAdmin: true });
  const asKey = new Admin(svc.store, { origin: KEY_ORIGIN });
  for (let i = 0; i < 55; i++) await asKey.createUser('acme', { username: `user-${i}` });
  // Sign in through the dashboard's own code flow (recording the sign-in).
  browser = new Browser(svc.baseUrl);
  const start = await browser.go('GET', EVENTS);
  const login = await browser.go('GET', start.location!);
  const posted = await browser.go('POST', '/realms/acme/protocol/openid-connect/auth', { ...hiddenFields(login.text), username: 'ada', password: 'ada-pw' });
  const callback = await browser.go('GET', posted.location!);
  expect(callback.location).toBe(EVENTS);
});
afterAll(async () => {
  await svc.close();
});

/** The audit log as the JSON API's rules answer it (admin/audit-log.ts), for comparison. */
const logOf = (query: Record<string, string> = {}): Promise<EventRepresentation[]> => svc.admin.events.list('acme', { ...query, max: 1000 });

/** The event ids of the page's table, in order. */
const idsOf = (text: string): string[] => [...text.matchAll(/<tr data-event-id="([^"]+)">/g)].map((match) => match[1]!);

/** The page at `query`, which must answer `status`. */
async function page(query: Record<string, string>, status = 200): Promise<string> {
  const answer = await browser.go('GET', `${EVENTS}?${new URLSearchParams(query).toString()}`);
  expect(answer.status).toBe(status);
  return answer.text;
}

it('lists the realm\'s events newest first, with the actor and the representation after the change', async () => {
  const all = await logOf();
  const text = await page({});
  expect(idsOf(text)).toEqual(all.slice(0, 50).map((event) => event.id));
  expect(text).toContain('<a href="/realms/acme/dashboard/events" aria-current="page">Events</a>');
  // The sign-in of the dashboard's own user is there, as Keycloak names it.
  expect(all.some((event) => event.type === 'access.LOGIN' && event.details.username === 'ada')).toBe(true);
  expect(text).toContain('<code>admin.USER-CREATE</code>');
  expect(text).toContain('service-account-ci (192.0.2.7)');
});

it('answers each filter as the JSON API does', async () => {
  const all = await logOf();
  const match = async (query: Record<string, string>): Promise<void> => {
    const expected = (await logOf(query)).slice(0, 50).map((event) => event.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(idsOf(await page(query))).toEqual(expected);
  };
  const user = all.find((event) => event.type === 'admin.USER-CREATE')!;
  await match({ type: 'access.*' });
  await match({ type: 'admin.USER-*,admin.REALM-CREATE' });
  await match({ resourcePath: user.resourcePath! });
  expect(idsOf(await page({ resourcePath: user.resourcePath! }))).toEqual([user.id]);
  await match({ actor: 'ci-key' });
  await match({ dateFrom: String(user.time), dateTo: String(user.time + 1) });
  expect(idsOf(await page({ dateFrom: String(user.time), dateTo: String(user.time + 1) }))).toEqual([user.id]);
});

it('pages through the log with Newer and Older links that keep the filters', async () => {
  const all = await logOf({ type: 'admin.USER-CREATE' });
  expect(all.length).toBeGreaterThan(50);
  const first = await page({ type: 'admin.USER-CREATE' });
  expect(first).toContain('href="/realms/acme/dashboard/events?type=admin.USER-CREATE&#38;resourcePath=&#38;actor=&#38;dateFrom=&#38;dateTo=&#38;first=50">Older</a>');
  expect(first).not.toContain('>Newer</a>');
  const second = await page({ type: 'admin.USER-CREATE', first: '50' });
  expect(idsOf(second)).toEqual(all.slice(50).map((event) => event.id));
  expect(second).toContain('first=0">Newer</a>');
  expect(second).not.toContain('>Older</a>');
});

it('refuses a bad filter with 400, the audit log\'s message, and the typed values kept (escaped)', async () => {
  const text = await page({ dateFrom: 'last <b>week</b>' }, 400);
  expect(text).toContain('<p class="error" role="alert">dateFrom &#34;last &#60;b&#62;week&#60;/b&#62;&#34; is neither milliseconds since the epoch nor an ISO 8601 date or date-time.</p>');
  expect(text).toContain('value="last &#60;b&#62;week&#60;/b&#62;"');
  expect(idsOf(text)).toEqual([]);
  const badType = await page({ type: 'admin.(x)' }, 400);
  expect(badType).toContain('type &#34;admin.(x)&#34; may hold only letters');
});

it('is for signed-in realm administrators only', async () => {
  const anonymous = await new Browser(svc.baseUrl).go('GET', EVENTS);
  expect(anonymous.status).toBe(303);
  expect(anonymous.location).toContain('/protocol/openid-connect/auth');
});
