#!/usr/bin/env node
/**
 * One service under test for `bench:service`, in a process of its own (like the bare server it is
 * compared with): starts the built service (dist/) on a store, sets it up and prints one JSON line
 * with what the load generators need; stops when its stdin closes.
 *
 * The store's location (a SQLite file or a postgres:// URL) comes in the environment variable
 * ORGADMIN_BENCH_STORE, not argv (ORGADMIN_BENCH_DIST names another build's dist/ to measure;
 * ORGADMIN_BENCH_LARGE_SETUP=0 stops after the membership check's setup). A URL may hold a
 * password; only the same user can read a process's environment. Setup, in realm `acme`:
 * an API key and a token; `bench-org` with one member, `bench-user` (the membership checks);
 * `big-org` with ORGANIZATION_SIZE users as members (the large refresh), users created through
 * `Admin.createUser` with emails and timed, in batches alternating with as many users without
 * emails in realm `plain` (the floor of creating users with emails); `small-org` with the first 100 of those users
 * (the floor of a page's cost); realm `many` with REALM_ORGANIZATIONS organizations and a token of its
 * own (the organization list walk).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// The build to measure: this checkout's dist/, or another checkout's (BENCH_BASELINE of service.mjs).
const dist = process.env.ORGADMIN_BENCH_DIST ?? join(here, '..', 'dist');
const { startServer } = require(join(dist, 'service', 'server.js'));
// A folder since the Admin facade was split by area (its index.js).
const { Admin } = require(join(dist, 'service', 'admin'));
/** Whether to build the large organization and the users (only the membership check needs neither). */
const largeSetup = process.env.ORGADMIN_BENCH_LARGE_SETUP !== '0';

/** Members of the large organization (plus its default admin user). */
export const ORGANIZATION_SIZE = 10_000;
/** Organizations of realm `many` (the organization list walk). */
export const REALM_ORGANIZATIONS = 10_000;

const location = process.env.ORGADMIN_BENCH_STORE;
if (!location) throw new Error('ORGADMIN_BENCH_STORE is not set.');

/** Sends one HTTP request and returns status, headers and body text. */
async function http(method, url, { headers = {}, body } = {}) {
  const response = await fetch(url, { method, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Creates an organization over HTTP (in realm `acme` unless told) and returns its id. */
async function createOrganization(server, authorization, name, realm = 'acme') {
  const created = await http('POST', `${server.url}/realms/${realm}/orgs`, {
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (created.status !== 201) throw new Error(`create organization answered ${created.status}: ${created.text}`);
  return created.headers.get('location').split('/').pop();
}

/** The `Authorization` header value of a bearer token for API key `key` of `realm`, from the token endpoint. */
async function bearerAuthorization(server, realm, key) {
  const token = await http('POST', `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
  });
  if (token.status !== 200) throw new Error(`token endpoint answered ${token.status}: ${token.text}`);
  return `Bearer ${JSON.parse(token.text).access_token}`;
}

/** Adds user `userId` to organization `orgId` of `realm` over HTTP, checks it, and returns the check's path. */
async function addCheckedMember(server, authorization, realm, orgId, userId) {
  const memberPath = `/realms/${realm}/orgs/${encodeURIComponent(orgId)}/members/${encodeURIComponent(userId)}`;
  const added = await http('PUT', `${server.url}${memberPath}`, { headers: { authorization } });
  if (added.status !== 201) throw new Error(`add member answered ${added.status}: ${added.text}`);
  const checked = await http('GET', `${server.url}${memberPath}`, { headers: { authorization } });
  if (checked.status !== 204) throw new Error(`check membership answered ${checked.status}: ${checked.text}`);
  return memberPath;
}

/** Creates one user through the Admin API; `i` numbers it, with an email or not. */
async function createUser(admin, realm, i, withEmail) {
  const number = String(i).padStart(5, '0');
  // Mixed case: the lookup and the uniqueness rule are case-insensitive.
  return admin.createUser(realm, { username: `member-${number}`, email: withEmail ? `Member-${number}@Example.com` : undefined });
}

/** Users per batch when timing users with and without emails in turn. */
const BATCH = 500;

/**
 * Creates `count` users with emails in `emailRealm` and as many without in `plainRealm`, in
 * alternating batches so that a busy moment of the machine weighs on both alike; returns the ids
 * of the users with emails and the seconds each kind took in all.
 */
async function createUsers(admin, emailRealm, plainRealm, count) {
  const ids = [];
  const seconds = { withEmails: 0, withoutEmails: 0 };
  for (let start = 0; start < count; start += BATCH) {
    const end = Math.min(start + BATCH, count);
    let started = performance.now();
    for (let i = start; i < end; i += 1) ids.push((await createUser(admin, emailRealm, i, true)).id);
    seconds.withEmails += (performance.now() - started) / 1000;
    started = performance.now();
    for (let i = start; i < end; i += 1) await createUser(admin, plainRealm, i, false);
    seconds.withoutEmails += (performance.now() - started) / 1000;
  }
  return { ids, seconds };
}

/**
 * The setup of every row but the membership check: users with and without emails (timed), the
 * large and the small organization, the lookups by email and username; returns their paths and times.
 */
async function setUpLarge(server, admin, authorization) {
  const users = await createUsers(admin, 'acme', 'plain', ORGANIZATION_SIZE);
  const bigOrgId = await createOrganization(server, authorization, 'big-org');
  const now = Date.now();
  for (const [index, id] of users.ids.entries()) await server.store.addMember('acme', bigOrgId, id, now + index);
  // The floor of a page's cost: an organization of one full page (100 members and its admin user).
  const smallOrgId = await createOrganization(server, authorization, 'small-org');
  for (const [index, id] of users.ids.slice(0, 100).entries()) await server.store.addMember('acme', smallOrgId, id, now + index);

  // A realm of many organizations (the organization list walk); written to the store directly, as
  // the large organization's memberships are, since only their listing is measured.
  await admin.createRealm('many', { tokenLifetimeSeconds: 3600 });
  for (let i = 0; i < REALM_ORGANIZATIONS; i += 1) {
    const number = String(i).padStart(5, '0');
    await server.store.createOrganization({ id: `many-${number}`, realm: 'many', name: `org-${number}`, displayName: null, url: null, domains: [], attributes: {} }, undefined, now);
  }
  const manyKey = await admin.createApiKey('many', { name: 'bench', permissions: ['view-organizations'] });
  const organizationsAuthorization = await bearerAuthorization(server, 'many', manyKey);

  const emailPath = '/admin/realms/acme/users?email=member-05000%40example.com&exact=true';
  const usernamePath = '/admin/realms/acme/users?username=MEMBER-05000&exact=true';
  for (const path of [emailPath, usernamePath]) {
    const found = await http('GET', `${server.url}${path}`, { headers: { authorization } });
    if (found.status !== 200 || JSON.parse(found.text).length !== 1) throw new Error(`${path} answered ${found.status}: ${found.text}`);
  }

  return {
    membersPath: `/realms/acme/orgs/${encodeURIComponent(bigOrgId)}/members`,
    smallMembersPath: `/realms/acme/orgs/${encodeURIComponent(smallOrgId)}/members`,
    organizationsPath: '/realms/many/orgs',
    organizationsAuthorization,
    emailPath,
    usernamePath,
    createUsersWithEmailsSeconds: users.seconds.withEmails,
    createUsersWithoutEmailsSeconds: users.seconds.withoutEmails,
  };
}

/**
 * Realm `metered`, with a rate limit no check of the bench reaches (a million a second): a member
 * check there costs what counting it costs on top of a check.
 */
async function setUpMetered(server, admin) {
  await admin.createRealm('metered', { tokenLifetimeSeconds: 3600 });
  await admin.updateRealm('metered', { rateLimit: { requests: 1_000_000, windowSeconds: 1 } });
  const key = await admin.createApiKey('metered', { name: 'bench', permissions: ['view-organizations', 'manage-organizations', 'create-organization'] });
  const user = await admin.createUser('metered', { username: 'bench-user' });
  const meteredAuthorization = await bearerAuthorization(server, 'metered', key);
  const orgId = await createOrganization(server, meteredAuthorization, 'metered-org', 'metered');
  const meteredMemberPath = await addCheckedMember(server, meteredAuthorization, 'metered', orgId, user.id);
  return { meteredMemberPath, meteredAuthorization };
}

/**
 * ORGADMIN_BENCH_OPS=1: the service as `orgadmin serve > FILE` runs it, one JSON log line per
 * request written synchronously to a file (ORGADMIN_BENCH_LOG), with metrics collected (scraped by
 * the orchestrator); ORGADMIN_BENCH_OPS=metrics: metrics collected, no request log; otherwise
 * today's configuration of startServer, both off.
 */
const operations = process.env.ORGADMIN_BENCH_OPS;
const logging = operations === '1';
const { openSync, writeSync } = await import('node:fs');
const logFd = logging ? openSync(process.env.ORGADMIN_BENCH_LOG, 'a') : undefined;
const server = await startServer({
  dataFile: location,
  host: '127.0.0.1',
  port: 0,
  logger: logging ? { level: 'info', stream: { write: (line) => writeSync(logFd, line) } } : false,
  metrics: operations === '1' || operations === 'metrics',
});
try {
  const admin = new Admin(server.store);
  await admin.createRealm('acme', { tokenLifetimeSeconds: 3600 });
  await admin.createRealm('plain', { tokenLifetimeSeconds: 3600 });
  const key = await admin.createApiKey('acme', {
    name: 'bench',
    permissions: ['view-organizations', 'manage-organizations', 'create-organization', 'view-users'],
  });
  const user = await admin.createUser('acme', { username: 'bench-user', email: 'bench@example.com' });
  const authorization = await bearerAuthorization(server, 'acme', key);
  const orgId = await createOrganization(server, authorization, 'bench-org');
  const memberPath = await addCheckedMember(server, authorization, 'acme', orgId, user.id);

  const metered = await setUpMetered(server, admin);
  const large = largeSetup ? await setUpLarge(server, admin, authorization) : {};
  process.stdout.write(`${JSON.stringify({ url: server.url, authorization, memberPath, ...metered, ...large })}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
} finally {
  await server.close();
}
