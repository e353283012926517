/**
 * The Java SDK (java/): builds it with the JDK (scripts/build-java.mjs), runs its JUnit tests with
 * Debian's JUnit Platform console launcher (unit tests against local stubs, integration tests
 * against this real service on a free port), writes their counts to java/build/test-results/summary.json
 * (read by .ci/run), and cross-checks the two SDKs: the same scenario run by the TypeScript SDK and
 * by the Java SDK against one service must see the same things.
 *
 * The service looks domain records up in a DNS server started here (one TXT record published for
 * the organization id the Java test creates its verified domain with), and delivers webhooks to
 * loopback (the Java test's own receiver): the delivery worker runs when a request lists a
 * webhook's sends, before that list is answered, so the Java test reads settled deliveries without
 * polling or sleeping.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { domainRecordName, domainRecordValue, type Member } from '../../src/api';
import { ClientCredentialsTokenSource, OrgAdminClient, OrgAdminError } from '../../src/client';
import { delayBeforeRetry, describeAttempt, isRetryable, whyNotRetried, type AttemptFailure } from '../../src/client/retry-policy';
import { httpDeliver } from '../../src/service/events/delivery';
import { WebhookDispatcher } from '../../src/service/events/webhook-dispatcher';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const JAVA = join(ROOT, 'java');
const JAR = join(JAVA, 'build/orgadmin-client.jar');
const TEST_CLASSES = join(JAVA, 'build/test-classes');
const RESULTS = join(JAVA, 'build/test-results');
/** Read by .ci/run for its `java: N passed, N failed` line. */
const SUMMARY = join(RESULTS, 'summary.json');
const JUNIT_CONSOLE = join(process.env.JUNIT_JARS ?? '/usr/share/java', 'junit-platform-console-standalone.jar');
/** The organization id and domain of the Java test's verified domain: its TXT record is published before the run. */
const VERIFIED_ORG_ID = '6a1f0c52-3b7e-4d2a-9c41-8e5d7f0b2a93';
const VERIFIED_DOMAIN = 'java-verified.example';
/** A list of one webhook's sends: the delivery worker settles before it is answered. */
const SENDS_LIST = /^\/realms\/[^/]+\/webhooks\/[^/]+\/sends(\?|$)/;

/** Output of a child process, kept for the failure message. */
async function runJava(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // Asynchronous on purpose: the service under test answers from this very process.
    const { stdout, stderr } = await run('java', args, { cwd: JAVA, env, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
  }
}

/** The counts of a JUnit XML report (the console launcher's legacy format). */
function readReport(file: string): { tests: number; failed: number; skipped: number; classes: Set<string> } {
  const xml = readFileSync(file, 'utf8');
  const suite = /<testsuite\b[^>]*>/.exec(xml)?.[0] ?? '';
  const attr = (name: string): number => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? NaN);
  const classes = new Set([...xml.matchAll(/<testcase\b[^>]*\bclassname="([^"]+)"/g)].map((m) => m[1]!));
  return { tests: attr('tests'), failed: attr('failures') + attr('errors'), skipped: attr('skipped'), classes };
}

/** What the scenario saw, as the Java side prints it (see java/src/test/.../CrossCheckScenario.java). */
async function scenarioWithTypeScript(
  svc: TestService,
  key: { realm: string; clientId: string; clientSecret: string },
  users: { ann: string; bob: string; carol: string },
  name: string,
): Promise<unknown> {
  const client = new OrgAdminClient({
    baseUrl: svc.baseUrl,
    realm: key.realm,
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: key.clientId, clientSecret: key.clientSecret }),
  });
  const failure = async (call: () => Promise<unknown>): Promise<unknown> => {
    try {
      await call();
    } catch (error) {
      if (!(error instanceof OrgAdminError)) throw error;
      const e = error as OrgAdminError & { status?: number; error?: string };
      return { code: e.code, status: e.status ?? 0, error: e.error ?? null };
    }
    throw new Error('the call succeeded but should have failed');
  };
  const usernames = (members: Member[], id: string): string[] => members.map((m) => m.username.split(id).join('{id}')).sort();
  try {
    const id = await client.createOrganization({
      name,
      displayName: 'Cross Check',
      domains: ['xc.example.com'],
      attributes: { tier: ['gold plus'] },
    });
    const org = await client.getOrganization(id);
    const out: Record<string, unknown> = {
      idMatches: org.id === id,
      organization: {
        name: org.name,
        displayName: org.displayName,
        url: org.url,
        domains: org.domains,
        attributes: org.attributes,
        realm: org.realm,
      },
      duplicate: await failure(() => client.createOrganization({ name })),
    };
    await client.addMember(id, users.ann);
    await client.addMember(id, users.ann);
    await client.addMember(id, users.bob);
    out.afterAdd = {
      ann: await client.isMember(id, users.ann),
      bob: await client.isMember(id, users.bob),
      carol: await client.isMember(id, users.carol),
    };
    out.members = usernames(await client.listAllMembers(id), id);
    out.memberCount = await client.countMembers(id);
    out.memberCountWithoutAdmins = await client.countMembers(id, { excludeAdminAccounts: true });
    out.found = (await client.listAllOrganizations({ search: name })).map((o) => o.name);
    // Roles: create, grant many (one unknown), read back, check, the users of a role, a refused
    // grant to a non-member, revoke many, delete many (one default role).
    await client.createRole(id, { name: 'xc-editor', description: 'Edits' });
    out.roleCreated = (({ name: roleName, description }) => ({ name: roleName, description }))(await client.getRole(id, 'xc-editor'));
    const withoutId = (text: string | null): string | null => (text === null ? null : text.split(id).join('{id}'));
    out.granted = (await client.grantRoles(id, users.ann, ['xc-editor', 'view-members', 'ghost'])).map((r) => [r.name, r.status, r.ok, withoutId(r.error)]);
    out.annRoles = (await client.listMemberRoles(id, users.ann)).map((r) => r.name);
    out.hasRole = { ann: await client.hasRole(id, 'xc-editor', users.ann), bob: await client.hasRole(id, 'xc-editor', users.bob) };
    out.roleUsers = usernames(await client.listRoleUsers(id, 'xc-editor'), id);
    out.grantToNonMember = await failure(() => client.grantRole(id, 'xc-editor', users.carol));
    out.revoked = (await client.revokeRoles(id, users.ann, ['view-members'])).map((r) => [r.name, r.status, r.ok]);
    out.deleted = (await client.deleteRoles(id, ['xc-editor', 'view-roles'])).map((r) => [r.name, r.status, r.ok, withoutId(r.error)]);
    out.annRolesAfter = (await client.listMemberRoles(id, users.ann)).map((r) => r.name);
    out.annOrganizations = (await client.listUserOrganizations(users.ann)).filter((o) => o.id === id).map((o) => o.name);
    await client.removeMember(id, users.bob);
    out.afterRemove = { ann: await client.isMember(id, users.ann), bob: await client.isMember(id, users.bob) };
    out.membersAfterRemove = usernames(await client.listAllMembers(id), id);
    await client.deleteOrganization(id);
    out.afterDelete = await failure(() => client.getOrganization(id));
    out.isMemberAfterDelete = await client.isMember(id, users.ann);
    // The audit log of what the scenario did to its organization, newest first.
    out.auditLog = (await client.listEvents({ types: ['admin.ORGANIZATION*'], resourcePath: `orgs/${id}`, max: 1000 })).map((e) => [
      e.type,
      (e.resourcePath ?? '').split(id).join('{id}'),
    ]);
    return out;
  } finally {
    await client.close();
  }
}

/** A failed attempt as both harnesses read it; connection failures by neutral names. */
interface PolicyCase {
  kind: 'status' | 'timeout' | 'network';
  status?: number;
  retryAfterSeconds?: number;
  timeoutMs?: number;
  network?: 'refused' | 'dropped' | 'connect-timeout' | 'unknown-host';
  repeatable: boolean;
  attempts: number;
  maxRetries: number;
}

/** Every kind of failed attempt, repeatable or not, first attempt, last allowed and no retries at all. */
function policyCases(): PolicyCase[] {
  const failures: Array<Omit<PolicyCase, 'repeatable' | 'attempts' | 'maxRetries'>> = [];
  for (const status of [400, 401, 403, 404, 409, 429, 500, 502, 503, 504]) {
    failures.push({ kind: 'status', status }, { kind: 'status', status, retryAfterSeconds: 2 }, { kind: 'status', status, retryAfterSeconds: 60 });
  }
  failures.push({ kind: 'timeout', timeoutMs: 2000 });
  for (const network of ['refused', 'dropped', 'connect-timeout', 'unknown-host'] as const) failures.push({ kind: 'network', network });
  const cases: PolicyCase[] = [];
  for (const failure of failures) {
    for (const repeatable of [true, false]) {
      for (const [attempts, maxRetries] of [[1, 3], [3, 3], [4, 3], [1, 0]] as const) cases.push({ ...failure, repeatable, attempts, maxRetries });
    }
  }
  return cases;
}

/** The TypeScript policy's decisions for the cases; Node's codes for the neutral connection failures. */
function typeScriptDecisions(cases: PolicyCase[]): unknown[] {
  const codes = { refused: 'ECONNREFUSED', dropped: 'ECONNRESET', 'connect-timeout': 'UND_ERR_CONNECT_TIMEOUT', 'unknown-host': 'ENOTFOUND' };
  const settings = { maxRetries: 3, retryBaseDelayMs: 250, retryMaxDelayMs: 10_000, random: () => 0.5 };
  return cases.map((c) => {
    const failure: AttemptFailure =
      c.kind === 'status'
        ? { kind: 'status', status: c.status!, ...(c.retryAfterSeconds !== undefined ? { retryAfterSeconds: c.retryAfterSeconds } : {}) }
        : c.kind === 'timeout'
          ? { kind: 'timeout', timeoutMs: c.timeoutMs! }
          : { kind: 'network', code: codes[c.network!] };
    return {
      retryable: isRetryable(failure, c.repeatable),
      stoppedBecause: whyNotRetried(failure, c.repeatable, c.attempts, c.maxRetries),
      delayMs: delayBeforeRetry(failure, c.attempts - 1, settings),
      describe: c.kind === 'network' && c.network !== 'refused' ? null : describeAttempt(failure),
    };
  });
}

describe('the Java SDK', () => {
  let svc: TestService;
  let dns: TestDnsServer;
  let delivery: ReturnType<typeof httpDeliver>;
  let key: { realm: string; clientId: string; clientSecret: string };
  let users: { ann: string; bob: string; carol: string };
  let env: NodeJS.ProcessEnv;
  let classPath: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    dns.setTxt(domainRecordName(VERIFIED_DOMAIN), [domainRecordValue(VERIFIED_ORG_ID, VERIFIED_DOMAIN)]);
    delivery = httpDeliver(true);
    let dispatcher: WebhookDispatcher | undefined;
    svc = await startTestService({
      app: { dnsServer: dns.address, allowPrivateWebhooks: true },
      configure: (app) =>
        app.addHook('onRequest', async (request) => {
          if (request.method !== 'GET' || !SENDS_LIST.test(request.url) || !dispatcher) return;
          // Every attempt is answered by the receiver, so no run waits for a backoff.
          for (let run = 0; run < 100; run += 1) {
            const { handedOut, attempts } = await dispatcher.runOnce();
            if (handedOut === 0 && attempts === 0) return;
          }
          throw new Error('webhook delivery did not settle within 100 runs');
        }),
    });
    dispatcher = new WebhookDispatcher(svc.store.events, { owner: 'java-sdk-test', deliver: delivery.deliver, now: Date.now, random: () => 0.5 });
    key = await createTestRealm(svc, 'acme');
    const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
    const ann = await svc.admin.createUser('acme', { username: 'ann', email: 'ann@example.com', firstName: 'Ann', password: 'ann-pw' });
    const bob = await svc.admin.createUser('acme', { username: 'bob', email: 'bob@example.com' });
    const carol = await svc.admin.createUser('acme', { username: 'carol', email: 'carol@example.com' });
    users = { ann: ann.id, bob: bob.id, carol: carol.id };
    env = {
      ...process.env,
      ORGADMIN_IT_BASE_URL: svc.baseUrl,
      ORGADMIN_IT_REALM: key.realm,
      ORGADMIN_IT_CLIENT_ID: key.clientId,
      ORGADMIN_IT_CLIENT_SECRET: key.clientSecret,
      ORGADMIN_IT_VIEWER_CLIENT_ID: viewer.clientId,
      ORGADMIN_IT_VIEWER_CLIENT_SECRET: viewer.clientSecret,
      ORGADMIN_IT_ANN_ID: users.ann,
      ORGADMIN_IT_ANN_PASSWORD: 'ann-pw',
      ORGADMIN_IT_BOB_ID: users.bob,
      ORGADMIN_IT_CAROL_ID: users.carol,
      ORGADMIN_IT_VERIFIED_ORG_ID: VERIFIED_ORG_ID,
      ORGADMIN_IT_VERIFIED_DOMAIN: VERIFIED_DOMAIN,
    };
    classPath = [TEST_CLASSES, JAR].join(':');
    // The build script skips quietly without a JDK (so `npm run build` works anywhere); this test
    // must not: it says what is missing.
    await run('javac', ['-version']).catch(() => {
      throw new Error('javac is not on PATH: install a JDK 17 (Debian: default-jdk-headless) to build and test the Java SDK');
    });
    // The build runs here rather than relying on `npm run build`, so this file also works alone.
    await run(process.execPath, [join(ROOT, 'scripts/build-java.mjs'), '--tests'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  }, 180_000);

  afterAll(async () => {
    await svc?.close();
    await delivery?.close();
    await dns?.close();
  });

  it('builds the jar and the tests with the JDK', () => {
    expect(existsSync(JAR)).toBe(true);
    expect(existsSync(join(TEST_CLASSES, 'dev/orgadmin/client/IntegrationTest.class'))).toBe(true);
    expect(existsSync(JUNIT_CONSOLE)).toBe(true);
  });

  it('passes its JUnit tests: token source and retries against stubs, every operation against this service', async () => {
    rmSync(RESULTS, { recursive: true, force: true });
    mkdirSync(RESULTS, { recursive: true });
    const started = Date.now();
    const result = await runJava(
      ['-jar', JUNIT_CONSOLE, '--disable-banner', '--disable-ansi-colors', '--details=summary', '--class-path', classPath,
        '--scan-class-path', '--reports-dir', RESULTS],
      env,
    );
    const seconds = (Date.now() - started) / 1000;
    const reportFile = join(RESULTS, 'TEST-junit-jupiter.xml');
    const report = existsSync(reportFile) ? readReport(reportFile) : { tests: 0, failed: 1, skipped: 0, classes: new Set<string>() };
    writeFileSync(
      SUMMARY,
      `${JSON.stringify({ tests: report.tests, passed: report.tests - report.failed - report.skipped, failed: report.failed, skipped: report.skipped, seconds }, null, 2)}\n`,
    );
    if (result.code !== 0 || report.failed !== 0) {
      throw new Error(`the Java tests failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
    }

    expect(report.tests).toBeGreaterThan(0);
    expect(report.failed).toBe(0);
    expect(report.skipped).toBe(0);
    for (const suite of ['ClientCredentialsTokenSourceTest', 'RetryTest', 'TransportTest', 'RetryPolicyTest', 'JsonTest', 'ClientOptionsTest', 'IntegrationTest', 'RolesTest',
      'WireValuesTest', 'SsoAndWebhooksTest', 'SsoAndEventsIntegrationTest']) {
      expect(report.classes).toContain(`dev.orgadmin.client.${suite}`);
    }
    // The service answered the integration tests.
    expect(svc.requests.some((r) => r.method === 'POST' && r.url === '/realms/acme/orgs' && r.status === 201)).toBe(true);
  }, 180_000);

  it('retries by the same policy as the TypeScript SDK, case by case', async () => {
    const cases = policyCases();
    const file = join(JAVA, 'build/retry-policy-cases.json');
    writeFileSync(file, JSON.stringify(cases));
    const java = await runJava(['-cp', classPath, 'dev.orgadmin.client.RetryPolicyTable', file], env);
    if (java.code !== 0) throw new Error(`the Java policy table failed (exit ${java.code}):\n${java.stdout}\n${java.stderr}`);
    const fromJava = JSON.parse(java.stdout.trim()) as unknown[];

    expect(fromJava).toHaveLength(cases.length);
    const fromTypeScript = typeScriptDecisions(cases);
    // Case by case, so a difference names the failure it is about.
    cases.forEach((c, i) => expect({ case: c, decision: fromJava[i] }).toEqual({ case: c, decision: fromTypeScript[i] }));
  }, 60_000);

  it('sees the same as the TypeScript SDK when both run one scenario against one service', async () => {
    const name = 'cross-check';
    const fromTypeScript = await scenarioWithTypeScript(svc, key, users, name);
    const java = await runJava(['-cp', classPath, 'dev.orgadmin.client.CrossCheckScenario'], { ...env, ORGADMIN_XC_NAME: name });
    if (java.code !== 0) throw new Error(`the Java scenario failed (exit ${java.code}):\n${java.stdout}\n${java.stderr}`);
    const fromJava: unknown = JSON.parse(java.stdout.trim());

    expect(fromJava).toEqual(fromTypeScript);
    // And what both saw is what the scenario did.
    expect(fromTypeScript).toMatchObject({
      idMatches: true,
      duplicate: { code: 'ORGADMIN_CONFLICT', status: 409, error: 'conflict' },
      afterAdd: { ann: true, bob: true, carol: false },
      members: ['ann', 'bob', 'org-admin-{id}'],
      memberCount: 3,
      memberCountWithoutAdmins: 2,
      found: [name],
      roleCreated: { name: 'xc-editor', description: 'Edits' },
      granted: [
        ['xc-editor', 201, true, null],
        ['view-members', 201, true, null],
        ['ghost', 400, false, 'Organization {id} has no role ghost.'],
      ],
      annRoles: ['view-members', 'xc-editor'],
      hasRole: { ann: true, bob: false },
      roleUsers: ['ann'],
      grantToNonMember: { code: 'ORGADMIN_BAD_REQUEST', status: 400, error: 'not_member' },
      revoked: [['view-members', 204, true]],
      deleted: [
        ['xc-editor', 204, true, null],
        ['view-roles', 400, false, 'Default organization role view-roles cannot be deleted.'],
      ],
      annRolesAfter: [],
      annOrganizations: [name],
      afterRemove: { ann: true, bob: false },
      membersAfterRemove: ['ann', 'org-admin-{id}'],
      afterDelete: { code: 'ORGADMIN_NOT_FOUND', status: 404, error: 'not_found' },
      isMemberAfterDelete: false,
    });
    const auditLog = (fromTypeScript as { auditLog: string[][] }).auditLog;
    expect(auditLog[0]).toEqual(['admin.ORGANIZATION-DELETE', 'orgs/{id}']);
    expect(auditLog[auditLog.length - 1]).toEqual(['admin.ORGANIZATION-CREATE', 'orgs/{id}']);
    expect(auditLog).toContainEqual(['admin.ORGANIZATION_MEMBERSHIP-CREATE', `orgs/{id}/members/${users.bob}`]);
  }, 120_000);
});
