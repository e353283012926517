/**
 * Rows (h) of `npm run bench:provider`: members named by email against the same members by id,
 * and many users looked up at once.
 *
 *   (h1) one `orgadmin_organization_members` of 1,000 members given as `emails` (a set) against the
 *        same set given as `user_ids` (a list): apply from empty, and the refresh plan, medians;
 *   (h2) 1,000 users looked up by one `orgadmin_users` against 1,000 `orgadmin_user` data sources:
 *        plan time and requests to the service per plan.
 *
 * The plans alternate between the configurations so that the machine's load falls on all alike.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median } from './stats.mjs';

const COUNT = Number(process.env.BENCH_NAMES_COUNT ?? 1000);

const list = (values) => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;

/** The configurations of (h), by kind. */
function configs(usernames, emails, ids) {
  const org = (name) => `resource "orgadmin_organization" "o" {\n  name = "${name}"\n}\n`;
  return {
    'set-by-id': `${org('names-by-id')}resource "orgadmin_organization_members" "s" {\n  organization_id = orgadmin_organization.o.id\n  user_ids = ${list(ids)}\n}\n`,
    'set-by-email': `${org('names-by-email')}resource "orgadmin_organization_members" "s" {\n  organization_id = orgadmin_organization.o.id\n  emails = ${list(emails)}\n}\n`,
    'orgadmin_users': `data "orgadmin_users" "all" {\n  usernames = ${list(usernames)}\n}\noutput "n" {\n  value = length(data.orgadmin_users.all.ids)\n}\n`,
    'orgadmin_user x N': `data "orgadmin_user" "each" {\n  for_each = toset(${list(usernames)})\n  username = each.value\n}\noutput "n" {\n  value = length(data.orgadmin_user.each)\n}\n`,
  };
}

/**
 * Measures (h) and returns its table rows (`[measure, value, note]`).
 * @param {{ work: string, admin: any, terraform: Function, env: Record<string, string>, requests: Array<unknown>, plans: number }} ctx
 */
export async function memberNameRows({ work, admin, terraform, env, requests, plans }) {
  process.stderr.write(`(h) creating ${COUNT} users with emails...\n`);
  const usernames = [];
  const emails = [];
  const ids = [];
  for (let i = 0; i < COUNT; i++) {
    const username = `names-${String(i).padStart(5, '0')}`;
    const user = await admin.createUser('bench', { username, email: `${username}@example.com` });
    usernames.push(username);
    emails.push(`${username}@example.com`);
    ids.push(user.id);
  }
  const byKind = configs(usernames, emails, ids);
  const timings = {};
  for (const [kind, config] of Object.entries(byKind)) {
    const dir = join(work, `names-${kind.replace(/\W+/g, '-')}`);
    await mkdir(dir);
    await writeFile(join(dir, 'main.tf'), `terraform {\n  required_providers {\n    orgadmin = { source = "orgadmin/orgadmin" }\n  }\n}\n${config}`);
    await terraform(dir, ['init', '-input=false', '-no-color'], env);
    process.stderr.write(`(h) applying ${kind}...\n`);
    timings[kind] = { dir, applyMs: await terraform(dir, ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'], env), plans: [], requests: 0 };
  }
  process.stderr.write(`(h) planning each configuration ${plans} times, alternating...\n`);
  for (let i = 0; i < plans; i++) {
    for (const [kind, timing] of Object.entries(timings)) {
      const since = requests.length;
      timing.plans.push(await terraform(timing.dir, ['plan', '-detailed-exitcode', '-input=false', '-no-color', '-parallelism=10'], env));
      timing.requests = requests.length - since;
    }
  }
  for (const timing of Object.values(timings)) timing.planMs = median(timing.plans);
  const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
  const t = timings;
  const rows = [
    [`(h1) member set of ${COUNT} by emails / by user_ids: apply from empty`, `${seconds(t['set-by-email'].applyMs)} / ${seconds(t['set-by-id'].applyMs)}`, `${ratio(t['set-by-email'].applyMs, t['set-by-id'].applyMs)} (emails is a set: Terraform checks it in quadratic time at apply)`],
    [`(h1) member set of ${COUNT} by emails / by user_ids: refresh plan`, `${seconds(t['set-by-email'].planMs)} / ${seconds(t['set-by-id'].planMs)}`, `${ratio(t['set-by-email'].planMs, t['set-by-id'].planMs)}, requests per plan ${t['set-by-email'].requests} / ${t['set-by-id'].requests}`],
    [`(h2) ${COUNT} users: one orgadmin_users / ${COUNT} orgadmin_user: plan`, `${seconds(t['orgadmin_users'].planMs)} / ${seconds(t['orgadmin_user x N'].planMs)}`, `${ratio(t['orgadmin_users'].planMs, t['orgadmin_user x N'].planMs)}, requests per plan ${t['orgadmin_users'].requests} / ${t['orgadmin_user x N'].requests}`],
  ];
  for (const kind of ['set-by-id', 'set-by-email']) {
    await terraform(t[kind].dir, ['destroy', '-auto-approve', '-input=false', '-no-color'], env);
  }
  return rows;
}
