/**
 * Node.js 22, beside the Node.js 20 the rest of the suite runs on: the packed packages (orgadmin and
 * orgadmin-service) installed by npm running on Node.js 22 into an empty app, with the native SQLite
 * driver built against Node.js 22's headers; then, all on Node.js 22, the command line bootstraps a
 * realm, `orgadmin serve` runs the service, the SDK from the installed package creates an
 * organization and a membership through it, and a cdktf app synthesizes with the constructs.
 * Node.js 22 comes from the npm registry's `node` package (test/helpers/node22.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNode22, node22Env, npmCliScript, type Node22 } from '../helpers/node22';
import { devVersion, emptyApp, findFiles, npmInstall, packPackages, runOk, type Output } from '../helpers/packed-package';

jest.setTimeout(1_200_000);


/** Starts `orgadmin serve --port 0` and resolves with its URL once it listens. */
function serve(node22: Node22, app: string, dataFile: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22.node, [join(app, 'node_modules', 'orgadmin', 'bin', 'orgadmin.js'), 'serve', '--port', '0', '--data', dataFile], {
      cwd: app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`orgadmin serve exited ${code}:\n${out}`)));
  });
}

describe('the packed packages on Node.js 22', () => {
  let work: string;
  let node22: Node22;
  let env: NodeJS.ProcessEnv;
  let app: string;
  let install: Output;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'orgadmin-node22-'));
    node22 = await ensureNode22();
    env = node22Env(node22);
    const packed = await packPackages(join(work, 'packs'));
    app = await emptyApp(work, 'node22-app');
    install = await npmInstall(app, [packed.orgadmin, packed.service, `cdktf@${devVersion('cdktf')}`, `constructs@${devVersion('constructs')}`], {
      npm: [node22.node, npmCliScript()],
      env,
    });
  });

  afterAll(async () => {
    server?.kill('SIGTERM');
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('installs with npm on Node.js 22 without engine warnings, building the SQLite driver for it', async () => {
    expect(node22.version).toMatch(/^v22\./);
    expect(install.stderr).not.toMatch(/EBADENGINE/);
    expect(findFiles(join(app, 'node_modules', 'better-sqlite3'), (name) => name.endsWith('.node'))).not.toEqual([]);
    const { stdout } = await runOk(node22.node, ['-p', "require('better-sqlite3')(':memory:').prepare('select 1 as one').get().one + ' ' + process.version"], { cwd: app, env });
    expect(stdout.trim()).toBe(`1 ${node22.version}`);
  });

  it('bootstraps with the command line, serves, and the SDK creates an organization and a membership', async () => {
    const cli = join(app, 'node_modules', 'orgadmin', 'bin', 'orgadmin.js');
    const data = join(work, 'orgadmin.db');
    await runOk(node22.node, [cli, 'realms', 'create', 'acme', '--data', data], { cwd: app, env });
    const user = JSON.parse((await runOk(node22.node, [cli, 'users', 'create', '--realm', 'acme', '--username', 'alice', '--email', 'alice@example.com', '--json', '--data', data], { cwd: app, env })).stdout) as { id: string };
    const key = JSON.parse(
      (await runOk(node22.node, [cli, 'keys', 'create', '--realm', 'acme', '--name', 'node22', '--permissions', 'view-organizations,manage-organizations,create-organization,view-users', '--json', '--data', data], { cwd: app, env })).stdout,
    ) as { clientId: string; clientSecret: string };
    const running = await serve(node22, app, data, env);
    server = running.child;

    const script = `
      const { OrgAdminClient, ClientCredentialsTokenSource } = require('orgadmin');
      (async () => {
        const baseUrl = process.env.BASE_URL, realm = 'acme';
        const tokenSource = new ClientCredentialsTokenSource({ baseUrl, clientId: process.env.CLIENT_ID, clientSecret: process.env.CLIENT_SECRET });
        const client = new OrgAdminClient({ baseUrl, realm, tokenSource });
        const id = await client.createOrganization({ name: 'globex', domains: ['globex.example.com'] });
        await client.addMember(id, process.env.USER_ID);
        console.log(JSON.stringify({ node: process.version, name: (await client.getOrganization(id)).name, member: await client.isMember(id, process.env.USER_ID) }));
      })().catch((error) => { console.error(error); process.exit(1); });`;
    const { stdout } = await runOk(node22.node, ['-e', script], {
      cwd: app,
      env: { ...env, BASE_URL: running.url, CLIENT_ID: key.clientId, CLIENT_SECRET: key.clientSecret, USER_ID: user.id },
    });
    expect(JSON.parse(stdout)).toEqual({ node: node22.version, name: 'globex', member: true });
  });

  it('synthesizes a cdktf app with the constructs', async () => {
    await writeFile(
      join(app, 'main.js'),
      `const { App, TerraformStack } = require('cdktf');
const { OrgAdminProvider, Organization } = require('orgadmin/constructs');
const app = new App();
const stack = new TerraformStack(app, 'orgs');
new OrgAdminProvider(stack, 'orgadmin');
new Organization(stack, 'acme', { name: 'acme' });
app.synth();
`,
    );
    await runOk(node22.node, ['main.js'], { cwd: app, env });
    const synthesized = JSON.parse(await readFile(join(app, 'cdktf.out', 'stacks', 'orgs', 'cdk.tf.json'), 'utf8')) as { resource: Record<string, unknown> };
    expect(Object.keys(synthesized.resource)).toEqual(['orgadmin_organization']);
  });
});
