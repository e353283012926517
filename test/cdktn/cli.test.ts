/**
 * CDK Terrain end to end: an app importing `orgadmin/cdktn`, driven by the real cdktn-cli on
 * Node.js 22 against the real service on port 0, with the provider installed the documented way
 * (`orgadmin provider install` into `~/.terraform.d/plugins`): synth, deploy, a member removed by
 * hand, diff showing that drift, deploy repairing it, destroy. Every command runs on a fresh
 * output directory, as in CI (the state is the project's local backend file, outside it), so each
 * deploy and diff passes cdktn's `terraform providers lock` step only thanks to the starter lock
 * file the OrgAdminProvider construct writes at synth.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../src/client';
import { createCliProject, type CliProject, type ProcessOutput } from '../constructs/helpers/cli-project';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';
import { ensureCdktnCli } from './helpers/cdktn-cli';

const ORG_NAME = 'deployed-by-cdktn';

const APP = `import { App, TerraformStack } from 'cdktn';
import { OrgAdminProvider, Organization, User } from 'orgadmin/cdktn';

const app = new App();
const stack = new TerraformStack(app, 'orgs');
new OrgAdminProvider(stack, 'orgadmin');
const org = new Organization(stack, 'org', { name: '${ORG_NAME}', displayName: 'Deployed by cdktn' });
org.addMember(User.fromEmail(stack, 'alice', 'alice@example.com'));
org.addMember(User.fromEmail(stack, 'bob', 'bob@example.com'));
app.synth();
`;

let work: string;
let svc: TestService;
let project: CliProject;
let client: OrgAdminClient;
let bobId: string;

beforeAll(async () => {
  const tools = await ensureCdktnCli();
  work = await mkdtemp(join(tmpdir(), 'orgadmin-cdktn-cli-'));
  svc = await startTestService();
  const realm = await createTestRealm(svc, 'cdktn');
  await svc.admin.createUser('cdktn', { username: 'alice', email: 'alice@example.com' });
  bobId = (await svc.admin.createUser('cdktn', { username: 'bob', email: 'bob@example.com' })).id;
  client = new OrgAdminClient({
    baseUrl: svc.baseUrl,
    realm: realm.realm,
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: realm.clientId, clientSecret: realm.clientSecret }),
    maxRetries: 0,
  });
  project = await createCliProject({
    toolkit: 'cdktn',
    work,
    cli: [tools.node, tools.cli],
    nodeBinDir: tools.nodeBinDir,
    app: APP,
    env: { ORGADMIN_BASE_URL: svc.baseUrl, ORGADMIN_REALM: realm.realm, ORGADMIN_CLIENT_ID: realm.clientId, ORGADMIN_CLIENT_SECRET: realm.clientSecret },
  });
}, 600_000);

afterAll(async () => {
  await client?.close();
  await svc?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The organization's members' usernames (without its default admin user), or undefined when it does not exist. */
async function members(): Promise<{ id: string; usernames: string[] } | undefined> {
  const [org, ...others] = await client.listOrganizations({ search: ORG_NAME });
  expect(others).toEqual([]);
  if (org === undefined) return undefined;
  const listed = await client.listAllMembers(org.id, { excludeAdminAccounts: true });
  return { id: org.id, usernames: listed.map((member) => member.username).sort() };
}

/** Expects a command to have succeeded, showing its output when it did not. */
function succeeded(result: ProcessOutput): string {
  expect({ code: result.code, output: result.output }).toEqual({ code: 0, output: expect.any(String) });
  // cdktn's lock step, which would have asked the registry and failed, never ran.
  expect(result.output).not.toContain('providers for locking');
  return result.output;
}

describe('cdktn-cli on Node.js 22 with orgadmin/cdktn', () => {
  it('synthesizes the stack with the starter lock file for the locally installed provider', async () => {
    succeeded(await project.runFresh(['synth']));
    const stack = JSON.parse(await readFile(join(project.stackDir('orgs'), 'cdk.tf.json'), 'utf8')) as {
      terraform: { required_providers: Record<string, { source: string }> };
      resource: Record<string, Record<string, unknown>>;
    };
    expect(stack.terraform.required_providers.orgadmin?.source).toBe('registry.terraform.io/orgadmin/orgadmin');
    expect(Object.keys(stack.resource).sort()).toEqual(['orgadmin_membership', 'orgadmin_organization']);
    const lock = await readFile(join(project.stackDir('orgs'), '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain('provider "registry.terraform.io/orgadmin/orgadmin" {');
    expect(lock).not.toContain('h1:');
  });

  it('deploys, shows a member removed by hand as drift, repairs it and destroys, each on a fresh output directory', async () => {
    const deployed = succeeded(await project.runFresh(['deploy', '--auto-approve', '--no-color']));
    expect(deployed).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
    const created = await members();
    expect(created?.usernames).toEqual(['alice', 'bob']);

    await client.removeMember(created!.id, bobId);
    const diff = succeeded(await project.runFresh(['diff', '--no-color']));
    expect(diff).toContain('Warning: Membership removed outside Terraform');
    expect(diff).toMatch(/# orgadmin_membership\.org_Member-bob_\w+ \(org\/Member-bob\/Default\) will be created/);
    expect(diff).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');

    const repaired = succeeded(await project.runFresh(['deploy', '--auto-approve', '--no-color']));
    expect(repaired).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect((await members())?.usernames).toEqual(['alice', 'bob']);

    const destroyed = succeeded(await project.runFresh(['destroy', '--auto-approve', '--no-color']));
    expect(destroyed).toContain('Destroy complete! Resources: 3 destroyed.');
    expect(await members()).toBeUndefined();
  }, 600_000);
});
