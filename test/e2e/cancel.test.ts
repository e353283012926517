/**
 * Ctrl-C during an apply: Terraform calls the provider's StopProvider, which aborts the requests in
 * flight at once instead of waiting for `request_timeout`; what was done is recorded, and the next
 * apply converges with no orphan and no import (an organization whose create reached the service
 * after the interrupt is adopted).
 */
import { spawn } from 'node:child_process';
import type { Member } from '../../src/api';
import { startFaultProxy } from '../helpers/fault-proxy';
import { buildScenario, checkScenario } from './helpers/fault-scenario';
import { startE2E, type E2EFixture } from './helpers/fixture';
import { TERRAFORM_BIN } from './helpers/terraform';

jest.setTimeout(180_000);

let fx: E2EFixture;

beforeAll(async () => {
  fx = await startE2E({ usernames: ['cancel-a', 'cancel-b', 'cancel-c'] });
});

afterAll(async () => {
  await fx?.close();
});

it('aborts in-flight requests promptly on Ctrl-C, and the next apply converges with 0 orphans', async () => {
  // Every create waits in the proxy until the test lets it through, after the interrupt: without
  // cancellation an interrupted apply would wait for each one until request_timeout (60 s).
  const proxy = await startFaultProxy({
    upstream: fx.svc.baseUrl,
    rate: 0,
    seed: 7,
    held: (method, path) => method === 'POST' && path.endsWith('/orgs'),
  });
  try {
    const users = Object.values(fx.users).sort((a: Member, b: Member) => a.username.localeCompare(b.username));
    const scenario = buildScenario({ organizations: 6, memberships: 6, memberSets: 0, setSize: 0 }, users, 'cancel');
    const ws = await fx.workspace({ ORGADMIN_BASE_URL: proxy.baseUrl, ORGADMIN_REQUEST_TIMEOUT: '60' });
    await ws.writeConfig({ 'main.tf': scenario.config });
    await ws.init();

    const child = spawn(TERRAFORM_BIN, ['apply', '-no-color', '-auto-approve', '-input=false'], { cwd: ws.dir, env: ws.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let creating!: () => void;
    const createsStarted = new Promise<void>((resolve) => (creating = resolve));
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Creating...')) creating();
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until the creates are in flight (the token request went through, the creates wait in the proxy).
    const exitedEarly = exited.then((code) => Promise.reject(new Error(`terraform exited (${code}) before every create was in flight:\n${output}`)));
    await Promise.race([createsStarted, exitedEarly]);
    await Promise.race([proxy.whenHeld(scenario.names.length), exitedEarly]);
    const interruptedAt = Date.now();
    // Ctrl-C in a terminal signals the whole process group: terraform and the provider.
    process.kill(-child.pid!, 'SIGINT');
    const code = await exited;
    const stoppedAfterMs = Date.now() - interruptedAt;
    expect(code).not.toBe(0);
    // Far sooner than the 60 s each in-flight request would wait without cancellation.
    expect(stoppedAfterMs).toBeLessThan(10_000);

    // Once the held creates have reached the service (after the interrupt), re-apply directly.
    proxy.release();
    await proxy.idle();
    // Every create reached the service after the interrupt: the next apply must adopt them, not repeat them.
    await expect(fx.client.listAllOrganizations({ search: 'cancel-org-' })).resolves.toHaveLength(scenario.names.length);
    await ws.run(['apply', '-auto-approve', '-input=false'], { ORGADMIN_BASE_URL: fx.svc.baseUrl });
    const plan = await ws.run(['plan', '-detailed-exitcode', '-input=false'], { ORGADMIN_BASE_URL: fx.svc.baseUrl });
    expect({ code: plan.code, out: plan.code === 0 ? '' : plan.stdout + plan.stderr }).toEqual({ code: 0, out: '' });
    await expect(checkScenario(fx.client, scenario, ws.dir)).resolves.toEqual({ orphans: 0, duplicates: 0, lostMemberships: 0, missingOrganizations: 0 });
  } finally {
    await proxy.close();
  }
});
