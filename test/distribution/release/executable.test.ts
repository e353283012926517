/**
 * The provider as a self-contained executable (the bundle compiled by Bun): it runs with nothing of
 * the machine, carries nothing of the build machine, holds npm's undici (not Bun's look-alike),
 * ignores the working directory's `.env`, serves the Windows transport (TCP) to real terraform, and
 * `orgadmin provider install` installs it.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bunCompiler, bunRuntime } from '../../../src/distribution/bun-runtime';
import { executableName, providerVersion } from '../../../src/distribution/package-info';
import { installProvider, mirrorCliConfig } from '../../../src/distribution/install';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../../src/tfplugin/protocol/plugin-server';
import { PROVIDER_BUNDLE, REPO_ROOT } from '../../e2e/helpers/bundle';
import { runTerraform, terraformEnv } from '../../e2e/helpers/terraform';
import { createTestRealm, startTestService } from '../../helpers/service';
import { ensureHostExecutable, handshake, hostPlatform } from './helpers';

const version = providerVersion();
let executable: string;
let root: string;

beforeAll(() => {
  executable = ensureHostExecutable(version);
}, 300_000);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgadmin-executable-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** How often `needle` occurs in `haystack`. */
function occurrences(haystack: Buffer, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** The start of undici's HTTP parser (llhttp compiled to WebAssembly, base64 in undici's source): npm's undici only. */
const UNDICI_LLHTTP = 'AGFzbQEAAAAB';

describe('the self-contained executable', () => {
  it('refuses to run outside Terraform, with a human message, in an empty environment', () => {
    const run = spawnSync(executable, [], { env: {}, encoding: 'utf8', cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('This binary is a plugin');
  });

  it("does not load the working directory's .env (Terraform starts it in the user's directory)", async () => {
    // Were it loaded, this .env would make the process look started by Terraform.
    await writeFile(join(root, '.env'), `${MAGIC_COOKIE_KEY}=${MAGIC_COOKIE_VALUE}\nPLUGIN_PROTOCOL_VERSIONS=6\n`);
    const run = spawnSync(executable, [], { env: {}, encoding: 'utf8', cwd: root });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('This binary is a plugin');
  });

  it('prints the go-plugin handshake with TLS given only the variables Terraform sets (no PATH, no HOME)', async () => {
    const sockets = join(root, 'sockets');
    await mkdir(sockets);
    const line = await handshake(executable, [], sockets);
    expect(line).toMatch(new RegExp(`^1\\|6\\|unix\\|${sockets}/[^|]+\\|grpc\\|[A-Za-z0-9+/]+\\n$`));
  }, 30_000);

  it('holds the bundle with npm\'s undici, and no path of the build machine and no key beyond the stock Bun runtime\'s', async () => {
    // Bun names the embedded files /$bunfs/root/<name>: not a path of this machine (whose HOME may be /root).
    const withoutBunfs = (data: Buffer): Buffer => Buffer.from(data.toString('latin1').split('/$bunfs/root').join('/$bunfs/'), 'latin1');
    const built = withoutBunfs(await readFile(executable));
    const stock = withoutBunfs(await readFile(await bunRuntime(hostPlatform(), bunCompiler().version)));
    expect(occurrences(stock, UNDICI_LLHTTP)).toBe(0);
    expect(occurrences(await readFile(PROVIDER_BUNDLE), UNDICI_LLHTTP)).toBeGreaterThan(0);
    expect(occurrences(built, UNDICI_LLHTTP)).toBeGreaterThan(0);
    for (const needle of [REPO_ROOT, homedir(), `${tmpdir()}/orgadmin`, 'PRIVATE KEY-----']) {
      expect({ needle, count: occurrences(built, needle) }).toEqual({ needle, count: occurrences(stock, needle) });
    }
    expect(occurrences(built, REPO_ROOT)).toBe(0);
    // The bundle (0.6 MB) and its bytecode on top of the runtime.
    expect(built.length - stock.length).toBeLessThan(16 * 1024 * 1024);
  }, 60_000);
});

describe('the Windows transport, on Linux', () => {
  it('listens on TCP 127.0.0.1 within PLUGIN_MIN_PORT..PLUGIN_MAX_PORT when TFPLUGIN_TRANSPORT=tcp', async () => {
    const line = await handshake(executable, [], root, { TFPLUGIN_TRANSPORT: 'tcp', PLUGIN_MIN_PORT: '10000', PLUGIN_MAX_PORT: '25000' });
    const port = Number(/^1\|6\|tcp\|127\.0\.0\.1:(\d+)\|grpc\|[A-Za-z0-9+/]+\n$/.exec(line)?.[1]);
    expect(port).toBeGreaterThanOrEqual(10000);
    expect(port).toBeLessThanOrEqual(25000);
  }, 30_000);

  it('real terraform applies, reads back and destroys through the provider over TCP with mutual TLS', async () => {
    const svc = await startTestService();
    try {
      const realm = await createTestRealm(svc, 'tcp');
      const mirror = join(root, 'mirror');
      await installProvider({ dir: mirror });
      const cliConfig = join(root, 'terraform.rc');
      await writeFile(cliConfig, mirrorCliConfig(mirror));
      const dir = join(root, 'work');
      await mkdir(dir);
      await writeFile(
        join(dir, 'main.tf'),
        'terraform {\n  required_providers {\n    orgadmin = { source = "orgadmin/orgadmin" }\n  }\n}\n\nresource "orgadmin_organization" "org" {\n  name = "over-tcp"\n}\n',
      );
      const env = terraformEnv({
        TF_CLI_CONFIG_FILE: cliConfig,
        TFPLUGIN_TRANSPORT: 'tcp',
        TF_LOG: 'debug',
        ORGADMIN_BASE_URL: svc.baseUrl,
        ORGADMIN_REALM: realm.realm,
        ORGADMIN_CLIENT_ID: realm.clientId,
        ORGADMIN_CLIENT_SECRET: realm.clientSecret,
      });
      expect((await runTerraform(dir, ['init', '-no-color', '-input=false'], env)).code).toBe(0);
      const apply = await runTerraform(dir, ['apply', '-auto-approve', '-no-color', '-input=false'], env);
      expect(apply.code).toBe(0);
      expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      // The provider served over TCP (its debug line, in Terraform's log), and Terraform, which has
      // only the handshake line to go by, got its RPCs through. Terraform copies a plugin's stderr
      // asynchronously and may drop the last lines of a short-lived start, so the lines are at most
      // one per start, and none names another transport.
      const starts = apply.stderr.match(/provider: starting plugin:/g)?.length ?? 0;
      expect(starts).toBeGreaterThanOrEqual(3);
      const listening = apply.stderr.match(/plugin server listening: .*/g) ?? [];
      expect(listening.length).toBeGreaterThanOrEqual(1);
      expect(listening.length).toBeLessThanOrEqual(starts);
      // Terraform prints the line's fields in no fixed order.
      for (const line of listening) {
        expect(line).toMatch(/ transport=tcp( |$)/);
        expect(line).toMatch(/ address=127\.0\.0\.1:\d+( |$)/);
        expect(line).toMatch(/ tls=true( |$)/);
      }
      expect(apply.stderr).not.toMatch(/transport=unix/);
      // The service created it: the provider's POST went through.
      expect(svc.requests.filter((r) => r.method === 'POST' && /\/orgs$/.test(r.url.split('?')[0]!) && r.status === 201)).toHaveLength(1);
      const plan = await runTerraform(dir, ['plan', '-detailed-exitcode', '-no-color', '-input=false'], env);
      expect(plan.code).toBe(0);
      expect((await runTerraform(dir, ['destroy', '-auto-approve', '-no-color', '-input=false'], env)).code).toBe(0);
    } finally {
      await svc.close();
    }
  }, 120_000);
});

describe('orgadmin provider install with a built executable', () => {
  it('installs the executable alone', async () => {
    const installed = await installProvider({ dir: join(root, 'mirror'), searchFrom: [root] });
    expect(installed.selfContained).toBe(true);
    expect(installed.path.endsWith(`/${hostPlatform().name}/${executableName(version)}`)).toBe(true);
    expect(await readdir(dirname(installed.path))).toEqual([executableName(version)]);
    expect((await readFile(installed.path)).equals(await readFile(executable))).toBe(true);
    expect((await installProvider({ dir: join(root, 'mirror'), searchFrom: [root] })).status).toBe('unchanged');
  }, 60_000);
});
