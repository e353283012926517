#!/usr/bin/env node
/**
 * Benchmark of the installed Terraform provider (`npm run bench:provider`, which builds first).
 * Prints one table from one run, the provider installed two ways side by side: the launcher
 * (a `#!/usr/bin/env -S node` script next to the bundle and its V8 code cache) and the
 * self-contained executable (a Node.js single executable application, built by `npm run build`):
 *
 *   (a) start-up: each one's start-to-handshake time (executed as Terraform executes it), median of
 *       20, next to `node -e ''` and the executable built without its code cache (the
 *       reproducible variant), all measured by bench/provider-startup.mjs in one interleaved run;
 *   (b) `terraform plan` wall time with 50 organizations and 500 memberships applied, with each
 *       installation, next to the same number (550) of `terraform_data` resources (Terraform's own
 *       cost per resource); target: at most 2x;
 *   (c) requests the provider sends per refresh, per resource, from the service's request log.
 *
 * Everything is real: the service from dist/ on a free port with a SQLite file in a temporary
 * directory, the provider installed by dist/provider/install.js into temporary mirrors, and
 * /usr/local/bin/terraform. Environment: BENCH_PLANS (plans per configuration, default 5).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TERRAFORM = process.env.TERRAFORM_BIN ?? '/usr/local/bin/terraform';
const ORGS = 50;
const USERS_PER_ORG = 10;
const PLANS = Number(process.env.BENCH_PLANS ?? 5);

function fromDist(path) {
  const full = join(ROOT, 'dist', path);
  if (!existsSync(full)) throw new Error(`${full} is missing: run "npm run bench:provider" (it builds first)`);
  return require(full);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** An environment free of the machine's TF_* / ORGADMIN_* settings. */
function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TF_') && !k.startsWith('ORGADMIN_')) env[k] = v;
  return { ...env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', ...extra };
}

/** Runs terraform; resolves with the wall time in ms; rejects with its output on failure. */
async function terraform(cwd, args, env, okCodes = [0]) {
  const { runProcess } = fromDist('cli/process-runner.js');
  const result = await runProcess(TERRAFORM, args, { cwd, env });
  if (okCodes.includes(result.code)) return result.elapsedMs;
  throw new Error(`terraform ${args.join(' ')} exited ${result.code}:\n${(result.stdout + result.stderr).slice(-4000)}`);
}

/**
 * (a) Start-up to handshake of each of `targets` (label → executable), as measured by
 * bench/provider-startup.mjs in one interleaved run: executed directly, as Terraform starts them,
 * so the launcher's `#!/usr/bin/env -S node ...` line is part of what is measured. Its text table is
 * parsed into medians by label, `node` for `node -e ''`.
 */
async function startupRows(targets) {
  const script = join(ROOT, 'bench', 'provider-startup.mjs');
  if (!existsSync(script)) return { note: 'bench/provider-startup.mjs not found: start-up not measured' };
  const args = Object.entries(targets).map(([label, path]) => `${label}=${path}`);
  const { runProcess } = fromDist('cli/process-runner.js');
  const run = await runProcess(process.execPath, [script, ...args, '--runs', '20'], { cwd: ROOT, timeoutMs: 600_000 });
  if (run.code !== 0) return { note: `bench/provider-startup.mjs failed: ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' ')}` };
  const medianOf = (label) => {
    const line = run.stdout.split('\n').find((l) => l.startsWith(`${label}  `));
    const value = line === undefined ? NaN : Number(line.slice(label.length).trim().split(/\s+/)[0]);
    if (!Number.isFinite(value)) throw new Error(`cannot read "${label}" from bench/provider-startup.mjs output:\n${run.stdout}`);
    return value;
  };
  const medians = { node: medianOf("node -e ''") };
  for (const label of Object.keys(targets)) medians[label] = medianOf(label);
  return medians;
}

/** The two configurations of (b): same shape, orgadmin resources or terraform_data. */
function planConfig(kind) {
  const pairs = `{ for pair in setproduct(range(${ORGS}), var.user_ids) : "\${pair[0]}/\${pair[1]}" => pair }`;
  if (kind === 'orgadmin') {
    return `terraform {
  required_providers {
    orgadmin = { source = "orgadmin/orgadmin" }
  }
}

provider "orgadmin" {}

variable "user_ids" {
  type = list(string)
}

resource "orgadmin_organization" "org" {
  count = ${ORGS}
  name  = "bench-org-\${count.index}"
}

resource "orgadmin_membership" "member" {
  for_each        = ${pairs}
  organization_id = orgadmin_organization.org[each.value[0]].id
  user_id         = each.value[1]
}
`;
  }
  return `variable "user_ids" {
  type = list(string)
}

resource "terraform_data" "org" {
  count = ${ORGS}
  input = "bench-org-\${count.index}"
}

resource "terraform_data" "member" {
  for_each = ${pairs}
  input    = { organization_id = terraform_data.org[each.value[0]].id, user_id = each.value[1] }
}
`;
}

async function main() {
  const { installProvider, mirrorCliConfig } = fromDist('provider/install.js');
  const { buildApp } = fromDist('service/app.js');
  const { SqliteStore } = fromDist('service/store/sqlite-store.js');
  const { Admin } = fromDist('service/admin.js');
  const { PERMISSIONS } = fromDist('api/index.js');

  const loadAtStart = loadavg()[0];
  const work = await mkdtemp(join(tmpdir(), 'orgadmin-bench-provider-'));
  const store = SqliteStore.open(join(work, 'service.db'));
  const app = await buildApp({ store, logger: false });
  const requests = [];
  app.addHook('onResponse', async (request, reply) => {
    requests.push({ method: request.method, url: request.url.split('?')[0], status: reply.statusCode });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${app.server.address().port}`;

  try {
    // The launcher (the bundle given explicitly) and the self-contained executable (installed when
    // `npm run build` built one for this platform), each in its own mirror.
    const mirrors = {};
    for (const form of ['launcher', 'executable']) {
      const dir = join(work, `mirror-${form}`);
      const installed = await installProvider(form === 'launcher' ? { dir, bundlePath: join(ROOT, 'dist', 'provider', 'terraform-provider-orgadmin.js') } : { dir });
      if (form === 'executable' && !installed.selfContained) {
        throw new Error('no self-contained executable was built for this platform: run "npm run build" (scripts/build-sea.mjs) first');
      }
      const cliConfig = join(work, `terraform-${form}.rc`);
      await writeFile(cliConfig, mirrorCliConfig(dir));
      mirrors[form] = { path: installed.path, cliConfig };
    }
    // The reproducible variant, built without a code cache, for (a) only.
    process.stderr.write('building the executable without a code cache...\n');
    const { buildExecutable } = fromDist('provider/distribution/executable.js');
    const { hostExecutablePlatform } = fromDist('provider/distribution/platforms.js');
    const { providerVersion } = fromDist('provider/distribution/package-info.js');
    const noCache = await buildExecutable({
      platform: hostExecutablePlatform(),
      bundle: await readFile(join(ROOT, 'dist', 'provider', 'terraform-provider-orgadmin.js')),
      version: providerVersion(),
      outDir: join(work, 'executables-no-cache'),
      codeCache: false,
    });

    // (a)
    process.stderr.write('measuring provider start-up...\n');
    const startup = await startupRows({ launcher: mirrors.launcher.path, executable: mirrors.executable.path, 'executable-no-code-cache': noCache.path });
    const sizes = { launcher: 0, executable: (await stat(mirrors.executable.path)).size };
    for (const name of ['terraform-provider-orgadmin_v' + providerVersion(), 'orgadmin-provider-bundle.js']) {
      sizes.launcher += (await stat(join(dirname(mirrors.launcher.path), name))).size;
    }

    // (b) set-up: realm, key, users, then apply the configurations once.
    const admin = new Admin(store);
    await admin.createRealm('bench', {});
    const key = await admin.createApiKey('bench', { name: 'bench', permissions: [...PERMISSIONS] });
    const userIds = [];
    for (let i = 0; i < USERS_PER_ORG; i++) userIds.push((await admin.createUser('bench', { username: `bench-user-${i}` })).id);
    const tfvars = JSON.stringify({ user_ids: userIds });

    const envFor = (form) =>
      cleanEnv({
        TF_CLI_CONFIG_FILE: mirrors[form].cliConfig,
        ORGADMIN_BASE_URL: baseUrl,
        ORGADMIN_REALM: 'bench',
        ORGADMIN_CLIENT_ID: key.clientId,
        ORGADMIN_CLIENT_SECRET: key.clientSecret,
      });
    // kind → [configuration, installation]
    const kinds = { launcher: ['orgadmin', 'launcher'], executable: ['orgadmin', 'executable'], terraform_data: ['terraform_data', 'launcher'] };
    const timings = {};
    for (const [kind, [config, form]] of Object.entries(kinds)) {
      const dir = join(work, kind);
      await mkdir(dir);
      await writeFile(join(dir, 'main.tf'), planConfig(config));
      await writeFile(join(dir, 'terraform.tfvars.json'), tfvars);
      await terraform(dir, ['init', '-input=false', '-no-color'], envFor(form));
      if (kind === 'executable') {
        // The same organizations and memberships, planned through the other installation: its
        // own lock file (another package hash), the launcher run's state.
        await copyFile(join(work, 'launcher', 'terraform.tfstate'), join(dir, 'terraform.tfstate'));
        timings[kind] = { plans: [] };
        continue;
      }
      process.stderr.write(`applying ${ORGS + ORGS * USERS_PER_ORG} ${config} resources...\n`);
      timings[kind] = { applyMs: await terraform(dir, ['apply', '-auto-approve', '-input=false', '-no-color'], envFor(form)), plans: [] };
    }
    // The plans alternate between the configurations, so that the load other processes put on
    // the shared machine falls on all alike; the medians are compared.
    process.stderr.write(`planning each configuration ${PLANS} times, alternating...\n`);
    // The first refresh after the apply also clears each new organization's creation marker (one
    // PUT per organization, once in its life: see src/provider/resources/organization-creation.ts);
    // the steady state is measured on the last refresh.
    let firstRefreshRequests;
    let refreshRequests;
    for (let i = 0; i < PLANS; i++) {
      for (const [kind, [, form]] of Object.entries(kinds)) {
        const since = requests.length;
        // -detailed-exitcode: 0 is "no changes", which is what a refresh of applied resources must find.
        timings[kind].plans.push(await terraform(join(work, kind), ['plan', '-detailed-exitcode', '-input=false', '-no-color'], envFor(form)));
        if (kind === 'launcher' && i === 0) firstRefreshRequests = requests.slice(since);
        if (kind === 'launcher') refreshRequests = requests.slice(since);
      }
    }
    for (const kind of Object.keys(kinds)) timings[kind].planMs = median(timings[kind].plans);

    // (c) classify the requests of one refresh.
    const isToken = (r) => r.method === 'POST' && r.url.endsWith('/protocol/openid-connect/token');
    const isOrgGet = (r) => r.method === 'GET' && /^\/realms\/[^/]+\/orgs\/[^/]+$/.test(r.url);
    const isCheck = (r) => r.method === 'GET' && /^\/realms\/[^/]+\/orgs\/[^/]+\/members\/[^/]+$/.test(r.url);
    const others = refreshRequests.filter((r) => !isToken(r) && !isOrgGet(r) && !isCheck(r));
    const token = refreshRequests.filter(isToken).length;
    const orgGets = refreshRequests.filter(isOrgGet).length;
    const checks = refreshRequests.filter(isCheck).length;

    const rows = [];
    if (startup.note) {
      rows.push(['(a) start-up', 'n/a', startup.note]);
    } else {
      const vsNode = (ms) => `${(ms / startup.node).toFixed(2)}x node -e ''`;
      rows.push(["(a) node -e ''", `${startup.node.toFixed(0)} ms`, 'median of 20']);
      rows.push(['(a) launcher, spawn to handshake (TLS)', `${startup.launcher.toFixed(0)} ms`, `median of 20; ${vsNode(startup.launcher)}`]);
      rows.push(['(a) executable, spawn to handshake (TLS)', `${startup.executable.toFixed(0)} ms`, `median of 20; ${vsNode(startup.executable)}; ${(startup.executable / startup.launcher).toFixed(2)}x launcher`]);
      rows.push([
        '(a) executable without code cache (reproducible)',
        `${startup['executable-no-code-cache'].toFixed(0)} ms`,
        `median of 20; ${vsNode(startup['executable-no-code-cache'])}`,
      ]);
    }
    const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    rows.push(['(a) size installed: launcher + bundle / executable', `${mib(sizes.launcher)} / ${mib(sizes.executable)}`, 'launcher also needs Node.js (~95 MiB) on the machine; code cache not counted']);
    const plan = (kind, what) => [
      `(b) terraform plan, ${what}`,
      `${(timings[kind].planMs / 1000).toFixed(2)} s`,
      `median of ${PLANS} (${timings[kind].plans.map((ms) => (ms / 1000).toFixed(1)).join(', ')})${timings[kind].applyMs ? `; apply took ${(timings[kind].applyMs / 1000).toFixed(1)} s` : ''}`,
    ];
    const memberships = ORGS * USERS_PER_ORG;
    rows.push(plan('launcher', `${ORGS} organizations + ${memberships} memberships, launcher`));
    rows.push(plan('executable', `${ORGS} organizations + ${memberships} memberships, executable`));
    rows.push(plan('terraform_data', `${ORGS + memberships} terraform_data`));
    for (const kind of ['launcher', 'executable']) {
      const ratio = timings[kind].planMs / timings.terraform_data.planMs;
      rows.push([`(b) ratio ${kind} / terraform_data`, `${ratio.toFixed(2)}x`, ratio <= 2 ? 'target <= 2x: met' : 'target <= 2x: NOT met']);
    }
    rows.push(['(c) requests per refresh, total', String(refreshRequests.length), `for ${ORGS + memberships} resources`]);
    rows.push(['(c) per orgadmin_organization (GET org)', (orgGets / ORGS).toFixed(2), `${orgGets} for ${ORGS}`]);
    rows.push(['(c) per orgadmin_membership (membership check)', (checks / memberships).toFixed(2), `${checks} for ${memberships}`]);
    rows.push(['(c) token requests per plan', String(token), 'one provider process configures per command']);
    rows.push(['(c) other requests', String(others.length), [...new Set(others.map((r) => `${r.method} ${r.url}`))].slice(0, 3).join('; ')]);
    const markerClears = firstRefreshRequests.filter((r) => r.method === 'PUT').length;
    rows.push(['(c) first refresh after the apply: creation markers cleared', String(markerClears), 'one PUT per new organization, once']);

    rows.push([
      'machine: cores, 1-min load average at start / end',
      String(availableParallelism()),
      `${loadAtStart.toFixed(1)} / ${loadavg()[0].toFixed(1)} (other processes share the machine)`,
    ]);
    const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length), ['measure', 'value', 'note'][c].length));
    const line = (cells) => cells.map((cell, c) => cell.padEnd(widths[c])).join(' | ').trimEnd();
    process.stdout.write(`${line(['measure', 'value', 'note'])}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${rows.map(line).join('\n')}\n`);

    // Leave the service clean: destroy what the orgadmin configuration made.
    await terraform(join(work, 'launcher'), ['destroy', '-auto-approve', '-input=false', '-no-color'], envFor('launcher'));
  } finally {
    await app.close();
    await store.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench/provider: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
