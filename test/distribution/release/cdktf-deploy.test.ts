/**
 * `cdktf deploy` and `cdktf diff` (the real cdktf-cli) on a fresh output directory, with the
 * provider installed from the release served as a network mirror over HTTPS (test CA through
 * `SSL_CERT_FILE`). cdktf runs `terraform init` and then, because the output directory has no
 * `.terraform.lock.hcl` yet, `terraform providers lock -platform=linux_amd64`, a command that ignores
 * the CLI configuration's `provider_installation` and asks the origin registry. Terraform's
 * `TF_CLI_ARGS_providers_lock` environment variable adds `-net-mirror=URL` to that command, which
 * is the documented recipe (docs/guides/publishing.md) this test proves.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../../src/client';
import { executableName, PROVIDER_TYPE, providerVersion } from '../../../src/distribution/package-info';
import { parsePlatforms } from '../../../src/distribution/platforms';
import type { Release } from '../../../src/distribution/release';
import { TERRAFORM_BIN } from '../../e2e/helpers/terraform';
import { REPO_ROOT } from '../../e2e/helpers/bundle';
import type { TestService } from '../../helpers/service';
import { bareTerraformEnv, ensureExecutables, hostPlatform, startReleaseFixture, type Registry, type ReleaseFixture, type TestCa } from './helpers';

const version = providerVersion();
// cdktf locks linux_amd64 whatever the machine is: the mirror carries it besides this machine's platform.
const CDKTF_LOCK_PLATFORM = 'linux_amd64';
const platforms = [...new Set([hostPlatform().name, CDKTF_LOCK_PLATFORM])].flatMap((name) => parsePlatforms(name));
const CDKTF_BIN = join(REPO_ROOT, 'node_modules', 'cdktf-cli', 'bundle', 'bin', 'cdktf');
const ORG_NAME = 'deployed-by-cdktf';
let work: string;
let ca: TestCa;
let release: Release;
let registry: Registry;
let svc: TestService;
let realm: { realm: string; clientId: string; clientSecret: string };

let fixture: ReleaseFixture | undefined;

beforeAll(async () => {
  ensureExecutables(platforms);
  fixture = await startReleaseFixture({ prefix: 'orgadmin-cdktf-', platforms, realmName: 'cdktf' });
  ({ work, ca, release, registry, svc, realm } = fixture);
}, 240_000);

afterAll(async () => {
  await fixture?.close();
});

/** What one cdktf command did: exit code and its stdout and stderr, interleaved. */
interface CdktfResult {
  code: number;
  output: string;
}

/** Runs `cdktf ...args` in `cwd` with `env`; never throws for a non-zero exit. */
function runCdktf(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CdktfResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CDKTF_BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code: code ?? -1, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

it(
  'cdktf deploy on a fresh output directory installs and locks the provider from a network mirror, and cdktf diff then finds no changes',
  async () => {
    const project = join(work, 'project');
    const home = join(project, 'home');
    const bin = join(project, 'bin');
    await mkdir(home, { recursive: true });
    await mkdir(bin);
    await symlink(process.execPath, join(bin, 'node'));
    await writeFile(join(home, 'terraform.rc'), `provider_installation {\n  network_mirror {\n    url = "${registry.mirrorUrl}"\n  }\n}\n`);
    const app = [process.execPath, '--require', join(REPO_ROOT, 'examples', 'register.js'), join(__dirname, 'fixtures', 'cdktf-app.ts')];
    await writeFile(
      join(project, 'cdktf.json'),
      JSON.stringify({ language: 'typescript', app: app.map((part) => JSON.stringify(part)).join(' '), output: 'cdktf.out', sendCrashReports: 'false' }),
    );
    const env = bareTerraformEnv(home, ca.caCertFile, {
      ORGADMIN_BASE_URL: svc.baseUrl,
      ORGADMIN_REALM: realm.realm,
      ORGADMIN_CLIENT_ID: realm.clientId,
      ORGADMIN_CLIENT_SECRET: realm.clientSecret,
      ORG_NAME,
      TERRAFORM_BINARY_NAME: TERRAFORM_BIN,
      // The recipe: `terraform providers lock`, which cdktf runs after init on a directory
      // without a lock file, reads the same mirror as `terraform init`.
      TF_CLI_ARGS_providers_lock: `-net-mirror=${registry.mirrorUrl}`,
      // Plain line output instead of cdktf's interactive terminal UI.
      CI: '1',
      // cdktf is a Node.js program and looks for `node` on PATH; nothing else is there.
      PATH: bin,
    });

    // Fresh: no output directory, so no lock file from an earlier run.
    expect(existsSync(join(project, 'cdktf.out'))).toBe(false);
    const stackDir = join(project, 'cdktf.out', 'stacks', 'orgs');

    const deploy = await runCdktf(project, ['deploy', '--auto-approve', '--no-color'], env);
    expect({ code: deploy.code, output: deploy.output }).toEqual({ code: 0, output: expect.stringContaining('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.') });
    // cdktf's lock step ran against the mirror (not the origin registry, which does not answer here).
    expect(deploy.output).toContain(`Retrieved orgadmin/${PROVIDER_TYPE} ${version} for ${CDKTF_LOCK_PLATFORM} (verified checksum)`);
    expect(registry.requests).toContain(`/mirror/registry.terraform.io/orgadmin/${PROVIDER_TYPE}/${version}.json`);
    const lock = await readFile(join(stackDir, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain(`provider "registry.terraform.io/orgadmin/${PROVIDER_TYPE}"`);
    const locked = release.archives.find((archive) => archive.platform === CDKTF_LOCK_PLATFORM)!;
    const h1 = createHash('sha256').update(`${locked.executable.sha256}  ${executableName(version)}\n`).digest('base64');
    expect(lock).toContain(`"h1:${h1}"`);

    // The organization exists in the service.
    const client = new OrgAdminClient({
      baseUrl: svc.baseUrl,
      realm: realm.realm,
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: realm.clientId, clientSecret: realm.clientSecret }),
      maxRetries: 0,
    });
    try {
      const found = await client.listOrganizations({ search: ORG_NAME });
      expect(found.map((org) => [org.name, org.displayName])).toEqual([[ORG_NAME, 'Deployed by cdktf']]);
    } finally {
      await client.close();
    }

    // A second command on the now-locked directory: no lock step, and nothing to change.
    const diff = await runCdktf(project, ['diff', '--no-color'], env);
    expect({ code: diff.code, output: diff.output }).toEqual({ code: 0, output: expect.stringContaining('No changes. Your infrastructure matches the configuration.') });
    expect(diff.output).not.toContain(`Retrieved orgadmin/${PROVIDER_TYPE}`);
  },
  90_000,
);
