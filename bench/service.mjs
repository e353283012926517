#!/usr/bin/env node
/**
 * Benchmark of the service's hot paths, on SQLite and on PostgreSQL. Every row is a ratio against
 * its floor measured in the same run:
 *
 * | row | floor | target |
 * |---|---|---|
 * | check membership (`GET …/members/{user}`, 204) | a bare `node:http` server answering 204, in its own process | ≥ 0.7× on SQLite, ≥ 0.4× on PostgreSQL; p99 < 10 ms |
 * | the same check in a realm with a rate limit (a million a second: counted, never reached) | the same bare server | as check membership |
 * | checks while a 10,000-member organization is paged (max=1000, max=100) | idle checks of the same store | ≥ 0.5× |
 * | the deepest full page of a 10,000-member refresh alone (max=100) | the one full page of a 101-member organization | ≤ 2× (no per-page re-sort) |
 * | the deepest full page of a walk through 10,000 organizations alone (max=100) | the first page of the same walk | ≤ 2× (keyset, no skipping) |
 * | user by email (`?email=…&exact=true`) | user by username | ≥ 0.8× |
 * | creating 10,000 users with emails | 10,000 without | ≤ 2× the time |
 * | check membership with the request log on (JSON lines to a file) and /metrics scraped every second | the same check with both off (today's startServer defaults) | ≥ 0.9× |
 * | check membership with /metrics scraped every second (no request log) | the same check with metrics off | ≥ 0.95× (scraping costs the check < 5 %) |
 *
 * Every server, load generator and refresh runs in a process of its own (bench/bare-server.mjs,
 * bench/service-target.mjs, bench/load-generator.mjs, bench/member-refresh.mjs); this process only
 * orchestrates. The targets are measured in alternating order, round after round, and the table
 * shows medians over the rounds; the load average is printed before and after each round, since
 * other work on the machine moves every number.
 *
 * The check rows and the floor also show the server's CPU per answer: the time its main thread
 * (the one that runs JavaScript and answers) spent, read from /proc before and after the
 * measurement, divided by the answers. It moves less with the load of the machine than
 * throughput does, since it does not count the time the server waited for a core; it is left out
 * where /proc is missing.
 *
 * Run with `npm run bench:service` (builds first; uses dist/). PostgreSQL is a throwaway cluster
 * (test/helpers/postgres.ts, fsync off). Environment:
 *   BENCH_DURATION     seconds of measurement per target and round (default 5)
 *   BENCH_CONNECTIONS  concurrent connections of the load generator (default 50)
 *   BENCH_ROUNDS       rounds (default 3)
 *   BENCH_STORES       comma-separated stores to measure (default sqlite,postgres)
 *   BENCH_ROWS         comma-separated rows to measure (default all): check (membership check),
 *                      limited (membership check in a realm with a rate limit),
 *                      deep (deepest page alone), orgs (organization list walk), paged (checks while
 *                      paged), email (user by email), create (creating users), ops (check with
 *                      logging and metrics), scrape (check with metrics alone); with only `check`,
 *                      `limited`, `ops` and `scrape`, the services skip the large setup
 *   BENCH_BASELINE     another checkout (built, with its node_modules): each store is measured on its
 *                      dist/ too, side by side in the same rounds, as rows marked "(baseline)"
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').map((name) => name.trim());
const ROW_KINDS = ['check', 'limited', 'deep', 'orgs', 'paged', 'email', 'create', 'ops', 'scrape'];
const ROWS = new Set((process.env.BENCH_ROWS ?? ROW_KINDS.join(',')).split(',').map((name) => name.trim()));
for (const row of ROWS) if (!ROW_KINDS.includes(row)) throw new Error(`BENCH_ROWS: unknown row ${row} (${ROW_KINDS.join(', ')})`);
const BASELINE = process.env.BENCH_BASELINE;
const WARMUP_SECONDS = 1;
const TARGETS = {
  checkRatio: { sqlite: 0.7, postgres: 0.4 },
  checkP99Ms: 10,
  pagedChecksRatio: 0.5,
  deepPageRatio: 2,
  deepOrganizationPageRatio: 2,
  emailRatio: 0.8,
  createWithEmailsRatio: 2,
  operationsRatio: 0.9,
  scrapeRatio: 0.95,
};

/** Scrapes `url` once a second for `seconds` (what a Prometheus server does); resolves with the scrape count. */
function scrapeEverySecond(url, seconds) {
  return async () => {
    let scrapes = 0;
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      const answer = await fetch(url);
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
      await answer.text();
      scrapes += 1;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    return scrapes;
  };
}

/**
 * Starts `node script` with `input` on stdin (and `env` added) and resolves with the first JSON
 * line it prints. With `keepAlive` the child keeps running (until {@link stop}) and stdin stays
 * open; otherwise stdin is closed after the input and the child is expected to exit.
 */
function startChild(script, { input, env, keepAlive = false } = {}) {
  const child = spawn(process.execPath, [join(here, script)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  if (input !== undefined) child.stdin.write(JSON.stringify(input));
  if (!keepAlive) child.stdin.end();
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const firstLine = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(out.slice(0, end)));
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code} before answering`)));
  });
  return {
    pid: child.pid,
    answer: firstLine,
    /** Closes the child's stdin (its signal to stop) and waits for it to exit. */
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ), or undefined where there is no /proc. */
const CLOCK_TICKS = (() => {
  try {
    readFileSync('/proc/self/stat');
  } catch {
    return undefined;
  }
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time (user + system, µs) the main thread of process `pid` has used, or undefined without
 * /proc. The main thread's task id is the process id; field 14 and 15 of its stat line are its
 * user and system times in clock ticks (proc(5)); the name before them may hold spaces, hence the
 * split after its closing parenthesis.
 */
function mainThreadCpuMicros(pid) {
  if (CLOCK_TICKS === undefined || pid === undefined) return undefined;
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

/** Runs autocannon in its own process against `url` for `seconds`; returns its result. */
function load(url, headers, seconds) {
  return startChild('load-generator.mjs', { input: { url, headers, connections: CONNECTIONS, duration: seconds, pipelining: 1 } }).answer;
}

/**
 * Warms the target up, then measures it (while `during()`, if given, runs alongside); with the
 * server's process id, also its main thread's CPU per answer (µs).
 */
async function measure(name, url, headers, during, serverPid) {
  await load(url, headers, WARMUP_SECONDS);
  const cpuBefore = mainThreadCpuMicros(serverPid);
  const [result, alongside] = await Promise.all([load(url, headers, DURATION), during?.()]);
  const cpuAfter = mainThreadCpuMicros(serverPid);
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  const cpuPerAnswer = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.requests.total;
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, cpuPerAnswer, alongside };
}

/**
 * Pages a list of the service (default the large organization's members) by `max` for the
 * measurement's duration, in its own process.
 */
function refresh(service, max, listPath = service.membersPath, authorization = service.authorization) {
  return () =>
    startChild('member-refresh.mjs', {
      input: { url: service.url, authorization, listPath, max, seconds: DURATION },
    }).answer;
}

const load3 = () => loadavg().map((v) => v.toFixed(2)).join(' ');

/** Starts a throwaway PostgreSQL cluster through the tests' helper (TypeScript, loaded through SWC). */
async function startPostgres() {
  require(join(here, '..', 'examples', 'register.js'));
  const { startPostgres: start } = require(join(here, '..', 'test', 'helpers', 'postgres.ts'));
  return start();
}

async function runBenchmark() {
  const dir = mkdtempSync(join(tmpdir(), 'orgadmin-bench-'));
  const children = [];
  let postgres;
  try {
    const bareChild = startChild('bare-server.mjs', { keepAlive: true });
    children.push(bareChild);
    const bare = { pid: bareChild.pid, ...(await bareChild.answer) };

    // Each store once for this checkout and, with BENCH_BASELINE, once for the baseline's build,
    // each on its own database.
    const builds = [{ suffix: '', dist: join(here, '..', 'dist') }];
    if (BASELINE) builds.push({ suffix: ' (baseline)', dist: join(BASELINE, 'dist') });
    const largeSetup = [...ROWS].some((row) => !['check', 'limited', 'ops', 'scrape'].includes(row));
    const services = [];
    for (const store of STORES) {
      for (const [index, build] of builds.entries()) {
        let location;
        if (store === 'sqlite') location = join(dir, `bench-${index}.db`);
        else if (store === 'postgres') location = await (postgres ??= await startPostgres()).createSchema();
        else throw new Error(`BENCH_STORES: unknown store ${store} (sqlite, postgres)`);
        const child = startChild('service-target.mjs', {
          keepAlive: true,
          env: { ORGADMIN_BENCH_STORE: location, ORGADMIN_BENCH_DIST: build.dist, ORGADMIN_BENCH_LARGE_SETUP: largeSetup ? '1' : '0' },
        });
        children.push(child);
        const service = { store, label: `${store}${build.suffix}`, pid: child.pid, ...(await child.answer) };
        services.push(service);
        // The same build with the request log and metrics on (ops row), and with metrics alone
        // (scrape row), each on a database of its own.
        for (const [row, mode, key] of [['ops', '1', 'operations'], ['scrape', 'metrics', 'scraped']]) {
          if (!ROWS.has(row)) continue;
          const rowLocation = store === 'sqlite' ? join(dir, `bench-${row}-${index}.db`) : await postgres.createSchema();
          const rowChild = startChild('service-target.mjs', {
            keepAlive: true,
            env: { ORGADMIN_BENCH_STORE: rowLocation, ORGADMIN_BENCH_DIST: build.dist, ORGADMIN_BENCH_LARGE_SETUP: '0', ORGADMIN_BENCH_OPS: mode, ORGADMIN_BENCH_LOG: join(dir, `requests-${store}-${index}.log`) },
          });
          children.push(rowChild);
          service[key] = { pid: rowChild.pid, ...(await rowChild.answer) };
        }
      }
    }

    console.log(
      `${CONNECTIONS} connections, ${DURATION} s per target after ${WARMUP_SECONDS} s warm-up, ${ROUNDS} rounds in alternating ` +
        `order, medians shown; servers, autocannon and refreshes each in their own process; ${availableParallelism()} CPUs shared by all\n`,
    );

    /** row name -> per-round { value, ratio } */
    const samples = new Map();
    const record = (row, sample) => (samples.get(row) ?? samples.set(row, []).get(row)).push(sample);
    for (let round = 1; round <= ROUNDS; round += 1) {
      console.log(`round ${round}: load average ${load3()} (1, 5, 15 min) before`);
      const floor = await measure('bare', `${bare.url}${services[0].memberPath}`, {}, undefined, bare.pid);
      // Alternate the order of the services too, so that neither side always follows the same thing.
      const ordered = round % 2 === 0 ? [...services].reverse() : services;
      for (const service of ordered) {
        const { store, label } = service;
        const headers = { authorization: service.authorization };
        const checkUrl = `${service.url}${service.memberPath}`;
        const idle = await measure(`${label} check`, checkUrl, headers, undefined, service.pid);
        if (ROWS.has('check')) {
          record(`${label}: check membership (floor: bare node:http)`, {
            value: idle.requestsPerSecond, p99: idle.p99, ratio: idle.requestsPerSecond / floor.requestsPerSecond, target: `>= ${TARGETS.checkRatio[store]}, p99 < ${TARGETS.checkP99Ms} ms`,
            cpu: idle.cpuPerAnswer, cpuRatio: idle.cpuPerAnswer / floor.cpuPerAnswer,
            ok: idle.requestsPerSecond / floor.requestsPerSecond >= TARGETS.checkRatio[store] && idle.p99 < TARGETS.checkP99Ms,
          });
        }
        // The same check with the request log on (to a file) and /metrics scraped every second.
        if (ROWS.has('ops')) {
          const ops = service.operations;
          const logged = await measure(`${label} ops`, `${ops.url}${ops.memberPath}`, { authorization: ops.authorization }, scrapeEverySecond(`${ops.url}/metrics`, DURATION), ops.pid);
          const ratio = logged.requestsPerSecond / idle.requestsPerSecond;
          record(`${label}: check membership, request log to a file + metrics scraped every second (floor: both off)`, {
            value: logged.requestsPerSecond, p99: logged.p99, ratio, target: `>= ${TARGETS.operationsRatio}`, ok: ratio >= TARGETS.operationsRatio,
            cpu: logged.cpuPerAnswer, cpuRatio: logged.cpuPerAnswer / idle.cpuPerAnswer, note: `${logged.alongside} scrapes`,
          });
        }
        // Metrics alone: what collecting them and a scrape every second cost the check.
        if (ROWS.has('scrape')) {
          const scraped = service.scraped;
          const metered = await measure(`${label} scrape`, `${scraped.url}${scraped.memberPath}`, { authorization: scraped.authorization }, scrapeEverySecond(`${scraped.url}/metrics`, DURATION), scraped.pid);
          const ratio = metered.requestsPerSecond / idle.requestsPerSecond;
          record(`${label}: check membership, metrics scraped every second (floor: metrics off)`, {
            value: metered.requestsPerSecond, p99: metered.p99, ratio, target: `>= ${TARGETS.scrapeRatio}`, ok: ratio >= TARGETS.scrapeRatio,
            cpu: metered.cpuPerAnswer, cpuRatio: metered.cpuPerAnswer / idle.cpuPerAnswer, note: `${metered.alongside} scrapes`,
          });
        }
        // The same check in a realm with a rate limit (one no check reaches): counting each check
        // is the only difference.
        if (ROWS.has('limited')) {
          const limited = await measure(`${label} limited`, `${service.url}${service.meteredMemberPath}`, { authorization: service.meteredAuthorization }, undefined, service.pid);
          record(`${label}: check membership, realm with a rate limit (floor: bare node:http)`, {
            value: limited.requestsPerSecond, p99: limited.p99, ratio: limited.requestsPerSecond / floor.requestsPerSecond, target: `>= ${TARGETS.checkRatio[store]}, p99 < ${TARGETS.checkP99Ms} ms`,
            cpu: limited.cpuPerAnswer, cpuRatio: limited.cpuPerAnswer / floor.cpuPerAnswer,
            ok: limited.requestsPerSecond / floor.requestsPerSecond >= TARGETS.checkRatio[store] && limited.p99 < TARGETS.checkP99Ms,
          });
        }
        // Refreshes alone (nothing else loads the service): a page deep in the large organization
        // against the one full page of a 101-member organization.
        if (ROWS.has('deep')) {
          const small = await refresh(service, 100, service.smallMembersPath)();
          const alone = await refresh(service, 100)();
          const deep = alone.lastFullPageMs / small.firstPageMs;
          record(`${label}: deepest full page of a 10k refresh alone, max=100 (floor: page of a 101-member org)`, {
            value: alone.lastFullPageMs, unit: 'ms', ratio: deep, target: `<= ${TARGETS.deepPageRatio}`, ok: deep <= TARGETS.deepPageRatio,
            note: `floor ${small.firstPageMs.toFixed(2)} ms; 10k refresh ${alone.refreshMs.toFixed(0)} ms`,
          });
        }
        // A walk through a realm's 10,000 organizations alone: its deepest full page against its first.
        if (ROWS.has('orgs')) {
          const walk = await refresh(service, 100, service.organizationsPath, service.organizationsAuthorization)();
          const deep = walk.lastFullPageMs / walk.firstPageMs;
          record(`${label}: deepest full page of a walk through 10k organizations alone, max=100 (floor: its first page)`, {
            value: walk.lastFullPageMs, unit: 'ms', ratio: deep, target: `<= ${TARGETS.deepOrganizationPageRatio}`, ok: deep <= TARGETS.deepOrganizationPageRatio,
            note: `floor ${walk.firstPageMs.toFixed(2)} ms; walk ${walk.refreshMs.toFixed(0)} ms`,
          });
        }
        for (const max of ROWS.has('paged') ? [1000, 100] : []) {
          const paged = await measure(`${label} paged ${max}`, checkUrl, headers, refresh(service, max));
          const ratio = paged.requestsPerSecond / idle.requestsPerSecond;
          record(`${label}: checks while 10k org paged, max=${max} (floor: idle checks)`, {
            value: paged.requestsPerSecond, p99: paged.p99, ratio, target: `>= ${TARGETS.pagedChecksRatio}`, ok: ratio >= TARGETS.pagedChecksRatio,
            note: `refresh ${paged.alongside.refreshMs.toFixed(0)} ms`,
          });
        }
        // Alternate which of the pair goes first, so that neither always follows the same thing.
        const lookups = [
          ['username', `${service.url}${service.usernamePath}`],
          ['email', `${service.url}${service.emailPath}`],
        ];
        if (round % 2 === 0) lookups.reverse();
        if (ROWS.has('email')) {
          const lookup = {};
          for (const [kind, url] of lookups) lookup[kind] = await measure(`${label} ${kind}`, url, headers);
          const { username: byUsername, email: byEmail } = lookup;
          const emailRatio = byEmail.requestsPerSecond / byUsername.requestsPerSecond;
          record(`${label}: user by email, exact (floor: by username)`, {
            value: byEmail.requestsPerSecond, p99: byEmail.p99, ratio: emailRatio, target: `>= ${TARGETS.emailRatio}`, ok: emailRatio >= TARGETS.emailRatio,
            note: `username ${byUsername.requestsPerSecond.toFixed(0)} req/s`,
          });
        }
      }
      record('bare node:http, own process (the floor)', { value: floor.requestsPerSecond, p99: floor.p99, cpu: floor.cpuPerAnswer });
      console.log(`round ${round}: load average ${load3()} after`);
    }
    for (const service of ROWS.has('create') ? services : []) {
      const { createUsersWithEmailsSeconds: withEmails, createUsersWithoutEmailsSeconds: without } = service;
      const ratio = withEmails / without;
      record(`${service.label}: create 10,000 users with emails (floor: without), once`, {
        value: withEmails, unit: 's', ratio, target: `<= ${TARGETS.createWithEmailsRatio}`, ok: ratio <= TARGETS.createWithEmailsRatio,
        note: `without ${without.toFixed(2)} s`,
      });
    }

    const table = [['row', 'value', 'p99', 'ratio', 'target', 'met', 'server CPU/answer', 'note']];
    let allMet = true;
    for (const [row, list] of samples) {
      const value = median(list.map((s) => s.value));
      const unit = list[0].unit ?? 'req/s';
      const ratio = median(list.map((s) => s.ratio));
      const p99 = median(list.map((s) => s.p99));
      // A row is met when its medians meet the target (ratio and, for checks, p99).
      const met = list[0].target === undefined ? '' : list.filter((s) => s.ok).length * 2 > list.length ? 'yes' : 'NO';
      if (met === 'NO') allMet = false;
      const notes = list.map((s) => s.note).filter(Boolean);
      const cpu = median(list.map((s) => s.cpu ?? Number.NaN));
      const cpuRatio = median(list.map((s) => s.cpuRatio ?? Number.NaN));
      table.push([
        row,
        unit === 'req/s' ? `${value.toFixed(0)} req/s` : `${value.toFixed(2)} ${unit}`,
        Number.isFinite(p99) ? `${p99.toFixed(1)} ms` : '',
        Number.isFinite(ratio) ? ratio.toFixed(2) : '',
        list[0].target ?? '',
        met,
        Number.isFinite(cpu) ? `${cpu.toFixed(1)} µs${Number.isFinite(cpuRatio) ? ` (${cpuRatio.toFixed(2)}x floor)` : ''}` : '',
        notes.length > 0 ? notes[Math.floor(notes.length / 2)] : '',
      ]);
    }
    console.log('');
    const widths = table[0].map((_, column) => Math.max(...table.map((r) => r[column].length)));
    for (const r of table) console.log(`| ${r.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`);
    console.log(`\nload average at the end: ${load3()}; "met" = the target held in most rounds`);
    process.exitCode = allMet ? 0 : 1;
  } finally {
    for (const child of children.reverse()) await child.stop().catch(() => undefined);
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await runBenchmark();
