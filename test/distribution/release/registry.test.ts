/**
 * The provider release, installed through Terraform's own installation protocols by the real
 * terraform binary: (a) a provider registry over HTTPS (service discovery, versions, download,
 * SHA256SUMS and its GPG signature), (b) a network mirror, (c) `terraform providers lock
 * -net-mirror`. Terraform runs with an empty PATH, so the provider it installs and starts must
 * need no Node.js.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROVIDER_TYPE, executableName, providerVersion } from '../../../src/distribution/package-info';
import { releaseFileNames, type Release } from '../../../src/distribution/release';
import { runTerraform } from '../../e2e/helpers/terraform';
import type { TestService } from '../../helpers/service';
import {
  bareTerraformEnv,
  ensureHostExecutable,
  hostPlatform,
  startRegistry,
  startReleaseFixture,
  type GpgKey,
  type Registry,
  type ReleaseFixture,
  type TestCa,
} from './helpers';

const version = providerVersion();
const platform = hostPlatform();
let work: string;
let key: GpgKey;
let ca: TestCa;
let release: Release;
let registry: Registry;
let svc: TestService;
let providerEnv: Record<string, string>;

let fixture: ReleaseFixture | undefined;

beforeAll(async () => {
  ensureHostExecutable(version);
  fixture = await startReleaseFixture({ prefix: 'orgadmin-registry-', platforms: [platform], realmName: 'registry' });
  ({ work, key, ca, release, registry, svc, providerEnv } = fixture);
}, 240_000);

afterAll(async () => {
  await fixture?.close();
});

/** A working directory and HOME with a CLI configuration holding `cliConfig`. */
async function workspace(name: string, cliConfig = ''): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = join(work, name);
  const home = join(dir, 'home');
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'terraform.rc'), cliConfig);
  return { dir, env: bareTerraformEnv(home, ca.caCertFile, providerEnv) };
}

function configuration(source: string, orgName: string): string {
  return `terraform {
  required_providers {
    orgadmin = { source = "${source}", version = "${version}" }
  }
}

provider "orgadmin" {}

resource "orgadmin_organization" "org" {
  name = "${orgName}"
}
`;
}

describe('a provider registry over HTTPS', () => {
  it('terraform init downloads and verifies the signed release; plan and apply run the executable with no Node.js on PATH', async () => {
    const { dir, env } = await workspace('registry');
    await writeFile(join(dir, 'main.tf'), configuration(`${registry.host}/orgadmin/${PROVIDER_TYPE}`, 'from-the-registry'));

    const init = await runTerraform(dir, ['init', '-no-color', '-input=false'], env);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    // Terraform checked the signature of SHA256SUMS with the key the registry named.
    expect(init.stdout).toContain(`Installed ${registry.host}/orgadmin/${PROVIDER_TYPE} v${version} (self-signed, key ID ${key.keyId})`);
    const names = releaseFileNames(version);
    expect(registry.requests).toEqual(
      expect.arrayContaining([
        '/.well-known/terraform.json',
        `/v1/providers/orgadmin/${PROVIDER_TYPE}/versions`,
        `/v1/providers/orgadmin/${PROVIDER_TYPE}/${version}/download/${platform.os}/${platform.arch}`,
        `/files/${names.zip(platform.name)}`,
        `/files/${names.shasums}`,
        `/files/${names.signature}`,
      ]),
    );
    const lock = await readFile(join(dir, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain(`"zh:${release.archives[0]!.sha256}"`);

    const apply = await runTerraform(dir, ['apply', '-auto-approve', '-no-color', '-input=false'], env);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    // The organization exists in the service: the provider's POST reached it.
    expect(svc.requests.filter((r) => r.method === 'POST' && /\/orgs$/.test(r.url.split('?')[0]!) && r.status === 201)).toHaveLength(1);

    // Nothing left to do: the executable reads back what it created.
    const plan = await runTerraform(dir, ['plan', '-detailed-exitcode', '-no-color', '-input=false'], env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
  }, 120_000);

  it('refuses a release whose SHA256SUMS no longer matches its signature', async () => {
    const names = releaseFileNames(version);
    const tampered = await startRegistry({
      ca,
      releaseDir: release.dir,
      version,
      platforms: [platform],
      key,
      tamper: (name, content) => (name === names.shasums ? Buffer.concat([content, Buffer.from(`${'0'.repeat(64)}  extra.zip\n`)]) : content),
    });
    try {
      const { dir, env } = await workspace('tampered');
      await writeFile(join(dir, 'main.tf'), configuration(`${tampered.host}/orgadmin/${PROVIDER_TYPE}`, 'never-created'));
      const init = await runTerraform(dir, ['init', '-no-color', '-input=false'], env);
      expect(init.code).toBe(1);
      expect(init.stderr.replace(/\s+/g, ' ')).toMatch(/signature/i);
    } finally {
      await tampered.close();
    }
  }, 60_000);
});

describe('a network mirror', () => {
  const mirrorConfig = (): string => `provider_installation {\n  network_mirror {\n    url = "${registry.mirrorUrl}"\n  }\n}\n`;

  it('terraform init installs the release from the mirror, checking its zh: hash, and plan runs it', async () => {
    const { dir, env } = await workspace('mirror', mirrorConfig());
    await writeFile(join(dir, 'main.tf'), configuration(`orgadmin/${PROVIDER_TYPE}`, 'from-the-mirror'));

    const init = await runTerraform(dir, ['init', '-no-color', '-input=false'], env);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`Installed orgadmin/${PROVIDER_TYPE} v${version}`);
    expect(registry.requests).toContain(`/mirror/registry.terraform.io/orgadmin/${PROVIDER_TYPE}/${version}.json`);

    const plan = await runTerraform(dir, ['plan', '-no-color', '-input=false'], env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
  }, 120_000);

  it('terraform providers lock -net-mirror succeeds and records the hash of the unpacked package', async () => {
    // No provider_installation block: `providers lock` ignores it anyway and would ask the origin registry.
    const { dir, env } = await workspace('lock');
    await writeFile(join(dir, 'main.tf'), configuration(`orgadmin/${PROVIDER_TYPE}`, 'locked'));

    const lock = await runTerraform(dir, ['providers', 'lock', `-net-mirror=${registry.mirrorUrl}`, `-platform=${platform.name}`], env);
    expect(lock.stderr).toBe('');
    expect(lock.code).toBe(0);
    const file = await readFile(join(dir, '.terraform.lock.hcl'), 'utf8');
    expect(file).toContain(`provider "registry.terraform.io/orgadmin/${PROVIDER_TYPE}"`);
    expect(file).toContain(`version     = "${version}"`);
    // A mirror is not the origin registry, so Terraform records only the h1: hash of what it unpacked
    // (Go's dirhash "Hash1": SHA-256 over "<sha256>  <file>" lines), not the mirror's zh: hash.
    const executable = release.archives[0]!.executable;
    const h1 = createHash('sha256').update(`${executable.sha256}  ${executableName(version)}\n`).digest('base64');
    expect(file).toContain(`hashes = [\n    "h1:${h1}",\n  ]`);
  }, 120_000);
});
