/**
 * The cdktn build (scripts/build-cdktn.mjs → dist/cdktn, what `orgadmin/cdktn` is): the compiled
 * constructs copied unchanged with only the toolkit module pointed at cdktn, a refusal to build
 * when a construct file imports cdktf directly, and the built constructs synthesizing in a cdktn
 * app that never loads cdktf.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CDKTN_BUILD } from './helpers/cdktn-build';

const ROOT = resolve(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'build-cdktn.mjs');

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'orgadmin-build-cdktn-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A dist/ with compiled constructs `files` and compiled cdktn bindings; returns its path. */
async function fakeDist(files: Record<string, string>): Promise<string> {
  const dist = join(work, 'dist');
  await mkdir(join(dist, 'constructs', 'gen'), { recursive: true });
  await mkdir(join(dist, 'cdktn', 'gen'), { recursive: true });
  await writeFile(join(dist, 'constructs', 'gen', 'index.js'), 'require("cdktf");\n');
  await writeFile(join(dist, 'cdktn', 'gen', 'index.js'), 'require("cdktn");\n');
  for (const [name, text] of Object.entries(files)) await writeFile(join(dist, 'constructs', name), text);
  return dist;
}

describe('scripts/build-cdktn.mjs', () => {
  it('copies the constructs unchanged and points only the toolkit module at cdktn', async () => {
    const dist = await fakeDist({
      'toolkit.js': '// cdktf is the toolkit of this build\nvar a = require("cdktf");\nvar b = require("cdktf/lib/synthesize/synthesizer");\n',
      'toolkit.d.ts': "export { TerraformStack } from 'cdktf';\n",
      'organization.js': 'var t = require("./toolkit"); // made for cdktf and cdktn\n',
      'notes.txt': 'copied as it is',
    });
    await writeFile(join(dist, 'cdktn', 'gone.js'), 'a file whose source was removed');
    const result = spawnSync(process.execPath, [SCRIPT, '--dist', dist], { encoding: 'utf8' });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(await readFile(join(dist, 'cdktn', 'toolkit.js'), 'utf8')).toBe(
      '// cdktf is the toolkit of this build\nvar a = require("cdktn");\nvar b = require("cdktn/lib/synthesize/synthesizer");\n',
    );
    expect(await readFile(join(dist, 'cdktn', 'toolkit.d.ts'), 'utf8')).toBe("export { TerraformStack } from 'cdktn';\n");
    expect(await readFile(join(dist, 'cdktn', 'organization.js'), 'utf8')).toBe('var t = require("./toolkit"); // made for cdktf and cdktn\n');
    // The cdktn bindings stay; nothing of the cdktf bindings or of an earlier build is there.
    expect(await readFile(join(dist, 'cdktn', 'gen', 'index.js'), 'utf8')).toBe('require("cdktn");\n');
    const listing = execFileSync('ls', ['-A', join(dist, 'cdktn')], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(listing).toEqual(['gen', 'notes.txt', 'organization.js', 'toolkit.d.ts', 'toolkit.js']);
  });

  it('refuses a construct file that imports cdktf itself, naming the file and the import', async () => {
    const dist = await fakeDist({
      'toolkit.js': 'require("cdktf");\n',
      'users.js': 'var x = require("cdktf");\n',
      'users.d.ts': "import type { TerraformProvider } from 'cdktf/lib/terraform-provider';\n",
    });
    const result = spawnSync(process.execPath, [SCRIPT, '--dist', dist], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('users.js imports "cdktf": import it through ./toolkit instead');
    expect(result.stderr).toContain("users.d.ts imports 'cdktf/lib/terraform-provider': import it through ./toolkit instead");
  });

  it('refuses to run before the constructs are compiled', async () => {
    const result = spawnSync(process.execPath, [SCRIPT, '--dist', join(work, 'nothing')], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('toolkit.js is missing: run tsc -p tsconfig.build.json first');
  });
});

describe('dist/cdktn', () => {
  it('synthesizes a cdktn app without loading cdktf', async () => {
    const outdir = join(work, 'out');
    const app = `
      const { App, TerraformStack } = require('cdktn');
      const { OrgAdminProvider, Organization, User } = require(${JSON.stringify(CDKTN_BUILD)});
      const app = new App({ outdir: ${JSON.stringify(outdir)} });
      const stack = new TerraformStack(app, 'orgs');
      new OrgAdminProvider(stack, 'orgadmin');
      const acme = new Organization(stack, 'acme', { name: 'acme', members: { authoritative: [User.fromEmail(stack, 'alice', 'alice@example.com')] } });
      app.synth();
      const cdktf = Object.keys(require.cache).filter((file) => file.includes('/node_modules/cdktf/'));
      process.stdout.write(JSON.stringify(cdktf));
    `;
    const loaded = execFileSync(process.execPath, ['-e', app], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(loaded)).toEqual([]);
    const stack = JSON.parse(await readFile(join(outdir, 'stacks', 'orgs', 'cdk.tf.json'), 'utf8')) as {
      resource: Record<string, Record<string, Record<string, unknown>>>;
      data: Record<string, Record<string, { email?: string }>>;
    };
    expect(stack.resource.orgadmin_organization?.acme?.name).toBe('acme');
    expect(Object.values(stack.resource.orgadmin_organization_members ?? {})).toEqual([
      expect.objectContaining({ organization_id: '${orgadmin_organization.acme.id}', user_ids: ['${data.orgadmin_user.alice.id}'] }),
    ]);
    expect(stack.data.orgadmin_user?.alice?.email).toBe('alice@example.com');
  });
});
