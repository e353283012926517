/**
 * The README's construct example, taken from README.md itself and run as written from an empty
 * directory: the setup (npm init, the pinned installs, `npx orgadmin provider install` into
 * `~/.terraform.d/plugins`), `tsconfig.json` and `main.ts` compiled with the repository's
 * TypeScript, the bootstrap of a local service, the `ORGADMIN_*` settings, synth, `terraform init`
 * and `terraform apply`; then the service holds the organization and a second plan is empty.
 *
 * What is not run literally: `npm install` of the named packages, which would fetch this package
 * from the registry; instead each named package is linked to this repository's copy (the package
 * itself to the repository, whose `exports` point at the built dist/, and orgadmin-service to
 * packages/orgadmin-service). test/package/ installs the packed tarballs for real. The pinned versions are
 * checked against the repository's own. `HOME` is a temporary directory, so the provider install
 * goes where the README says without touching the real one, and the port 8080 is swapped for a
 * free one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../src/client';
import { ensureBuilt } from './cli/compiled-cli';
import { ensureProviderBundle } from './e2e/helpers/bundle';
import { runTerraform, terraformEnv } from './e2e/helpers/terraform';

jest.setTimeout(240_000);

const ROOT = resolve(__dirname, '..');

/** The fenced blocks of the README's construct example, by the name of the marker before each. */
function readmeExample(readme: string): Map<string, string> {
  const section = readme.slice(readme.indexOf('## A construct example'), readme.indexOf('## Provider settings'));
  const blocks = new Map<string, string>();
  for (const match of section.matchAll(/<!-- readme-example:(\S+) -->\n```[a-z]*\n([\s\S]*?)\n```/g)) blocks.set(match[1]!, `${match[2]!}\n`);
  return blocks;
}

/**
 * Bash functions standing in for `npm install` (links the named packages to the repository's
 * copies) and `npx` (runs the linked package's own executable, as npx would).
 */
function shims(): string {
  return `
set -euo pipefail
npm() {
  if [ "$1" = install ]; then
    shift
    mkdir -p node_modules
    for spec in "$@"; do
      case "$spec" in --*) continue ;; esac
      name="\${spec%@*}"
      if [ "$name" = orgadmin ]; then ln -sfn ${JSON.stringify(ROOT)} node_modules/orgadmin
      elif [ "$name" = orgadmin-service ]; then ln -sfn ${JSON.stringify(join(ROOT, 'packages', 'orgadmin-service'))} node_modules/orgadmin-service
      else ln -sfn ${JSON.stringify(join(ROOT, 'node_modules'))}/"$name" node_modules/"$name"; fi
    done
  else
    command npm "$@"
  fi
}
npx() {
  local tool="$1"; shift
  case "$tool" in
    orgadmin) node node_modules/orgadmin/bin/orgadmin.js "$@" ;;
    tsc) node node_modules/typescript/bin/tsc "$@" ;;
    *) echo "the README example uses npx $tool, which this test does not know" >&2; return 127 ;;
  esac
}
`;
}

/** What a bash run printed. */
interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `script` (after the shims) with bash in `cwd`, `input` on stdin. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, input = ''): Promise<Result> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', ['-c', shims() + script], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.end(input);
  });
}

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

/** Starts `node args...` in `cwd` and resolves once its stdout has a line matching `ready`. */
function startUntil(args: string[], cwd: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (ready.test(out)) resolvePromise(child);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before it was ready:\n${out}${err}`)));
  });
}

/** Throws with the output unless the run exited 0. */
function ok(what: string, result: Result): Result {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

let work: string;
let server: ChildProcess | undefined;
let blocks: Map<string, string>;

beforeAll(async () => {
  ensureBuilt();
  ensureProviderBundle();
  blocks = readmeExample(await readFile(join(ROOT, 'README.md'), 'utf8'));
  work = await mkdtemp(join(tmpdir(), 'orgadmin-readme-'));
});

afterAll(async () => {
  server?.kill('SIGTERM');
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the README's construct example", () => {
  it('has the setup, tsconfig.json, main.ts, bootstrap and apply blocks', () => {
    expect([...blocks.keys()]).toEqual(['setup', 'tsconfig.json', 'main.ts', 'bootstrap', 'apply']);
  });

  it('pins the versions this repository builds and tests with', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const setup = blocks.get('setup')!;
    const pinned = (name: string): string | undefined => new RegExp(`(?:^|\\s)${name}@(\\S+)`).exec(setup)?.[1];
    expect(pinned('typescript')).toBe(pkg.devDependencies.typescript);
    expect(pkg.devDependencies.cdktf).toMatch(new RegExp(`^\\^${pinned('cdktf')!.replace('.', '\\.')}\\.`));
    expect(pkg.devDependencies.constructs).toMatch(new RegExp(`^\\^${pinned('constructs')}\\.`));
    expect(setup).toMatch(/^npx orgadmin provider install\b/m);
    // The bootstrap runs the local service, which the orgadmin package alone does not bring.
    expect(setup).toMatch(/^npm install (--save-dev )?orgadmin-service\b/m);
  });

  it('runs as written from an empty directory: the organization exists with alice, and a second plan is empty', async () => {
    const home = join(work, 'home');
    const port = await freePort();
    const withPort = (text: string): string => text.split('8080').join(String(port));
    // The caller's Terraform and orgadmin settings must not leak in; node must be on PATH for the
    // provider's launcher.
    const env = terraformEnv({ HOME: home, PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter) });
    await mkdir(home);

    ok('setup', await bash(blocks.get('setup')!, work, env));
    const project = join(work, 'orgs');
    await writeFile(join(project, 'tsconfig.json'), blocks.get('tsconfig.json')!);
    await writeFile(join(project, 'main.ts'), blocks.get('main.ts')!);

    const bootstrap = withPort(blocks.get('bootstrap')!).split('\n');
    const serveLine = bootstrap.find((line) => line.startsWith('npx orgadmin serve'));
    expect(serveLine).toBeDefined();
    ok('bootstrap', await bash(bootstrap.filter((line) => line !== serveLine).join('\n'), project, env));
    const serveArgs = serveLine!.replace(/#.*$/, '').trim().split(/\s+/).slice(2);
    server = await startUntil([join(project, 'node_modules', 'orgadmin', 'bin', 'orgadmin.js'), ...serveArgs], project, env, /orgadmin listening on http:\/\/\S+\n/);

    // `terraform apply` asks before it changes anything; the answer a user types goes to stdin.
    const applied = ok('apply', await bash(withPort(blocks.get('apply')!), project, env, 'yes\n'));
    expect(applied.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');

    const key = JSON.parse(await readFile(join(project, '.orgadmin', 'terraform-key.json'), 'utf8')) as { clientId: string; clientSecret: string };
    const baseUrl = `http://127.0.0.1:${port}`;
    const client = new OrgAdminClient({ baseUrl, realm: 'acme', tokenSource: new ClientCredentialsTokenSource({ baseUrl, clientId: key.clientId, clientSecret: key.clientSecret }) });
    try {
      const [acme, ...others] = await client.listAllOrganizations();
      expect(others).toEqual([]);
      expect(acme).toMatchObject({ name: 'acme', domains: ['acme.example.com'] });
      const members = await client.listAllMembers(acme!.id, { excludeAdminAccounts: true });
      expect(members.map((m) => m.email)).toEqual(['alice@example.com']);
    } finally {
      await client.close();
    }

    const settings = { ORGADMIN_BASE_URL: baseUrl, ORGADMIN_REALM: 'acme', ORGADMIN_CLIENT_ID: key.clientId, ORGADMIN_CLIENT_SECRET: key.clientSecret };
    const plan = await runTerraform(join(project, 'cdktf.out', 'stacks', 'orgs'), ['plan', '-detailed-exitcode', '-input=false', '-no-color'], { ...env, ...settings });
    expect({ code: plan.code, stderr: plan.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
