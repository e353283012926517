#!/usr/bin/env node
/**
 * Benchmark of the installed Terraform provider (`npm run bench:provider`, which builds first).
 * Prints one table from one run, the provider installed two ways side by side: the launcher
 * (a `#!/usr/bin/env -S node` script next to the bundle and its V8 code cache) and the
 * self-contained executable (a Node.js single executable application, built by `npm run build`):
 *
 *   (a) start-up: each one's start-to-handshake time (executed as Terraform executes it), median of
 *       20, next to `node -e ''`, the floor (a Node.js process doing only what the plugin protocol
 *       requires before its handshake: bench/plugin-server-floor.mjs), the same floor on
 *       `node:http2` (what a provider on Node.js's own HTTP/2 needs) and the executable built
 *       without its code cache (the reproducible variant), all measured by
 *       bench/provider-startup.mjs in one interleaved run;
 *   (b) `terraform plan` wall time with 50 organizations and 500 memberships applied, with each
 *       installation, next to the same number (550) of `terraform_data` resources (Terraform's own
 *       cost per resource); target: at most 2x;
 *   (c) requests the provider sends per refresh, per resource, from the service's request log;
 *   (d) the small plan most pipelines run many times a day: 10 organizations + 100 memberships with
 *       each installation, next to 110 `terraform_data`; target: at most 2x;
 *   (e) each of the 3 provider starts of one small plan (schema, validate, configured run), split
 *       into spawn to handshake, the RPCs, and shutdown to exit, from Terraform's own debug log;
 *       and the provider's peak RSS (VmHWM of every provider process seen during those plans) and
 *       the largest anonymous part of it (RssAnon);
 *   (f) one `orgadmin_organization_members` of 100, 1,000 and 10,000 users: apply from empty and
 *       refresh plan, next to a `terraform_data` holding the same list; and the growth from
 *       1,000 to 10,000 ids against 10x (target: within 2x of 10 times the 1,000-id time);
 *   (g) lower bounds of the small plans for any provider that is a Node.js process: Terraform starts
 *       the provider three times per plan, one start after the other, and waits for each handshake
 *       before it can go on; so no such plan can take less than its terraform_data floor plus three
 *       times `node -e ''` (a Node.js process doing nothing), or plus three times the plugin floor
 *       of (a) (the mutual-TLS server the plugin protocol asks for). Each bound is computed from rows of
 *       this run and shown as a ratio against its floor, next to target 1's 2x;
 *   (h) members named by email against by id, and many users looked up at once (bench/member-names.mjs);
 *   (i) requests the provider sends per refresh of 100 `orgadmin_organization_member_roles` (one
 *       member set of 100 users, each with a role set, for_each over the set) and of the role they
 *       hold: target exactly 1.00 per resource.
 *
 * Everything is real: the service from dist/ on a free port with a SQLite file in a temporary
 * directory, the provider installed by dist/distribution/install.js into temporary mirrors, and
 * /usr/local/bin/terraform. Environment: BENCH_PLANS (plans per configuration, default 5),
 * BENCH_SET_SIZES (member set sizes of (f), default 100,1000,10000), BENCH_ONLY=roles (only (i),
 * with the launcher: a minute instead of many).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { memberNameRows } from './member-names.mjs';
import { median } from './stats.mjs';

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TERRAFORM = process.env.TERRAFORM_BIN ?? '/usr/local/bin/terraform';
const ORGS = 50;
const USERS_PER_ORG = 10;
const PLANS = Number(process.env.BENCH_PLANS ?? 5);
const SMALL_ORGS = 10;
const SET_SIZES = (process.env.BENCH_SET_SIZES ?? '100,1000,10000').split(',').map(Number);
/** Plans per member-set size: fewer for the large sizes, whose plans take long. */
const SET_PLANS = Math.min(PLANS, 3);

function fromDist(path) {
  const full = join(ROOT, 'dist', path);
  if (!existsSync(full)) throw new Error(`${full} is missing: run "npm run bench:provider" (it builds first)`);
  return require(full);
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
  const run = await runProcess(process.execPath, [script, ...args, '--runs', '20', '--floor'], { cwd: ROOT, timeoutMs: 600_000 });
  if (run.code !== 0) return { note: `bench/provider-startup.mjs failed: ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' ')}` };
  const medianOf = (label) => {
    const line = run.stdout.split('\n').find((l) => l.startsWith(`${label}  `));
    const value = line === undefined ? NaN : Number(line.slice(label.length).trim().split(/\s+/)[0]);
    if (!Number.isFinite(value)) throw new Error(`cannot read "${label}" from bench/provider-startup.mjs output:\n${run.stdout}`);
    return value;
  };
  const medians = {
    node: medianOf("node -e ''"),
    floor: medianOf('floor: Node.js mTLS plugin server (node:tls)'),
    http2Floor: medianOf('floor with node:http2: the same on Node.js HTTP/2'),
  };
  for (const label of Object.keys(targets)) medians[label] = medianOf(label);
  return medians;
}

/** The configurations of (b) and (d): same shape, orgadmin resources or terraform_data. */
function planConfig(kind, orgs = ORGS, prefix = 'bench') {
  const pairs = `{ for pair in setproduct(range(${orgs}), var.user_ids) : "\${pair[0]}/\${pair[1]}" => pair }`;
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
  count = ${orgs}
  name  = "${prefix}-org-\${count.index}"
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
  count = ${orgs}
  input = "${prefix}-org-\${count.index}"
}

resource "terraform_data" "member" {
  for_each = ${pairs}
  input    = { organization_id = terraform_data.org[each.value[0]].id, user_id = each.value[1] }
}
`;
}

/** The configurations of (f): one member set of `var.user_ids`, or a terraform_data holding it. */
function setConfig(kind) {
  if (kind === 'orgadmin') {
    return `terraform {
  required_providers {
    orgadmin = { source = "orgadmin/orgadmin" }
  }
}

provider "orgadmin" {}

variable "name" {
  type = string
}

variable "user_ids" {
  type = list(string)
}

resource "orgadmin_organization" "org" {
  name = var.name
}

resource "orgadmin_organization_members" "set" {
  organization_id = orgadmin_organization.org.id
  user_ids        = var.user_ids
}
`;
  }
  return `variable "name" {
  type = string
}

variable "user_ids" {
  type = list(string)
}

resource "terraform_data" "org" {
  input = var.name
}

resource "terraform_data" "set" {
  input = { organization_id = terraform_data.org.id, user_ids = var.user_ids }
}
`;
}

/** Member roles of (i): one per member of a set of this many. */
const ROLE_MEMBERS = 100;

/** The configuration of (i): a member set of `var.user_ids`, one role, and each member's roles. */
function rolesConfig() {
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
  name = "bench-roles"
}

resource "orgadmin_organization_members" "set" {
  organization_id = orgadmin_organization.org.id
  user_ids        = var.user_ids
}

resource "orgadmin_organization_role" "editor" {
  organization_id = orgadmin_organization.org.id
  name            = "editor"
}

resource "orgadmin_organization_member_roles" "member" {
  for_each        = toset(orgadmin_organization_members.set.user_ids)
  organization_id = orgadmin_organization_members.set.organization_id
  user_id         = each.value
  roles           = [orgadmin_organization_role.editor.name, "view-members"]
}
`;
}

/**
 * (i): applies {@link rolesConfig} for {@link ROLE_MEMBERS} new users, refreshes it twice (the first
 * refresh also clears the new organization's creation marker) and classifies the requests of the
 * second: the table rows, and the working directory (destroyed by the caller).
 */
async function rolesRefreshRows({ work, admin, envFor, requests }) {
  const userIds = [];
  for (let i = 0; i < ROLE_MEMBERS; i++) userIds.push((await admin.createUser('bench', { username: `roles-user-${i}` })).id);
  const dir = join(work, 'roles');
  await mkdir(dir);
  await writeFile(join(dir, 'main.tf'), rolesConfig());
  await writeFile(join(dir, 'terraform.tfvars.json'), JSON.stringify({ user_ids: userIds }));
  await terraform(dir, ['init', '-input=false', '-no-color'], envFor('launcher'));
  process.stderr.write(`applying ${ROLE_MEMBERS} orgadmin_organization_member_roles...\n`);
  const applyMs = await terraform(dir, ['apply', '-auto-approve', '-input=false', '-no-color'], envFor('launcher'));
  await terraform(dir, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], envFor('launcher'));
  const since = requests.length;
  const planMs = await terraform(dir, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], envFor('launcher'));
  const refresh = requests.slice(since);
  const memberRoles = refresh.filter((r) => r.method === 'GET' && /^\/realms\/[^/]+\/users\/[^/]+\/orgs\/[^/]+\/roles$/.test(r.url)).length;
  const roleGets = refresh.filter((r) => r.method === 'GET' && /^\/realms\/[^/]+\/orgs\/[^/]+\/roles\/[^/]+$/.test(r.url)).length;
  const memberPages = refresh.filter((r) => r.method === 'GET' && /^\/realms\/[^/]+\/orgs\/[^/]+\/members$/.test(r.url)).length;
  const perResource = memberRoles / ROLE_MEMBERS;
  const rows = [
    [
      `(i) per orgadmin_organization_member_roles (a member's roles), ${ROLE_MEMBERS} resources`,
      perResource.toFixed(2),
      `${memberRoles} for ${ROLE_MEMBERS}; target exactly 1.00: ${memberRoles === ROLE_MEMBERS ? 'met' : 'NOT met'}`,
    ],
    ['(i) per orgadmin_organization_role (GET role)', roleGets.toFixed(2), `${roleGets} for 1`],
    ['(i) the member set of the same refresh (member pages)', String(memberPages), `for ${ROLE_MEMBERS} members`],
    ['(i) requests per refresh, total', String(refresh.length), `every request of the plan, token and organization included; plan ${(planMs / 1000).toFixed(2)} s, apply ${(applyMs / 1000).toFixed(1)} s`],
  ];
  return { rows, dir };
}

/** Prints the table of `rows` (measure, value, note). */
function printTable(rows) {
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length), ['measure', 'value', 'note'][c].length));
  const line = (cells) => cells.map((cell, c) => cell.padEnd(widths[c])).join(' | ').trimEnd();
  process.stdout.write(`${line(['measure', 'value', 'note'])}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${rows.map(line).join('\n')}\n`);
}

/** Names of the 3 provider starts of a plan, in the order Terraform makes them. */
const START_NAMES = ['schema', 'validate', 'configured run'];

/**
 * The provider starts of one terraform run, from its debug log (TF_LOG=debug, TF_LOG_PATH): per
 * start, ms from spawn to the handshake ("using plugin"), from the handshake to the provider's own
 * "plugin shutting down" line (the RPCs), and from there to "plugin process exited".
 */
function providerStarts(log) {
  const starts = [];
  let current;
  for (const line of log.split('\n')) {
    const at = Date.parse(line.slice(0, 24));
    if (!Number.isFinite(at)) continue;
    if (line.includes('provider: starting plugin:') && line.includes('terraform-provider-orgadmin')) {
      current = { spawn: at };
      starts.push(current);
    } else if (current && line.includes('provider: using plugin:')) current.handshake ??= at;
    else if (current && line.includes('plugin shutting down')) current.shutdown ??= at;
    else if (current && line.includes('provider: plugin process exited:')) current.exited ??= at;
  }
  return starts
    .filter((s) => s.handshake !== undefined && s.shutdown !== undefined && s.exited !== undefined)
    .map((s) => ({ handshakeMs: s.handshake - s.spawn, rpcMs: s.shutdown - s.handshake, exitMs: s.exited - s.shutdown, totalMs: s.exited - s.spawn }));
}

/**
 * Watches /proc for provider processes (command lines containing `match`) and returns the
 * largest peak RSS (VmHWM, bytes) seen, and the largest anonymous part of the RSS (RssAnon) seen.
 * Sampled every 10 ms while `run` runs; VmHWM only grows, so the last sample of a process is its
 * peak up to then. RssAnon is sampled, so its peak may be missed by up to 10 ms of growth. The
 * rest of the RSS is file-backed: mostly the pages of the Node.js binary (or of the executable)
 * mapped in, which the kernel shares and can drop, and whose count depends on the page cache
 * (Terraform reads the executable to check its hash just before starting it).
 */
async function peakRss(match, run) {
  let peak = 0;
  let peakAnon = 0;
  const known = new Map();
  const sample = () => {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let isProvider = known.get(pid);
      if (isProvider === undefined) {
        let cmdline = '';
        try {
          cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
        } catch {
          continue;
        }
        isProvider = cmdline.includes(match);
        known.set(pid, isProvider);
      }
      if (!isProvider) continue;
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'latin1');
        peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
        peakAnon = Math.max(peakAnon, Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
      } catch {
        // exited meanwhile
      }
    }
  };
  const timer = setInterval(sample, 10);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return { peak, peakAnon };
}

async function main() {
  const { installProvider, mirrorCliConfig } = fromDist('distribution/install.js');
  const { buildApp } = fromDist('service/app.js');
  const { SqliteStore } = fromDist('service/store/sqlite-store.js');
  const { Admin } = fromDist('service/admin/index.js');
  const { PERMISSIONS } = fromDist('api/index.js');

  const loadAtStart = loadavg()[0];
  const onlyRoles = process.env.BENCH_ONLY === 'roles';
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
    for (const form of onlyRoles ? ['launcher'] : ['launcher', 'executable']) {
      const dir = join(work, `mirror-${form}`);
      const installed = await installProvider(form === 'launcher' ? { dir, bundlePath: join(ROOT, 'dist', 'provider', 'terraform-provider-orgadmin.js') } : { dir });
      if (form === 'executable' && !installed.selfContained) {
        throw new Error('no self-contained executable was built for this platform: run "npm run build" (scripts/build-sea.mjs) first');
      }
      const cliConfig = join(work, `terraform-${form}.rc`);
      await writeFile(cliConfig, mirrorCliConfig(dir));
      mirrors[form] = { path: installed.path, cliConfig };
    }
    // (i) alone: the roles refresh with the launcher (its set-up is the realm, the key and users).
    if (onlyRoles) {
      const admin = new Admin(store);
      await admin.createRealm('bench', {});
      const key = await admin.createApiKey('bench', { name: 'bench', permissions: [...PERMISSIONS] });
      const envFor = () =>
        cleanEnv({ TF_CLI_CONFIG_FILE: mirrors.launcher.cliConfig, ORGADMIN_BASE_URL: baseUrl, ORGADMIN_REALM: 'bench', ORGADMIN_CLIENT_ID: key.clientId, ORGADMIN_CLIENT_SECRET: key.clientSecret });
      const roles = await rolesRefreshRows({ work, admin, envFor, requests });
      printTable([...roles.rows, ['machine: cores, 1-min load average at start / end', String(availableParallelism()), `${loadAtStart.toFixed(1)} / ${loadavg()[0].toFixed(1)}`]]);
      await terraform(roles.dir, ['destroy', '-auto-approve', '-input=false', '-no-color'], envFor());
      return;
    }
    // The reproducible variant, built without a code cache, for (a) only.
    process.stderr.write('building the executable without a code cache...\n');
    const { buildExecutable } = fromDist('distribution/executable.js');
    const { hostExecutablePlatform } = fromDist('distribution/platforms.js');
    const { providerVersion } = fromDist('distribution/package-info.js');
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

    // (d) the small plan, alternating like (b).
    const smallKinds = { 'small-launcher': ['orgadmin', 'launcher'], 'small-executable': ['orgadmin', 'executable'], 'small-terraform_data': ['terraform_data', 'launcher'] };
    for (const [kind, [config, form]] of Object.entries(smallKinds)) {
      const dir = join(work, kind);
      await mkdir(dir);
      await writeFile(join(dir, 'main.tf'), planConfig(config, SMALL_ORGS, 'small'));
      await writeFile(join(dir, 'terraform.tfvars.json'), tfvars);
      await terraform(dir, ['init', '-input=false', '-no-color'], envFor(form));
      timings[kind] = { plans: [] };
      if (kind === 'small-executable') await copyFile(join(work, 'small-launcher', 'terraform.tfstate'), join(dir, 'terraform.tfstate'));
      else timings[kind].applyMs = await terraform(dir, ['apply', '-auto-approve', '-input=false', '-no-color'], envFor(form));
    }
    process.stderr.write(`planning the small configurations ${PLANS} times, alternating...\n`);
    for (let i = 0; i < PLANS; i++) {
      for (const [kind, [, form]] of Object.entries(smallKinds)) {
        timings[kind].plans.push(await terraform(join(work, kind), ['plan', '-detailed-exitcode', '-input=false', '-no-color'], envFor(form)));
      }
    }
    for (const kind of Object.keys(smallKinds)) timings[kind].planMs = median(timings[kind].plans);

    // (e) each start of the small plan, from Terraform's debug log; peak RSS of the providers.
    process.stderr.write(`timing each provider start of the small plan ${PLANS} times per installation...\n`);
    const starts = { launcher: START_NAMES.map(() => []), executable: START_NAMES.map(() => []) };
    const rss = { launcher: 0, executable: 0 };
    const rssAnon = { launcher: 0, executable: 0 };
    for (let i = 0; i < PLANS; i++) {
      for (const form of ['launcher', 'executable']) {
        const logPath = join(work, `debug-${form}-${i}.log`);
        const peak = await peakRss('terraform-provider-orgadmin', () =>
          terraform(join(work, `small-${form}`), ['plan', '-detailed-exitcode', '-input=false', '-no-color'], { ...envFor(form), TF_LOG: 'debug', TF_LOG_PATH: logPath }, [0]),
        );
        rss[form] = Math.max(rss[form], peak.peak);
        rssAnon[form] = Math.max(rssAnon[form], peak.peakAnon);
        const found = providerStarts(await readFile(logPath, 'utf8'));
        if (found.length !== START_NAMES.length) throw new Error(`expected ${START_NAMES.length} provider starts in one plan, found ${found.length} in ${logPath}`);
        found.forEach((start, n) => starts[form][n].push(start));
      }
    }

    // (f) member sets of growing size, each next to a terraform_data holding the same list.
    const largest = Math.max(...SET_SIZES);
    process.stderr.write(`creating ${largest} users for the member sets...\n`);
    const setUserIds = [];
    for (let i = 0; i < largest; i++) setUserIds.push((await admin.createUser('bench', { username: `set-user-${i}` })).id);
    const sets = {};
    for (const size of SET_SIZES) {
      sets[size] = {};
      for (const config of ['orgadmin', 'terraform_data']) {
        const dir = join(work, `set-${size}-${config}`);
        await mkdir(dir);
        await writeFile(join(dir, 'main.tf'), setConfig(config));
        await writeFile(join(dir, 'terraform.tfvars.json'), JSON.stringify({ name: `bench-set-${size}`, user_ids: setUserIds.slice(0, size) }));
        await terraform(dir, ['init', '-input=false', '-no-color'], envFor('launcher'));
        process.stderr.write(`applying a member set of ${size} (${config})...\n`);
        sets[size][config] = { dir, applyMs: await terraform(dir, ['apply', '-auto-approve', '-input=false', '-no-color'], envFor('launcher')), plans: [] };
      }
      for (let i = 0; i < SET_PLANS; i++) {
        for (const config of ['orgadmin', 'terraform_data']) {
          sets[size][config].plans.push(await terraform(sets[size][config].dir, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], envFor('launcher')));
        }
      }
      for (const config of ['orgadmin', 'terraform_data']) sets[size][config].planMs = median(sets[size][config].plans);
    }

    // (i) the member roles' refresh.
    const roles = process.env.BENCH_ROWS === undefined || process.env.BENCH_ROWS.includes('i') ? await rolesRefreshRows({ work, admin, envFor, requests }) : undefined;

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
      rows.push([
        '(a) floor: Node.js mTLS plugin server (node:tls), no provider code',
        `${startup.floor.toFixed(0)} ms`,
        `median of 20; ${vsNode(startup.floor)}; what Node.js itself allows (bench/plugin-server-floor.mjs)`,
      ]);
      rows.push([
        '(a) floor with node:http2: the same server on Node.js HTTP/2',
        `${startup.http2Floor.toFixed(0)} ms`,
        `median of 20; ${vsNode(startup.http2Floor)}; what a provider on Node.js's own HTTP/2 cannot go below`,
      ]);
      rows.push(['(a) launcher, spawn to handshake (TLS)', `${startup.launcher.toFixed(0)} ms`, `median of 20; ${vsNode(startup.launcher)}; ${(startup.launcher / startup.floor).toFixed(2)}x floor`]);
      rows.push([
        '(a) executable, spawn to handshake (TLS)',
        `${startup.executable.toFixed(0)} ms`,
        `median of 20; ${vsNode(startup.executable)}; ${(startup.executable / startup.floor).toFixed(2)}x floor; ${(startup.executable / startup.launcher).toFixed(2)}x launcher`,
      ]);
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


    const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
    const target = (ratio, limit, floor) => `${ratio.toFixed(2)}x ${floor}; target <= ${limit}x: ${ratio <= limit ? 'met' : 'NOT met'}`;
    for (const form of ['launcher', 'executable']) {
      const t = timings[`small-${form}`];
      const floor = timings['small-terraform_data'];
      rows.push([
        `(d) small plan, ${SMALL_ORGS} organizations + ${SMALL_ORGS * USERS_PER_ORG} memberships, ${form}`,
        seconds(t.planMs),
        `median of ${PLANS}; ${target(t.planMs / floor.planMs, 2, `${SMALL_ORGS + SMALL_ORGS * USERS_PER_ORG} terraform_data`)}`,
      ]);
    }
    rows.push([`(d) small plan, ${SMALL_ORGS + SMALL_ORGS * USERS_PER_ORG} terraform_data (floor)`, seconds(timings['small-terraform_data'].planMs), `median of ${PLANS}`]);
    for (const form of ['launcher', 'executable']) {
      starts[form].forEach((runs, n) => {
        const m = (key) => median(runs.map((r) => r[key]));
        rows.push([
          `(e) ${form}, start ${n + 1} of 3 (${START_NAMES[n]})`,
          `${m('totalMs').toFixed(0)} ms`,
          `handshake ${m('handshakeMs').toFixed(0)} ms (${startup.node ? `${(m('handshakeMs') / startup.node).toFixed(2)}x node -e ''` : 'n/a'}), RPCs ${m('rpcMs').toFixed(0)} ms, shutdown to exit ${m('exitMs').toFixed(0)} ms; median of ${PLANS}, TF_LOG=debug`,
        ]);
      });
      rows.push([`(e) ${form}, peak RSS of a provider process`, mib(rss[form]), `largest VmHWM over ${PLANS} small plans; target <= 64 MiB: ${rss[form] <= 64 * 1024 * 1024 ? 'met' : 'NOT met'}`]);
      rows.push([`(e) ${form}, of which anonymous (sampled)`, mib(rssAnon[form]), 'largest RssAnon seen every 10 ms; the rest is file-backed: the binary\'s pages, as many as the page cache maps (docs/guides/publishing.md)']);
    }
    for (const size of SET_SIZES) {
      const o = sets[size].orgadmin;
      const f = sets[size].terraform_data;
      rows.push([`(f) member set of ${size}: apply from empty`, seconds(o.applyMs), `once; ${(o.applyMs / f.applyMs).toFixed(2)}x terraform_data (${seconds(f.applyMs)})`]);
      rows.push([`(f) member set of ${size}: refresh plan`, seconds(o.planMs), `median of ${SET_PLANS}; ${(o.planMs / f.planMs).toFixed(2)}x terraform_data (${seconds(f.planMs)})`]);
    }
    if (sets[1000] && sets[10000]) {
      for (const [what, key] of [['apply', 'applyMs'], ['refresh plan', 'planMs']]) {
        const growth = sets[10000].orgadmin[key] / (10 * sets[1000].orgadmin[key]);
        rows.push([`(f) ${what}: 10,000 ids / (10 x 1,000 ids)`, `${growth.toFixed(2)}x`, `target <= 2x: ${growth <= 2 ? 'met' : 'NOT met'}`]);
      }
    }
    // (g) What the three sequential starts alone cost, at the least, with any Node.js provider.
    if (!startup.note) {
      const bound = (what, floorMs, perStartMs, startName) => {
        const ratio = (floorMs + 3 * perStartMs) / floorMs;
        rows.push([
          `(g) bound, ${what}: floor + 3 x ${startName}`,
          seconds(floorMs + 3 * perStartMs),
          `${ratio.toFixed(2)}x its floor (${seconds(floorMs)}); ${ratio > 2 ? 'above' : 'within'} target 1's 2x before any RPC`,
        ]);
      };
      const smallFloor = timings['small-terraform_data'].planMs;
      bound('small plan', smallFloor, startup.node, "node -e ''");
      bound('small plan', smallFloor, startup.floor, 'plugin floor');
      if (sets[100]) {
        bound('member set of 100, refresh plan', sets[100].terraform_data.planMs, startup.node, "node -e ''");
        bound('member set of 100, refresh plan', sets[100].terraform_data.planMs, startup.floor, 'plugin floor');
      }
    }
    // Node.js parses this file at every start (the executable's three starts per command pay for
    // it; the launcher hands it to the provider instead), so it moves the plan rows.
    rows.push([
      'machine: NODE_EXTRA_CA_CERTS in the environment of terraform',
      process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset',
      process.env.NODE_EXTRA_CA_CERTS ? `${process.env.NODE_EXTRA_CA_CERTS}` : '',
    ]);
    rows.push([
      'machine: cores, 1-min load average at start / end',
      String(availableParallelism()),
      `${loadAtStart.toFixed(1)} / ${loadavg()[0].toFixed(1)} (other processes share the machine)`,
    ]);
    // (h) members by email against by id; many users looked up at once.
    if (process.env.BENCH_ROWS === undefined || process.env.BENCH_ROWS.includes('h')) {
      rows.push(...(await memberNameRows({ work, admin, terraform, env: envFor('executable'), requests, plans: SET_PLANS })));
    }
    if (roles) rows.push(...roles.rows);
    printTable(rows);

    // Leave the service clean: destroy what the orgadmin configurations made.
    await terraform(join(work, 'launcher'), ['destroy', '-auto-approve', '-input=false', '-no-color'], envFor('launcher'));
    if (roles) await terraform(roles.dir, ['destroy', '-auto-approve', '-input=false', '-no-color'], envFor('launcher'));
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
