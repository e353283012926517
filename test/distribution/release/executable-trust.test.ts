/**
 * The self-contained executable trusts the system's certificate authorities for its HTTPS calls
 * to the orgadmin service, like the launcher (`node --use-openssl-ca`) and Terraform's Go
 * providers: a CA given only through `SSL_CERT_FILE` or `SSL_CERT_DIR` is enough, and
 * `NODE_EXTRA_CA_CERTS` adds one. Terraform runs the executable (installed by `orgadmin provider
 * install` into a filesystem mirror) with no Node.js on PATH; the service is reached through a TLS
 * front whose certificate a throwaway CA signed.
 */
import { mkdir, mkdtemp, rm, writeFile, copyFile } from 'node:fs/promises';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { providerVersion } from '../../../src/distribution/package-info';
import { installProvider, mirrorCliConfig } from '../../../src/distribution/install';
import { runTerraform } from '../../e2e/helpers/terraform';
import { createTestRealm, startTestService, type TestService } from '../../helpers/service';
import { ensureProviderBundle, PROVIDER_BUNDLE } from '../../e2e/helpers/bundle';
import { createTestCa, ensureHostExecutable, type TestCa } from './helpers';

const version = providerVersion();
let work: string;
let ca: TestCa;
let svc: TestService;
let front: TlsServer;
let frontUrl: string;
let cliConfigFile: string;
let launcherCliConfigFile: string;
let realm: { realm: string; clientId: string; clientSecret: string };

beforeAll(async () => {
  ensureHostExecutable(version);
  work = await mkdtemp(join(tmpdir(), 'orgadmin-trust-'));
  ca = await createTestCa(await mkdtemp(join(work, 'ca-')));
  svc = await startTestService();
  realm = await createTestRealm(svc, 'trust');
  // TLS in front of the service's plain HTTP port: bytes pass through unchanged.
  const servicePort = Number(new URL(svc.baseUrl).port);
  front = createTlsServer({ cert: ca.serverCert, key: ca.serverKey }, (tls) => {
    const upstream = netConnect(servicePort, '127.0.0.1');
    tls.pipe(upstream).pipe(tls);
    tls.on('error', () => upstream.destroy());
    upstream.on('error', () => tls.destroy());
  });
  await new Promise<void>((resolveListen) => front.listen(0, '127.0.0.1', resolveListen));
  frontUrl = `https://localhost:${(front.address() as AddressInfo).port}`;

  const mirror = join(work, 'mirror');
  const installed = await installProvider({ dir: mirror });
  expect(installed.selfContained).toBe(true);
  cliConfigFile = join(work, 'terraform.rc');
  await writeFile(cliConfigFile, mirrorCliConfig(mirror));

  ensureProviderBundle();
  const launcherMirror = join(work, 'launcher-mirror');
  const launcher = await installProvider({ dir: launcherMirror, bundlePath: PROVIDER_BUNDLE });
  expect(launcher.selfContained).toBeFalsy();
  launcherCliConfigFile = join(work, 'launcher.rc');
  await writeFile(launcherCliConfigFile, mirrorCliConfig(launcherMirror));
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolveClose) => (front ? front.close(() => resolveClose()) : resolveClose()));
  await svc?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * Creates organization `name` with terraform in a fresh directory, the given trust variables set,
 * with the executable (no PATH) or the launcher (PATH holding this Node.js alone).
 */
async function applyOrganization(
  name: string,
  trust: Record<string, string>,
  form: 'executable' | 'launcher' = 'executable',
): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = join(work, name);
  await mkdir(dir);
  await writeFile(
    join(dir, 'main.tf'),
    `terraform {\n  required_providers {\n    orgadmin = { source = "orgadmin/orgadmin" }\n  }\n}\n\nresource "orgadmin_organization" "org" {\n  name = "${name}"\n}\n`,
  );
  // Nothing of the machine: no PATH (so no Node.js) for the executable, no NODE_EXTRA_CA_CERTS, no SSL_CERT_* but `trust`.
  const env: NodeJS.ProcessEnv = {
    HOME: dir,
    PATH: form === 'launcher' ? `${dirname(process.execPath)}:/usr/bin:/bin` : '',
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    TF_CLI_CONFIG_FILE: form === 'launcher' ? launcherCliConfigFile : cliConfigFile,
    ORGADMIN_BASE_URL: frontUrl,
    ORGADMIN_REALM: realm.realm,
    ORGADMIN_CLIENT_ID: realm.clientId,
    ORGADMIN_CLIENT_SECRET: realm.clientSecret,
    ...trust,
  };
  const init = await runTerraform(dir, ['init', '-no-color', '-input=false'], env);
  if (init.code !== 0) throw new Error(`terraform init exited ${init.code}\n${init.stdout}\n${init.stderr}`);
  return runTerraform(dir, ['apply', '-auto-approve', '-no-color', '-input=false'], env);
}

/** Organizations the service created (a POST to .../orgs answered 201). */
function createdOrganizations(): number {
  return svc.requests.filter((r) => r.method === 'POST' && /\/orgs$/.test(r.url.split('?')[0]!) && r.status === 201).length;
}

/** Applies one organization trusting `trust` and checks that the provider refused the service's certificate and created nothing. */
async function expectRefused(name: string, trust: Record<string, string>, form?: 'executable' | 'launcher'): Promise<void> {
  const before = createdOrganizations();
  const apply = await applyOrganization(name, trust, form);
  expect(apply.code).toBe(1);
  expect(apply.stderr.replace(/\s+/g, ' ')).toMatch(/certificate/i);
  expect(createdOrganizations()).toBe(before);
}

/** Applies one organization trusting `trust` and checks that it went through: one organization created. */
async function expectTrusted(name: string, trust: Record<string, string>, form?: 'executable' | 'launcher'): Promise<void> {
  const before = createdOrganizations();
  const apply = await applyOrganization(name, trust, form);
  expect(apply.stderr).toBe('');
  expect(apply.code).toBe(0);
  expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  expect(createdOrganizations()).toBe(before + 1);
}

describe('the executable over HTTPS', () => {
  it('does not trust a CA that no trust source names (the control)', () => expectRefused('untrusted', {}), 60_000);

  it('trusts a CA given only through SSL_CERT_FILE', () => expectTrusted('trusted-by-file', { SSL_CERT_FILE: ca.caCertFile }), 60_000);

  it('trusts a CA given only through SSL_CERT_DIR', async () => {
    const certs = join(work, 'certs');
    await mkdir(certs);
    await copyFile(ca.caCertFile, join(certs, 'orgadmin-test-ca.pem'));
    await expectTrusted('trusted-by-dir', { SSL_CERT_DIR: certs });
  }, 60_000);

  it('trusts a CA given only through NODE_EXTRA_CA_CERTS', () => expectTrusted('trusted-by-extra', { NODE_EXTRA_CA_CERTS: ca.caCertFile }), 60_000);
});

describe('the launcher over HTTPS', () => {
  it('does not trust a CA that no trust source names (the control)', () => expectRefused('launcher-untrusted', {}, 'launcher'), 60_000);

  it('trusts a CA given only through NODE_EXTRA_CA_CERTS', () =>
    expectTrusted('launcher-trusted-by-extra', { NODE_EXTRA_CA_CERTS: ca.caCertFile }, 'launcher'), 60_000);
});
