/**
 * End to end: an apply larger than the service's rate limit still succeeds, because the provider
 * waits out 429 answers (`Retry-After`) instead of failing (github#2557).
 */
import { memberIds, startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS } from './helpers/terraform';

jest.setTimeout(180_000);

const USERS = Array.from({ length: 50 }, (_, i) => `user${String(i).padStart(2, '0')}`);

let fx: E2EFixture;

beforeAll(async () => {
  fx = await startE2E({ usernames: USERS, rateLimit: { requests: 20, windowSeconds: 1 } });
});

afterAll(async () => {
  await fx?.close();
});

describe('an apply under the service rate limit', () => {
  it('creates 50 memberships although the service answers 429 along the way', async () => {
    const ws = await fx.workspace();
    await ws.writeConfig({
      'main.tf': `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

variable "user_ids" {
  type = list(string)
}

resource "orgadmin_organization" "big" {
  name = "big"
}

resource "orgadmin_membership" "member" {
  for_each        = toset(var.user_ids)
  organization_id = orgadmin_organization.big.id
  user_id         = each.value
}
`,
      'terraform.tfvars.json': JSON.stringify({ user_ids: USERS.map((u) => fx.users[u]!.id) }),
    });
    await ws.init();
    const since = fx.svc.requests.length;

    const apply = await ws.apply();

    expect(apply.stdout).toContain('Apply complete! Resources: 51 added, 0 changed, 0 destroyed.');
    // The limit really was hit: otherwise this test would prove nothing.
    expect(fx.svc.requests.slice(since).filter((r) => r.status === 429).length).toBeGreaterThan(0);
    const org = (await fx.client.listAllOrganizations()).find((o) => o.name === 'big')!;
    expect(await memberIds(fx, org.id)).toEqual(USERS.map((u) => fx.users[u]!.id).sort());
  });
});
