/**
 * End to end with the real terraform 1.11 and the service: the provider's ephemeral resources and
 * functions. A portal link opened in a module without outputs reaches a provisioner and works, and
 * nothing of it is in the state or the plan file; an access token configures a second provider
 * block and is revoked when Terraform closes it; the functions run in `locals`, and their errors
 * point at the argument.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { requestsSince, startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS, type TerraformWorkspace } from './helpers/terraform';

jest.setTimeout(120_000);

let fx: E2EFixture;
let ws: TerraformWorkspace;

/** Terraform's output with its line wrapping undone. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** The welcome module: no outputs; it hands the portal link to a provisioner, which writes it to a file. */
const WELCOME_MODULE = `${REQUIRED_PROVIDERS}
variable "organization_id" {
  type = string
}

variable "link_file" {
  type = string
}

ephemeral "orgadmin_portal_link" "admin" {
  organization_id = var.organization_id
}

resource "terraform_data" "welcome" {
  input = var.organization_id

  provisioner "local-exec" {
    command     = "printf '%s' \\"$LINK\\" > \\"$OUT\\""
    environment = {
      LINK = ephemeral.orgadmin_portal_link.admin.link
      OUT  = var.link_file
    }
  }
}
`;

function rootModule(extra = ''): string {
  return `${REQUIRED_PROVIDERS}
provider "orgadmin" {}

resource "orgadmin_organization" "welcome" {
  name = "welcome-org"
}

module "welcome" {
  source          = "./modules/welcome"
  organization_id = orgadmin_organization.welcome.id
  link_file       = "\${path.root}/link.txt"
}
${extra}`;
}

beforeAll(async () => {
  fx = await startE2E();
  ws = await fx.workspace();
  await ws.writeConfig({ 'main.tf': rootModule(), 'modules/welcome/main.tf': WELCOME_MODULE });
  await ws.init();
});

afterAll(async () => {
  await fx?.close();
});

/** The state file and every entry of the plan file, as text. */
async function persisted(): Promise<string> {
  const state = await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8');
  const plan = execFileSync('unzip', ['-p', join(ws.dir, 'tfplan')]).toString('latin1');
  return `${state}\n${plan}`;
}

describe('orgadmin_portal_link in a module without outputs', () => {
  it('reaches the provisioner and opens the portal, while the state and the plan file hold nothing of it', async () => {
    const first = await ws.run(['plan', '-input=false', '-out=tfplan']);
    expect(first.code).toBe(0);
    const apply = await ws.run(['apply', '-input=false', 'tfplan']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('module.welcome.ephemeral.orgadmin_portal_link.admin: Opening...');
    expect(apply.stdout).toContain('(output suppressed due to ephemeral value in config)');
    // Now that the organization exists, the plan opens the link too, and writes its plan file.
    const plan = await ws.run(['plan', '-input=false', '-out=tfplan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('module.welcome.ephemeral.orgadmin_portal_link.admin: Opening...');
    expect(plan.stdout).toContain('No changes.');

    const link = await readFile(join(ws.dir, 'link.txt'), 'utf8');
    const orgId = (await fx.client.listAllOrganizations()).find((org) => org.name === 'welcome-org')!.id;
    expect(link).toMatch(new RegExp(`^${fx.svc.baseUrl}/realms/acme/orgs/${orgId}/portal\\?token=[\\w.%-]+$`));
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('welcome-org');

    const token = new URL(link).searchParams.get('token')!;
    const kept = await persisted();
    expect(kept).not.toContain(token);
    expect(kept).not.toContain('portal?token=');
    expect(`${first.stdout}${plan.stdout}${apply.stdout}`).not.toContain('portal?token=');
    // The state has the organization and the provisioner's resource, no ephemeral resource.
    const state = JSON.parse(await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8'));
    expect(state.resources.map((r: { mode: string; type: string }) => `${r.mode}.${r.type}`).sort()).toEqual([
      'managed.orgadmin_organization',
      'managed.terraform_data',
    ]);
  });
});

describe('orgadmin_access_token in a provider block', () => {
  it('signs a second provider in for the run and is revoked when Terraform closes it', async () => {
    const since = fx.svc.requests.length;
    // The default provider's key is given in its block, not the environment, so that the reader
    // provider signs in with the token alone (an API key beside it would conflict).
    await ws.writeConfig({
      'main.tf': rootModule(`
variable "client_id" {
  type = string
}

variable "client_secret" {
  type      = string
  sensitive = true
}

ephemeral "orgadmin_access_token" "reader" {
  permissions = ["view-organizations"]
}

provider "orgadmin" {
  alias        = "reader"
  access_token = ephemeral.orgadmin_access_token.reader.access_token
}

data "orgadmin_organizations" "seen_by_reader" {
  provider = orgadmin.reader
}

resource "terraform_data" "count" {
  input = length(data.orgadmin_organizations.seen_by_reader.organizations)
}
`).replace('provider "orgadmin" {}', 'provider "orgadmin" {\n  client_id     = var.client_id\n  client_secret = var.client_secret\n}'),
      'modules/welcome/main.tf': WELCOME_MODULE,
    });
    const env = { ORGADMIN_CLIENT_ID: undefined, ORGADMIN_CLIENT_SECRET: undefined, TF_VAR_client_id: fx.clientId, TF_VAR_client_secret: fx.clientSecret };
    const applied = await ws.run(['apply', '-auto-approve', '-input=false'], env);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const state = JSON.parse(await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8'));
    const counted = state.resources.find((r: { name: string }) => r.name === 'count').instances[0].attributes.output.value;
    expect(counted).toBe((await fx.client.listAllOrganizations()).length);

    const requests = requestsSince(fx, since);
    const issued = requests.filter((r) => r === 'POST /realms/acme/protocol/openid-connect/token').length;
    const revoked = requests.filter((r) => r === 'POST /realms/acme/protocol/openid-connect/revoke').length;
    // The plan's and the apply's open (apply plans first) were each closed, and their tokens revoked.
    expect(revoked).toBe(2);
    expect(issued).toBeGreaterThanOrEqual(revoked);
    expect(await readFile(join(ws.dir, 'terraform.tfstate'), 'utf8')).not.toMatch(/eyJ[\w-]+\.eyJ/);
  });
});

describe('provider functions in locals', () => {
  it('parse ids and derive realms, and show their errors on the argument', async () => {
    const functions = `
locals {
  parts = provider::orgadmin::parse_import_id("acme/org-1/user-9")
  realm = provider::orgadmin::realm_from_url("https://acme.example.com")
}

resource "terraform_data" "parts" {
  input = "\${local.realm}:\${local.parts.organization_id}:\${local.parts.user_id}"
}
`;
    await ws.writeConfig({ 'main.tf': rootModule(functions), 'modules/welcome/main.tf': WELCOME_MODULE });
    const plan = await ws.run(['plan', '-input=false']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toMatch(/input\s+= "acme:org-1:user-9"/);

    await ws.writeConfig({
      'main.tf': rootModule(functions.replace('"acme/org-1/user-9"', '"org-1/user-9"').replace('"https://acme.example.com"', '"http://127.0.0.1:8080"')),
      'modules/welcome/main.tf': WELCOME_MODULE,
    });
    const failed = await ws.run(['plan', '-input=false']);
    expect(failed.code).toBe(1);
    const errors = flat(failed.stderr);
    expect(errors).toContain('Invalid value for "id" parameter: "org-1/user-9" reads differently for');
    expect(errors).toContain('while calling provider::orgadmin::parse_import_id(id, resource_type...)');
    expect(errors).toContain(
      'Invalid value for "url" parameter: the realm cannot be derived from "http://127.0.0.1:8080": its host "127.0.0.1" is an IP address or a single label, which names no realm.',
    );
    expect(failed.stderr).toMatch(/on main\.tf line \d+, in locals:\s+\d+:\s+realm = provider::orgadmin::realm_from_url\("http:\/\/127\.0\.0\.1:8080"\)/);
  });
});
