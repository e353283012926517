/**
 * Benchmark of convergence under injected faults (`npm run bench:faults`). Not a test: it prints
 * one table.
 *
 * For each fault rate (0 %, 10 %, 20 %, 30 %) and each seed, the configuration (30
 * organizations, 150 `orgadmin_membership`, 5 `orgadmin_organization_members` sets of 20 users) is
 * applied through the seeded fault-injecting proxy of the tests (429 with `Retry-After: 1`, 502,
 * 503, stalls past `request_timeout`, answers lost after the write) until
 * `terraform plan -detailed-exitcode` answers 0 (the plan itself runs without faults: it judges
 * what the applies left), at most 5 applies. Wall time counts the applies only. Then the
 * service's own data is compared with the configuration: orphans (organizations no state holds),
 * duplicates, lost memberships.
 *
 * Columns: applies until the plan is clean; wall time of those applies relative to the 0 % run of
 * the same seed; orphans; duplicates; lost memberships. Environment: BENCH_SEEDS (default 3),
 * BENCH_RATES (default "0,0.1,0.2,0.3,0.2@3": a rate with @N runs with max_retries N), BENCH_VERBOSE (print the errors of failed applies).
 *
 * Everything is real: the service on a free port with a SQLite file, the provider bundle installed
 * into a temporary mirror, /usr/local/bin/terraform. Run: `npm run bench:faults`.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startFaultProxy } from '../test/helpers/fault-proxy';
import { startE2E, type E2EFixture } from '../test/e2e/helpers/fixture';
import { buildScenario, checkScenario, FULL_SCENARIO, usersNeeded, type ScenarioCheck } from '../test/e2e/helpers/fault-scenario';

const SEEDS = Number(process.env.BENCH_SEEDS ?? 3);
/** Fault rates, each optionally with the provider's max_retries: `0.3@6`. */
const RATES = (process.env.BENCH_RATES ?? '0,0.1,0.2,0.3,0.2@3').split(',').map((entry) => {
  const [rate, retries] = entry.split('@');
  return { rate: Number(rate), maxRetries: retries === undefined ? undefined : Number(retries) };
});
const MAX_APPLIES = 5;

interface Row {
  /** Faults the proxy injected over the applies. */
  injected: number;
  rate: number;
  maxRetries: number | undefined;
  seed: number;
  applies: number;
  seconds: number;
  check: ScenarioCheck;
}

async function runOne(fx: E2EFixture, rate: number, maxRetries: number | undefined, seed: number): Promise<Row> {
  const proxy = await startFaultProxy({ upstream: fx.svc.baseUrl, rate, seed, stallMs: 3000 });
  try {
    const users = Object.values(fx.users).sort((a, b) => a.username.localeCompare(b.username));
    const scenario = buildScenario(FULL_SCENARIO, users, `b${Math.round(rate * 100)}r${maxRetries ?? 3}s${seed}`);
    const ws = await fx.workspace({
      ORGADMIN_BASE_URL: proxy.baseUrl,
      ORGADMIN_REQUEST_TIMEOUT: '1',
      ...(maxRetries !== undefined ? { ORGADMIN_MAX_RETRIES: String(maxRetries) } : {}),
    });
    await ws.writeConfig({ 'main.tf': scenario.config });
    await ws.init();
    let applyMs = 0;
    let applies = 0;
    for (;;) {
      if (applies >= MAX_APPLIES) break;
      applies += 1;
      const started = performance.now();
      const apply = await ws.run(['apply', '-auto-approve', '-input=false', '-parallelism=10']);
      applyMs += performance.now() - started;
      if (apply.code !== 0 && process.env.BENCH_VERBOSE) {
        const errors = apply.stderr.split('\n').filter((line) => /Error:|attempt|sent/.test(line));
        process.stderr.write(`  apply ${applies} failed:\n    ${errors.join('\n    ')}\n`);
      }
      // Convergence is judged on what the applies left, so the check itself runs without faults.
      proxy.setRate(0);
      const plan = await ws.plan();
      proxy.setRate(rate);
      if (plan.code === 0) break;
    }
    const seconds = applyMs / 1000;
    proxy.setRate(0);
    const check = await checkScenario(fx.client, scenario, ws.dir);
    // Leave the realm as it was for the next run: destroy without faults.
    await ws.run(['destroy', '-auto-approve', '-input=false', '-parallelism=10']);
    await ws.cleanup();
    const injected = Object.values(proxy.injected).reduce((sum, count) => sum + count, 0);
    return { injected, rate, maxRetries, seed, applies, seconds, check };
  } finally {
    await proxy.close();
  }
}

async function main(): Promise<void> {
  const count = Math.max(usersNeeded(FULL_SCENARIO), 25);
  const fx = await startE2E({ usernames: Array.from({ length: count }, (_, i) => `bench${String(i).padStart(2, '0')}`) });
  const rows: Row[] = [];
  try {
    for (let seed = 1; seed <= SEEDS; seed++) {
      for (const { rate, maxRetries } of RATES) {
        const row = await runOne(fx, rate, maxRetries, seed);
        rows.push(row);
        process.stderr.write(`rate ${rate} max_retries ${maxRetries ?? 'default'} seed ${seed}: ${row.applies} applies, ${row.seconds.toFixed(1)} s\n`);
      }
    }
  } finally {
    await fx.close();
  }
  const baseline = new Map(rows.filter((r) => r.rate === 0 && r.maxRetries === undefined).map((r) => [r.seed, r.seconds]));
  const lines = [
    `bench:faults — ${FULL_SCENARIO.organizations} organizations, ${FULL_SCENARIO.memberships} memberships, ${FULL_SCENARIO.memberSets} member sets of ${FULL_SCENARIO.setSize}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    '',
    '| faults | max_retries | seed | faults injected | applies until plan is clean | apply wall time vs 0 % | orphans | duplicates | lost memberships | missing orgs |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const base = baseline.get(row.seed);
    const ratio = base ? `${(row.seconds / base).toFixed(2)}× (${row.seconds.toFixed(1)} s)` : `${row.seconds.toFixed(1)} s`;
    const applies = row.applies >= MAX_APPLIES ? `${row.applies} (not clean)` : String(row.applies);
    lines.push(
      `| ${Math.round(row.rate * 100)} % | ${row.maxRetries ?? '5 (default)'} | ${row.seed} | ${row.injected} | ${applies} | ${ratio} | ${row.check.orphans} | ${row.check.duplicates} | ${row.check.lostMemberships} | ${row.check.missingOrganizations} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
