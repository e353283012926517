/**
 * `orgadmin_webhook` through the plugin protocol (the framework's harness) against the real
 * service: create, read, update in place, the write-only secret sent on create and on a new
 * version only and never in plan or state, defaults, drift, import, removal outside Terraform,
 * plan-time errors, and a create whose answer was lost settled by its secret (a fault proxy drops
 * the answer). The service's own data is read afterwards through the SDK.
 */
import { diagnosticsText, errorsOf, stateOf, warningsOf } from '../../../src/tfplugin/testing/harness';
import { WEBHOOK_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/webhook';
import { startFaultProxy, type FaultKind, type FaultProxy } from '../../helpers/fault-proxy';
import { startProviderTest, type ProviderTest } from '../harness';

/** A public address literal (TEST-NET-3): accepted without DNS, and nothing is ever delivered in these tests. */
const URL = 'https://203.0.113.10/hooks/orgadmin';
const SECRET = 'first secret of the webhook';

describe('orgadmin_webhook', () => {
  let t: ProviderTest;

  beforeAll(async () => {
    t = await startProviderTest();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates with the write-only secret, which is on the service and nowhere in plan or state', async () => {
    const config = { url: URL, event_types: ['admin.ORGANIZATION-*'], secret_wo: SECRET, secret_wo_version: 1 };
    const plan = await t.tf.plan(TYPE, { priorState: null, config });
    expect(plan.plannedState?.['secret_wo']).toBeNull();
    const created = stateOf(await t.tf.create(TYPE, config));
    expect(created).toEqual({
      id: expect.any(String),
      realm: 'acme',
      url: URL,
      event_types: ['admin.ORGANIZATION-*'],
      enabled: true,
      secret_wo: null,
      secret_wo_version: 1,
    });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const id = created['id'] as string;
    expect(await t.client.getWebhook(id)).toMatchObject({ url: URL, eventTypes: ['admin.ORGANIZATION-*'], enabled: true });
    expect(await t.client.getWebhookSecret(id)).toBe(SECRET);
    expect((await t.tf.read(TYPE, created)).state).toEqual(created);
    expect((await t.tf.plan(TYPE, { priorState: created, config })).changed).toBe(false);
    await t.tf.destroy(TYPE, created);
  });

  it('sends the secret again only when secret_wo_version changes', async () => {
    const created = stateOf(await t.tf.create(TYPE, { url: URL, secret_wo: SECRET, secret_wo_version: 1 }));
    const id = created['id'] as string;
    // A new secret without a new version: Terraform sees no change, and the service keeps the old one.
    const same = { url: URL, secret_wo: 'second secret', secret_wo_version: 1 };
    expect((await t.tf.plan(TYPE, { priorState: created, config: same })).changed).toBe(false);
    const disabled = stateOf(await t.tf.update(TYPE, created, { ...same, enabled: false }));
    expect(await t.client.getWebhookSecret(id)).toBe(SECRET);
    expect(await t.client.getWebhook(id)).toMatchObject({ enabled: false });
    const rolled = stateOf(await t.tf.update(TYPE, disabled, { url: URL, enabled: false, secret_wo: 'second secret', secret_wo_version: 2 }));
    expect(rolled['secret_wo_version']).toBe(2);
    expect(await t.client.getWebhookSecret(id)).toBe('second secret');
    await t.tf.destroy(TYPE, rolled);
  });

  it('defaults to every event and enabled, and restores the defaults when they are removed from the configuration', async () => {
    const created = stateOf(await t.tf.create(TYPE, { url: URL }));
    expect(created).toMatchObject({ event_types: ['*'], enabled: true, secret_wo: null, secret_wo_version: null });
    const id = created['id'] as string;
    // Without secret_wo the service generated one, readable through the API.
    expect(await t.client.getWebhookSecret(id)).toMatch(/^.{16,}$/);
    const narrowed = stateOf(await t.tf.update(TYPE, created, { url: URL, event_types: ['access.*'], enabled: false }));
    expect(await t.client.getWebhook(id)).toMatchObject({ eventTypes: ['access.*'], enabled: false });
    const restored = stateOf(await t.tf.update(TYPE, narrowed, { url: URL }));
    expect(restored).toMatchObject({ event_types: ['*'], enabled: true });
    expect(await t.client.getWebhook(id)).toMatchObject({ eventTypes: ['*'], enabled: true });
    await t.tf.destroy(TYPE, restored);
    expect(await t.client.countWebhooks()).toBe(0);
  });

  it('shows drift made outside Terraform and puts it back', async () => {
    const config = { url: URL, event_types: ['admin.*'] };
    const created = stateOf(await t.tf.create(TYPE, config));
    const id = created['id'] as string;
    await t.client.updateWebhook(id, { url: 'https://203.0.113.11/elsewhere', enabled: false });
    const refreshed = stateOf(await t.tf.read(TYPE, created));
    expect(refreshed).toMatchObject({ url: 'https://203.0.113.11/elsewhere', enabled: false });
    const plan = await t.tf.plan(TYPE, { priorState: refreshed, config });
    expect(plan.changed).toBe(true);
    expect(plan.requiresReplace).toEqual([]);
    const fixed = stateOf(await t.tf.update(TYPE, refreshed, config));
    expect(await t.client.getWebhook(id)).toMatchObject({ url: URL, enabled: true, eventTypes: ['admin.*'] });
    await t.tf.destroy(TYPE, fixed);
  });

  describe('a create whose answer is lost', () => {
    const creates = (): number => t.svc.requests.filter((r) => r.method === 'POST' && r.url === '/realms/acme/webhooks').length;
    const proxied = (kind: FaultKind): Promise<FaultProxy> =>
      startFaultProxy({ upstream: t.svc.baseUrl, rate: 1, seed: 1, kinds: [kind], eligible: (method, path) => method === 'POST' && path.endsWith('/webhooks') });

    it('is settled by its secret: without secret_wo the create sent a generated one, and its webhook is adopted, not duplicated', async () => {
      const proxy = await proxied('lost-answer');
      try {
        const tf = await t.harness({ base_url: proxy.baseUrl });
        const before = creates();
        const result = await tf.create(TYPE, { url: URL, event_types: ['admin.*'] });
        expect(errorsOf(result.diagnostics)).toEqual([]);
        expect(proxy.injected['lost-answer']).toBe(1);
        expect(creates() - before).toBe(1);
        const state = stateOf(result);
        const all = await t.client.listWebhooks();
        expect(all.map((webhook) => webhook.id)).toEqual([state['id']]);
        // The generated secret is as strong as the service's own (32 random bytes) and readable as before.
        expect(await t.client.getWebhookSecret(state['id'] as string)).toMatch(/^[A-Za-z0-9_-]{43}$/);
        await t.tf.destroy(TYPE, state);
      } finally {
        await proxy.close();
      }
    });

    it('adopts the webhook with the configured secret, not one made by hand with the same URL and filters', async () => {
      const byHand = await t.client.createWebhook({ url: URL, eventTypes: ['admin.*'], secret: 'made by hand' });
      const proxy = await proxied('lost-answer');
      try {
        const tf = await t.harness({ base_url: proxy.baseUrl });
        const state = stateOf(await tf.create(TYPE, { url: URL, event_types: ['admin.*'], secret_wo: SECRET, secret_wo_version: 1 }));
        expect(state['id']).not.toBe(byHand);
        expect(await t.client.getWebhookSecret(state['id'] as string)).toBe(SECRET);
        expect(await t.client.countWebhooks()).toBe(2);
        await t.tf.destroy(TYPE, state);
      } finally {
        await proxy.close();
        await t.client.deleteWebhook(byHand);
      }
    });

    it('fails, taking nothing over, when the create did not reach the service', async () => {
      const byHand = await t.client.createWebhook({ url: URL, eventTypes: ['admin.*'], secret: 'made by hand' });
      const proxy = await proxied('unavailable');
      try {
        const tf = await t.harness({ base_url: proxy.baseUrl, max_retries: 0 });
        const result = await tf.create(TYPE, { url: URL, event_types: ['admin.*'] });
        expect(result.state).toBeNull();
        expect(errorsOf(result.diagnostics)).toHaveLength(1);
        expect((await t.client.listWebhooks()).map((webhook) => webhook.id)).toEqual([byHand]);
      } finally {
        await proxy.close();
        await t.client.deleteWebhook(byHand);
      }
    });
  });

  it('imports by id and by REALM/ID, with no change planned for the same configuration', async () => {
    const id = await t.client.createWebhook({ url: URL, eventTypes: ['admin.USER-*'], secret: 'made outside' });
    for (const importId of [id, `acme/${id}`]) {
      const imported = stateOf(await t.tf.importState(TYPE, importId));
      expect(imported).toEqual({ id, realm: 'acme', url: URL, event_types: ['admin.USER-*'], enabled: true, secret_wo: null, secret_wo_version: null });
      expect((await t.tf.plan(TYPE, { priorState: imported, config: { url: URL, event_types: ['admin.USER-*'] } })).changed).toBe(false);
    }
    const missing = await t.tf.importState(TYPE, '00000000-0000-4000-8000-000000000000');
    expect(missing.state).toBeNull();
    expect(diagnosticsText(errorsOf(missing.diagnostics))).toContain('There is no webhook with id "00000000-0000-4000-8000-000000000000" in realm "acme"');
    await t.client.deleteWebhook(id);
  });

  it('removes a webhook deleted outside Terraform from the state with a warning, and treats deleting it as done', async () => {
    const created = stateOf(await t.tf.create(TYPE, { url: URL }));
    await t.client.deleteWebhook(created['id'] as string);
    const read = await t.tf.read(TYPE, created);
    expect(read.state).toBeNull();
    expect(warningsOf(read.diagnostics).map((d) => d.summary)).toEqual(['Webhook removed outside Terraform']);
    expect(errorsOf((await t.tf.destroy(TYPE, created)).diagnostics)).toEqual([]);
  });

  it.each([
    ['an ftp URL', { url: 'ftp://203.0.113.10/x' }, 'Invalid webhook URL', ['url']],
    ['a malformed event type', { url: URL, event_types: ['admin.(x)'] }, 'Invalid event type', ['event_types']],
    ['no event types', { url: URL, event_types: [] }, 'No event types', ['event_types']],
    ['a secret of 1025 characters', { url: URL, secret_wo: 'x'.repeat(1025) }, 'Invalid webhook secret', ['secret_wo']],
    ['a version without a secret', { url: URL, secret_wo_version: 3 }, 'Missing secret_wo', ['secret_wo_version']],
  ])('refuses %s at validation, on the attribute, creating nothing', async (_label, config, summary, path) => {
    const diagnostics = errorsOf(await t.tf.validateResource(TYPE, config));
    expect(diagnostics.map((d) => [d.summary, d.path])).toEqual([[summary, path]]);
    expect(diagnosticsText(diagnostics)).not.toContain('x'.repeat(100));
    expect(await t.client.countWebhooks()).toBe(0);
  });

  it('reports the service\'s refusal of a private address at apply, naming the attribute\'s value and creating nothing', async () => {
    const result = await t.tf.create(TYPE, { url: 'http://127.0.0.1:9/hook', secret_wo: SECRET });
    const errors = errorsOf(result.diagnostics);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.summary).toMatch(/create webhook/i);
    expect(diagnosticsText(errors)).toContain('--allow-private-webhooks');
    expect(diagnosticsText(errors)).not.toContain(SECRET);
    expect(await t.client.countWebhooks()).toBe(0);
  });

  it('refuses secret_wo when Terraform is too old to keep it out of the state', async () => {
    const diagnostics = errorsOf(await t.tf.validateResource(TYPE, { url: URL, secret_wo: SECRET }, { writeOnlyAllowed: false }));
    expect(diagnostics.map((d) => d.summary)).toEqual(['Write-only attribute not supported by this Terraform']);
  });
});
