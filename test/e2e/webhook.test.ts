/**
 * End to end with the real terraform 1.11 and the service: an `orgadmin_webhook` declared with a
 * write-only secret from an ephemeral variable. The service holds the secret; the state, the plan
 * file and terraform's output hold nothing of it; a second plan changes nothing; a new
 * `secret_wo_version` rolls a new secret out; the webhook imports; destroy removes it.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(180_000);

const FIRST_SECRET = 'first-webhook-secret-8f3a1c';
const SECOND_SECRET = 'second-webhook-secret-71bd0e';
/** A public address literal (TEST-NET-3): accepted without DNS; this test delivers nothing. */
const URL = 'https://203.0.113.10/hooks/orgadmin';

let fx: E2EFixture;
let ws: TerraformWorkspace;

function config(version: number): string {
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

variable "webhook_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "orgadmin_webhook" "drift" {
  url               = "${URL}"
  event_types       = ["admin.ORGANIZATION-*", "admin.ORGANIZATION_MEMBERSHIP-*"]
  secret_wo         = var.webhook_secret
  secret_wo_version = ${version}
}
`;
}

/** The state file and every entry of the plan file, as text. */
async function persisted(): Promise<string> {
  const state = await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8');
  const plan = execFileSync('unzip', ['-p', join(ws.dir, 'tfplan')]).toString('latin1');
  return `${state}\n${plan}`;
}

beforeAll(async () => {
  fx = await startE2E();
  ws = await fx.workspace({ TF_VAR_webhook_secret: FIRST_SECRET });
  await ws.writeConfig({ 'main.tf': config(1) });
  await ws.init();
});
afterAll(async () => {
  await fx?.close();
});

it('creates the webhook with the secret on the service and nowhere in state, plan file or output', async () => {
  const plan = await ws.run(['plan', '-input=false', '-out=tfplan']);
  expect(plan.code).toBe(0);
  const apply = await ws.run(['apply', '-input=false', 'tfplan']);
  expect(apply.code).toBe(0);
  const [webhook] = await fx.client.listWebhooks();
  expect(webhook).toMatchObject({ url: URL, enabled: true, eventTypes: ['admin.ORGANIZATION-*', 'admin.ORGANIZATION_MEMBERSHIP-*'] });
  expect(await fx.client.getWebhookSecret(webhook!.id)).toBe(FIRST_SECRET);

  const again = await ws.run(['plan', '-input=false', '-detailed-exitcode', '-out=tfplan']);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain('No changes.');
  const kept = await persisted();
  expect(kept).toContain(webhook!.id);
  expect(kept).not.toContain(FIRST_SECRET);
  expect(`${plan.stdout}${plan.stderr}${apply.stdout}${apply.stderr}${again.stdout}`).not.toContain(FIRST_SECRET);
  const state = JSON.parse(await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8'));
  expect(state.resources[0].instances[0].attributes).toMatchObject({ id: webhook!.id, secret_wo: null, secret_wo_version: 1 });
});

it('rolls a new secret out when secret_wo_version changes, and only then', async () => {
  const [webhook] = await fx.client.listWebhooks();
  const unchanged = await ws.run(['plan', '-input=false', '-detailed-exitcode'], { TF_VAR_webhook_secret: SECOND_SECRET });
  expect(unchanged.code).toBe(0);
  await ws.writeConfig({ 'main.tf': config(2) });
  const plan = await ws.run(['plan', '-input=false', '-out=tfplan'], { TF_VAR_webhook_secret: SECOND_SECRET });
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain('~ secret_wo_version = 1 -> 2');
  expect(plan.stdout).toContain('1 to change');
  const apply = await ws.run(['apply', '-input=false', 'tfplan'], { TF_VAR_webhook_secret: SECOND_SECRET });
  expect(apply.code).toBe(0);
  expect(await fx.client.getWebhookSecret(webhook!.id)).toBe(SECOND_SECRET);
  const kept = await persisted();
  expect(kept).not.toContain(SECOND_SECRET);
  expect(`${plan.stdout}${apply.stdout}${apply.stderr}`).not.toContain(SECOND_SECRET);
});

it('imports the webhook with an import block; the configured secret_wo_version then sends the secret once', async () => {
  const [webhook] = await fx.client.listWebhooks();
  expect((await ws.run(['state', 'rm', 'orgadmin_webhook.drift'])).code).toBe(0);
  await ws.writeConfig({ 'main.tf': `${config(2)}\nimport {\n  to = orgadmin_webhook.drift\n  id = "${webhook!.id}"\n}\n` });
  const plan = await ws.run(['plan', '-input=false', '-out=tfplan'], { TF_VAR_webhook_secret: SECOND_SECRET });
  expect(plan.code).toBe(0);
  // The imported state has no version yet, so the configured one is an update that sends the secret.
  expect(plan.stdout).toContain('1 to import, 0 to add, 1 to change, 0 to destroy');
  expect((await ws.run(['apply', '-input=false', 'tfplan'], { TF_VAR_webhook_secret: SECOND_SECRET })).code).toBe(0);
  expect(await fx.client.countWebhooks()).toBe(1);
  expect(await fx.client.getWebhookSecret(webhook!.id)).toBe(SECOND_SECRET);
});

it('destroys the webhook', async () => {
  const destroyed = await ws.run(['destroy', '-auto-approve', '-input=false'], { TF_VAR_webhook_secret: SECOND_SECRET });
  expect(destroyed.code).toBe(0);
  expect(await fx.client.countWebhooks()).toBe(0);
});
