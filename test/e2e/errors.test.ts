/**
 * End to end: what a user sees when something is wrong. Each case must fail with a non-zero exit
 * code and a diagnostic that says what happened, and the client secret must never show up in
 * terraform's output or in the state.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestRealm } from '../helpers/service';
import { organizationNames, startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformResult, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(120_000);

let fx: E2EFixture;

const ONE_ORGANIZATION = `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

resource "orgadmin_organization" "one" {
  name = "one"
}
`;

beforeAll(async () => {
  fx = await startE2E({ usernames: ['alice'] });
});

afterAll(async () => {
  await fx?.close();
});

/** Everything terraform left in the working directory that could hold a secret: output and state files. */
async function everythingWritten(ws: TerraformWorkspace, result: TerraformResult): Promise<string> {
  const texts = [result.stdout, result.stderr];
  for (const name of await readdir(ws.dir)) {
    if (name.endsWith('.tfstate') || name.endsWith('.tfstate.backup')) texts.push(await readFile(join(ws.dir, name), 'utf8'));
  }
  return texts.join('\n');
}

async function applyIn(env: Record<string, string>, config: string): Promise<{ ws: TerraformWorkspace; result: TerraformResult }> {
  const ws = await fx.workspace(env);
  await ws.writeConfig({ 'main.tf': config });
  await ws.init();
  const result = await ws.run(['apply', '-auto-approve', '-input=false']);
  return { ws, result };
}

describe('diagnostics of a failing apply', () => {
  it('reports a wrong client secret as a credentials problem without showing the secret', async () => {
    const wrongSecret = 'not-the-secret-' + 'x'.repeat(24);
    const { ws, result } = await applyIn({ ORGADMIN_CLIENT_SECRET: wrongSecret }, ONE_ORGANIZATION);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/client secret|client_secret|credentials/i);
    expect(result.stderr).toContain('401');
    const written = await everythingWritten(ws, result);
    expect(written).not.toContain(wrongSecret);
    expect(written).not.toContain(fx.clientSecret);
    expect(await organizationNames(fx)).toEqual([]);
  });

  it('reports a view-only API key as missing the create-organization permission', async () => {
    const viewOnly = await createTestRealm(fx.svc, fx.realm, { permissions: ['view-organizations'] });
    const { ws, result } = await applyIn(
      { ORGADMIN_CLIENT_ID: viewOnly.clientId, ORGADMIN_CLIENT_SECRET: viewOnly.clientSecret },
      ONE_ORGANIZATION,
    );

    expect(result.code).toBe(1);
    // The hosted service (and hosted compatibility mode) answers a missing permission with 401.
    expect(result.stderr).toContain(fx.compat === 'hosted' ? '401' : '403');
    expect(result.stderr).toContain('create-organization');
    const written = await everythingWritten(ws, result);
    expect(written).not.toContain(viewOnly.clientSecret);
    expect(await organizationNames(fx)).toEqual([]);
  });

  it('reports an unknown user id on the user_id attribute', async () => {
    const config = `${ONE_ORGANIZATION}
resource "orgadmin_membership" "ghost" {
  organization_id = orgadmin_organization.one.id
  user_id         = "no-such-user"
}
`;
    const { ws, result } = await applyIn({}, config);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('User not found');
    expect(result.stderr).toContain('"no-such-user"');
    // Terraform shows the configuration line of the attribute the diagnostic names.
    expect(result.stderr).toMatch(/user_id\s+= "no-such-user"/);
    const written = await everythingWritten(ws, result);
    expect(written).not.toContain(fx.clientSecret);

    // The organization was created; the failed membership is not in state.
    const state = await ws.run(['state', 'list']);
    expect(state.stdout.trim().split('\n')).toEqual(['orgadmin_organization.one']);
    // Now that the organization exists, the next plan knows the problem before applying anything:
    // `terraform destroy` (whose first step is a normal plan) says so too, and destroys with
    // -refresh=false, as the provider's docs say.
    const plan = await ws.plan();
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/User not found[\s\S]*user_id\s+= "no-such-user"/);
    const destroy = await ws.run(['destroy', '-auto-approve', '-input=false', '-refresh=false']);
    expect(destroy.code).toBe(0);
    expect(await organizationNames(fx)).toEqual([]);
  });
});
