/**
 * The dashboard's Webhooks section without a browser (the real service on port 0, cookies by
 * hand): adding a webhook with a generated secret shows that secret once and the service signs with
 * it; a typed secret is used and never echoed; a refused URL or filter answers 400 with the
 * service's message, keeps what was typed and creates nothing; turning off, on and deleting change
 * the service's own data; posts without the CSRF token are refused. Read back through the store.
 */
import { createTestRealm, startTestService, type TestService } from '../../helpers/service';
import { Browser, hiddenFields } from '../login/browser-like';

const WEBHOOKS = '/realms/acme/dashboard/webhooks';
/** A public address literal (TEST-NET-3): accepted without DNS; nothing is delivered in this test. */
const URL = 'https://203.0.113.10/hooks/orgadmin';

let svc: TestService;
let browser: Browser;

beforeAll(async () => {
  svc = await startTestService();
  await createTestRealm(svc, 'acme');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', realmAdmin: true });
  browser = new Browser(svc.baseUrl);
  const start = await browser.go('GET', WEBHOOKS);
  const login = await browser.go('GET', start.location!);
  const posted = await browser.go('POST', '/realms/acme/protocol/openid-connect/auth', { ...hiddenFields(login.text), username: 'ada', password: 'ada-pw' });
  expect((await browser.go('GET', posted.location!)).location).toBe(WEBHOOKS);
});
afterAll(async () => {
  await svc.close();
});

/** The webhooks page and the CSRF token of its add form. */
async function page(): Promise<{ text: string; csrf: string }> {
  const shown = await browser.go('GET', WEBHOOKS);
  expect(shown.status).toBe(200);
  const csrf = /id="add-webhook"><input type="hidden" name="_csrf" value="([^"]+)">/.exec(shown.text)?.[1];
  expect(csrf).toBeDefined();
  return { text: shown.text, csrf: csrf! };
}

const webhooks = () => svc.store.events.listWebhooks('acme', 0, 100);

it('adds a webhook without a secret: a generated one is shown once and is the one the service signs with', async () => {
  const { csrf } = await page();
  const created = await browser.go('POST', WEBHOOKS, { _csrf: csrf, url: URL, eventTypes: 'admin.ORGANIZATION-*, access.LOGIN_ERROR', secret: '' });
  expect(created.status).toBe(200);
  const [webhook] = await webhooks();
  expect(webhook).toMatchObject({ url: URL, enabled: true, eventTypes: ['admin.ORGANIZATION-*', 'access.LOGIN_ERROR'] });
  expect(webhook!.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(created.text).toContain(`<code id="webhook-secret-value">${webhook!.secret}</code>`);
  // Listed afterwards, without its secret.
  const { text } = await page();
  expect(text).toContain(`data-webhook-id="${webhook!.id}"`);
  expect(text).not.toContain(webhook!.secret);
  await svc.admin.webhooks.delete('acme', webhook!.id);
});

it('adds a webhook with a typed secret for every event, and never shows the secret', async () => {
  const { csrf } = await page();
  const created = await browser.go('POST', WEBHOOKS, { _csrf: csrf, url: URL, eventTypes: '', secret: 'typed secret of the receiver' });
  expect(created.status).toBe(200);
  expect(created.text).not.toContain('typed secret of the receiver');
  const [webhook] = await webhooks();
  expect(webhook).toMatchObject({ eventTypes: ['*'], secret: 'typed secret of the receiver' });
  await svc.admin.webhooks.delete('acme', webhook!.id);
});

it.each([
  [{ url: 'ftp://203.0.113.10/x', eventTypes: '' }, 'url &#34;ftp://203.0.113.10/x&#34;'],
  [{ url: 'http://127.0.0.1:9/hook', eventTypes: '' }, '--allow-private-webhooks'],
  [{ url: URL, eventTypes: 'admin.(x)' }, 'eventTypes entry &#34;admin.(x)&#34;'],
])('refuses %j with the service\'s message, keeps what was typed and creates nothing', async (fields, message) => {
  const { csrf } = await page();
  const refused = await browser.go('POST', WEBHOOKS, { _csrf: csrf, ...fields, secret: 'never echoed' });
  expect(refused.status).toBe(400);
  expect(refused.text).toContain(message);
  expect(refused.text).not.toContain('never echoed');
  expect(refused.text).toContain(`id="webhook-event-types" name="eventTypes" value="${fields.eventTypes.replace(/\(/g, '(')}"`);
  expect(await webhooks()).toEqual([]);
});

it('turns a webhook off and on and deletes it, each through the service', async () => {
  const { webhook } = await svc.admin.webhooks.create('acme', { url: URL });
  const form = async (action: string) => browser.go('POST', `${WEBHOOKS}/${webhook.id}/${action}`, { _csrf: (await page()).csrf });
  const off = await form('disable');
  expect(off.status).toBe(303);
  expect((await browser.go('GET', off.location!)).text).toContain('The webhook was turned off: nothing is delivered to it until it is turned on.');
  expect((await svc.admin.webhooks.get('acme', webhook.id)).enabled).toBe(false);
  expect((await page()).text).toContain(`${WEBHOOKS}/${webhook.id}/enable`);
  expect((await form('enable')).status).toBe(303);
  expect((await svc.admin.webhooks.get('acme', webhook.id)).enabled).toBe(true);
  // The secret stays what it was through both changes.
  expect((await svc.admin.webhooks.get('acme', webhook.id)).secret).toBe(webhook.secret);
  expect((await form('delete')).status).toBe(303);
  expect(await webhooks()).toEqual([]);
  // A webhook that is gone: 404 with the message, nothing else happens.
  const gone = await form('disable');
  expect(gone.status).toBe(404);
  expect(gone.text).toContain(`Webhook ${webhook.id} does not exist.`);
});

it('refuses posts without the CSRF token, or with a forged one, and changes nothing', async () => {
  const { webhook } = await svc.admin.webhooks.create('acme', { url: URL });
  expect((await browser.go('POST', WEBHOOKS, { url: URL })).status).toBe(403);
  expect((await browser.go('POST', `${WEBHOOKS}/${webhook.id}/delete`, { _csrf: 'forged' })).status).toBe(403);
  expect((await webhooks()).map((w) => w.id)).toEqual([webhook.id]);
  await svc.admin.webhooks.delete('acme', webhook.id);
});
