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
  // Every create takes 15 s to reach the service: without cancellation an interrupted apply
  // would wait for each one (request_timeout is 60 s).
  const proxy = await startFaultProxy({
    upstream: fx.svc.baseUrl,
    rate: 0,
    seed: 7,
    latencyMs: 15_000,
    delayed: (method, path) => method === 'POST' && path.endsWith('/orgs'),
  });
  try {
    const users = Object.values(fx.users).sort((a: Member, b: Member) => a.username.localeCompare(b.username));
    const scenario = buildScenario({ organizations: 6, memberships: 6, memberSets: 0, setSize: 0 }, users, 'cancel');
    const ws = await fx.workspace({ ORGADMIN_BASE_URL: proxy.baseUrl, ORGADMIN_REQUEST_TIMEOUT: '60' });
    await ws.writeConfig({ 'main.tf': scenario.config });
    await ws.init();

    const child = spawn(TERRAFORM_BIN, ['apply', '-no-color', '-auto-approve', '-input=false'], { cwd: ws.dir, env: ws.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until the creates are in flight (the token request went through, the creates wait in the proxy).
    while (!output.includes('Creating...')) await new Promise((resolve) => setTimeout(resolve, 50));
    const interruptedAt = Date.now();
    // Ctrl-C in a terminal signals the whole process group: terraform and the provider.
    process.kill(-child.pid!, 'SIGINT');
    const code = await exited;
    const stoppedAfterMs = Date.now() - interruptedAt;
    expect(code).not.toBe(0);
    // Far sooner than the 15 s each in-flight request would still take.
    expect(stoppedAfterMs).toBeLessThan(10_000);

    // Once the delayed creates have reached the service (after the interrupt), re-apply directly.
    await proxy.idle();
    await ws.run(['apply', '-auto-approve', '-input=false'], { ORGADMIN_BASE_URL: fx.svc.baseUrl });
    const plan = await ws.run(['plan', '-detailed-exitcode', '-input=false'], { ORGADMIN_BASE_URL: fx.svc.baseUrl });
    expect({ code: plan.code, out: plan.code === 0 ? '' : plan.stdout + plan.stderr }).toEqual({ code: 0, out: '' });
    await expect(checkScenario(fx.client, scenario, ws.dir)).resolves.toEqual({ orphans: 0, duplicates: 0, lostMemberships: 0, missingOrganizations: 0 });
  } finally {
    await proxy.close();
  }
});
