/**
 * `cdktf deploy` and `cdktf diff` (the real cdktf-cli) on a fresh output directory, with the
 * provider installed the documented way: `orgadmin provider install` into `~/.terraform.d/plugins`,
 * no CLI configuration, no environment variable, no flag. cdktf runs `terraform providers lock` on
 * every output directory without a lock file, and that command cannot read the local mirror; the
 * OrgAdminProvider construct's starter lock file (src/constructs/lock-file.ts) is what lets both
 * commands through. Against the real service on port 0.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../src/client';
import { ROOT } from '../cli/compiled-cli';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';
import { createCliProject, type CliProject } from './helpers/cli-project';

jest.setTimeout(240_000);

const CDKTF_BIN = join(ROOT, 'node_modules', 'cdktf-cli', 'bundle', 'bin', 'cdktf');
const ORG_NAME = 'deployed-by-cdktf';

const APP = `import { App, TerraformStack } from 'cdktf';
import { OrgAdminProvider, Organization } from 'orgadmin/constructs';

const app = new App();
const stack = new TerraformStack(app, 'orgs');
new OrgAdminProvider(stack, 'orgadmin');
new Organization(stack, 'org', { name: '${ORG_NAME}', displayName: 'Deployed by cdktf' });
app.synth();
`;

let work: string;
let svc: TestService;
let project: CliProject;
let client: OrgAdminClient;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'orgadmin-cdktf-cli-'));
  svc = await startTestService();
  const realm = await createTestRealm(svc, 'cdktf');
  client = new OrgAdminClient({
    baseUrl: svc.baseUrl,
    realm: realm.realm,
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: realm.clientId, clientSecret: realm.clientSecret }),
    maxRetries: 0,
  });
  project = await createCliProject({
    toolkit: 'cdktf',
    work,
    cli: [process.execPath, CDKTF_BIN],
    nodeBinDir: dirname(process.execPath),
    app: APP,
    env: { ORGADMIN_BASE_URL: svc.baseUrl, ORGADMIN_REALM: realm.realm, ORGADMIN_CLIENT_ID: realm.clientId, ORGADMIN_CLIENT_SECRET: realm.clientSecret },
  });
});

afterAll(async () => {
  await client?.close();
  await svc?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('cdktf-cli with the provider from orgadmin provider install', () => {
  it('deploys on a fresh output directory, and diff on another fresh one finds no changes', async () => {
    const deploy = await project.runFresh(['deploy', '--auto-approve', '--no-color']);
    expect({ code: deploy.code, output: deploy.output }).toEqual({ code: 0, output: expect.stringContaining('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.') });
    // cdktf's lock step, which would have asked the registry, did not run.
    expect(deploy.output).not.toContain('providers for locking');
    const found = await client.listOrganizations({ search: ORG_NAME });
    expect(found.map((org) => [org.name, org.displayName])).toEqual([[ORG_NAME, 'Deployed by cdktf']]);
    // terraform init recorded the installed package's checksum into the starter lock file.
    const lock = await readFile(join(project.stackDir('orgs'), '.terraform.lock.hcl'), 'utf8');
    expect(lock).toMatch(/provider "registry\.terraform\.io\/orgadmin\/orgadmin" \{[^}]*"h1:[A-Za-z0-9+/]+=*"/);

    const diff = await project.runFresh(['diff', '--no-color']);
    expect({ code: diff.code, output: diff.output }).toEqual({ code: 0, output: expect.stringContaining('No changes. Your infrastructure matches the configuration.') });
    expect(diff.output).not.toContain('providers for locking');
  });
});
