/**
 * The packed package (`npm pack`) installed into an empty CDK for Terraform app and into an empty
 * CDK Terrain app, as a user of the constructs installs it: no native module, no service or gRPC packages, a package root that does
 * not load the constructs, constructs that type-check (with the compiler settings `cdktf init`
 * writes) and synthesize, `orgadmin provider install` working, and the service's commands saying
 * which package to add. Installing the service package beside it is checked without building:
 * npm must resolve it without engine warnings on this Node.js (20, CI's).
 */
import { readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../cli/compiled-cli';
import { devVersion, emptyApp, findFiles, installedPackages, npmInstall, packPackages, run, runOk, type Output, type PackedPackages } from '../helpers/packed-package';

jest.setTimeout(300_000);

/** The version of this checkout's package (the packed tarball's). */
const devVersionOfOrgadmin = (): string => (require(join(ROOT, 'package.json')) as { version: string }).version;


/** Packages a constructs-only install must not bring. */
const HEAVY = ['better-sqlite3', 'fastify', '@fastify/formbody', 'pg', '@grpc/grpc-js', '@grpc/proto-loader', 'protobufjs', 'orgadmin-service'];

/** A stack with each construct, importing from `toolkit` and `entry` (the package subpath). */
function mainTs(toolkit: string, entry: string): string {
  return `import { App, TerraformStack } from '${toolkit}';
import { Membership, OrgAdminProvider, Organization, User } from '${entry}';

const app = new App();
const stack = new TerraformStack(app, 'orgs');
new OrgAdminProvider(stack, 'orgadmin');
const acme = new Organization(stack, 'acme', { name: 'acme', domains: ['acme.example.com'] });
new Membership(stack, 'alice', { organization: acme, userId: User.fromEmail(stack, 'alice-user', 'alice@example.com').userId });
app.synth();
`;
}

/** The two toolkits: the package each app installs and the subpath it imports the constructs from. */
const TOOLKITS = [
  { toolkit: 'cdktf', entry: 'orgadmin/constructs', other: 'cdktn' },
  { toolkit: 'cdktn', entry: 'orgadmin/cdktn', other: 'cdktf' },
] as const;

/** The compiler settings `cdktf init --template typescript` writes (CommonJS, classic node resolution; cdktn's are the same). */
const TSCONFIG = {
  compilerOptions: { target: 'ES2018', module: 'CommonJS', lib: ['es2018'], strict: true, declaration: true, skipLibCheck: true, experimentalDecorators: true },
  files: ['main.ts'],
};

describe.each(TOOLKITS)('the packed package in an empty $toolkit app', ({ toolkit, entry, other }) => {
  let work: string;
  let packed: PackedPackages;
  let app: string;
  let install: Output;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'orgadmin-packed-'));
    packed = await packPackages(join(work, 'packs'));
    app = await emptyApp(work, `${toolkit}-app`);
    install = await npmInstall(app, [packed.orgadmin, `${toolkit}@${devVersion(toolkit)}`, `constructs@${devVersion('constructs')}`]);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('installs without engine warnings or install scripts', () => {
    expect(install.stderr).not.toMatch(/EBADENGINE/);
    expect(install.stderr).not.toMatch(/install-scripts/);
  });

  it('brings no native module and none of the service or gRPC packages', () => {
    const modules = join(app, 'node_modules');
    expect(findFiles(modules, (name) => name.endsWith('.node') || name === 'binding.gyp')).toEqual([]);
    const installed = installedPackages(app);
    expect(installed).toEqual(expect.arrayContaining(['orgadmin', toolkit, 'constructs', 'undici']));
    for (const heavy of [...HEAVY, other]) expect(installed).not.toContain(heavy);
  });

  it('does not load the constructs (or the toolkit) from the package root', async () => {
    const script =
      "const sdk = require('orgadmin');" +
      'const loaded = Object.keys(require.cache);' +
      `console.log(JSON.stringify({ client: typeof sdk.OrgAdminClient, toolkit: loaded.some((f) => f.includes('/node_modules/${toolkit}/')), constructs: loaded.some((f) => /\\/dist\\/(constructs|cdktn)\\//.test(f)) }));`;
    const { stdout } = await runOk(process.execPath, ['-e', script], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ client: 'function', toolkit: false, constructs: false });
  });

  it(`type-checks and synthesizes a stack that uses ${entry}`, async () => {
    await writeFile(join(app, 'main.ts'), mainTs(toolkit, entry));
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    await runOk(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: app });
    await runOk(process.execPath, ['main.js'], { cwd: app });
    const synthesized = JSON.parse(await readFile(join(app, 'cdktf.out', 'stacks', 'orgs', 'cdk.tf.json'), 'utf8')) as {
      terraform: { required_providers: Record<string, { source: string }> };
      resource: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(synthesized.terraform.required_providers.orgadmin?.source).toBe('registry.terraform.io/orgadmin/orgadmin');
    expect(Object.values(synthesized.resource.orgadmin_organization ?? {})).toEqual([expect.objectContaining({ name: 'acme', domains: ['acme.example.com'] })]);
    expect(Object.keys(synthesized.resource.orgadmin_membership ?? {})).toHaveLength(1);
  });

  it('says to add orgadmin-provider for the executable, and installs the Node.js launcher with --launcher', async () => {
    const home = join(work, 'home');
    const env = { ...process.env, HOME: home };
    // The constructs alone bring no executable (test/package/provider-packages.test.ts installs it).
    const bare = await run('npx', ['orgadmin', 'provider', 'install'], { cwd: app, env });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(`npm install orgadmin-provider@${devVersionOfOrgadmin()}`);
    const { stdout } = await runOk('npx', ['orgadmin', 'provider', 'install', '--launcher'], { cwd: app, env });
    expect(stdout).toContain(join(home, '.terraform.d', 'plugins', 'registry.terraform.io', 'orgadmin', 'orgadmin'));
    expect(stdout).toContain('launcher; needs Node.js on PATH');
  });

  it.each(['serve', 'realms', 'demo'])('names the package to add when `orgadmin %s` needs the service', async (word) => {
    const result = await run('npx', ['orgadmin', word, ...(word === 'realms' ? ['list'] : [])], { cwd: app });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('npm install orgadmin-service');
    expect(result.stderr).not.toMatch(/Cannot find module|at .*\.js:\d+/);
  });

  it('explains the missing service packages on require("orgadmin/service")', async () => {
    const result = await run(process.execPath, ['-e', "require('orgadmin/service')"], { cwd: app });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('ServiceNotInstalledError');
    expect(result.stderr).toContain('npm install orgadmin-service');
  });

  it('resolves the service package beside it without engine warnings (npm install --dry-run)', async () => {
    const { stderr } = await npmInstall(app, ['--dry-run', packed.orgadmin, packed.service]);
    expect(stderr).not.toMatch(/EBADENGINE/);
  });
});
