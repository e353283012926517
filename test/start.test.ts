/**
 * `orgadmin start` (what `npm start` runs), in a temporary working directory: the first run
 * applies examples/basic against the embedded service, the second finds everything in place.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStart } from '../src/cli/commands/start';
import type { CliIO } from '../src/cli/io';
import { ensureProviderBundle } from './e2e/helpers/bundle';

jest.setTimeout(180_000);

/** A CLI IO that records what the command prints. */
function recordingIO(cwd: string, env: NodeJS.ProcessEnv = process.env): CliIO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    env,
    cwd,
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
  };
  return io;
}

let cwd: string;

beforeAll(async () => {
  ensureProviderBundle();
  cwd = await mkdtemp(join(tmpdir(), 'orgadmin-start-'));
});

afterAll(async () => {
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

describe('orgadmin start', () => {
  it('applies examples/basic on the first run and nothing on the second, keeping its state under .orgadmin', async () => {
    const first = recordingIO(cwd);
    expect(await runStart([], first)).toBe(0);
    expect(first.err).toBe('');
    expect(first.out).toMatch(/\[1\/8\] Checking Terraform \.\.\. terraform \d+\.\d+\.\d+/);
    expect(first.out).toMatch(/\[7\/8\] terraform apply \.\.\. [1-9]\d* added, 0 changed, 0 destroyed/);
    expect(first.out).toContain('[8/8] terraform plan (must report no changes) ... no changes');
    expect(first.out).toMatch(/acme\s+members: alice, bob/);
    expect(first.out).toMatch(/globex\s+members: bob, carol/);
    expect(first.out).toContain('Terraform state: .orgadmin/terraform.tfstate');
    expect(first.out).toContain('Delete .orgadmin/ to start over.');
    expect(existsSync(join(cwd, '.orgadmin', 'terraform.tfstate'))).toBe(true);
    expect(existsSync(join(cwd, '.orgadmin', 'orgadmin.db'))).toBe(true);
    expect(existsSync(join(cwd, '.orgadmin', 'plugins'))).toBe(true);

    const second = recordingIO(cwd);
    expect(await runStart([], second)).toBe(0);
    expect(second.out).toContain('[7/8] terraform apply ... 0 added, 0 changed, 0 destroyed');
    expect(second.out).toContain('Everything was already in place: the apply changed nothing.');
    expect(second.out).toMatch(/acme\s+members: alice, bob/);

    // The demo key's secret and the administrator's password are kept in a file, never printed.
    const saved = JSON.parse(await readFile(join(cwd, '.orgadmin', 'demo-credentials.json'), 'utf8')) as {
      clientSecret: string;
      adminUsername: string;
      adminPassword: string;
    };
    expect(first.out + second.out).not.toContain(saved.clientSecret);
    expect(first.out + second.out).not.toContain(saved.adminPassword);
    expect(saved.adminUsername).toBe('admin');
    // How to open the dashboard, on both runs; the second run keeps the same password.
    for (const run of [first, second]) {
      expect(run.out).toContain('  npx orgadmin serve --data .orgadmin/orgadmin.db --port 8080\n  then open http://127.0.0.1:8080/realms/demo/dashboard\n');
      expect(run.out).toContain('  and sign in as "admin" with the "adminPassword" of .orgadmin/demo-credentials.json');
    }
    expect(first.out).toMatch(/users alice, bob, carol, administrator admin/);
  });

  it('re-locks a rebuilt provider instead of failing terraform init on the old checksums', async () => {
    // Runs after the test above, on its .orgadmin: make the installed provider and the lock file
    // look like an earlier build's, as after editing the provider and running npm start again.
    const orgadmin = join(cwd, '.orgadmin');
    const lockFile = join(orgadmin, 'cdktf.out', 'stacks', 'basic', '.terraform.lock.hcl');
    const lock = await readFile(lockFile, 'utf8');
    expect(lock).toMatch(/"h1:[^"]+"/);
    await writeFile(lockFile, lock.replace(/"h1:[^"]+"/g, '"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="'));
    const packageDir = (await readdir(join(orgadmin, 'plugins'), { recursive: true })).find((entry) => entry.endsWith('linux_amd64') || /_(amd64|arm64)$/.test(entry));
    expect(packageDir).toBeDefined();
    const executable = (await readdir(join(orgadmin, 'plugins', packageDir!))).find((name) => name.startsWith('terraform-provider-orgadmin_v'));
    await appendFile(join(orgadmin, 'plugins', packageDir!, executable!), '\n// an earlier build\n');

    const io = recordingIO(cwd);
    expect(await runStart([], io)).toBe(0);
    expect(io.out).toContain('(replaced)');
    expect(io.out).toContain('[7/8] terraform apply ... 0 added, 0 changed, 0 destroyed');
    expect(await readFile(lockFile, 'utf8')).not.toContain('h1:AAAAAAAA');
  });

  it('names the failing step and the reason when Terraform is missing', async () => {
    const io = recordingIO(cwd, { ...process.env, TERRAFORM: join(cwd, 'no-such-terraform') });
    await expect(runStart([], io)).rejects.toThrow(
      `step 1/8 (Checking Terraform) failed: "${join(cwd, 'no-such-terraform')}" was not found on PATH; install Terraform 1.11`,
    );
  });
});
