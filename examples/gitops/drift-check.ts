/**
 * Drift check for a synthesized orgadmin stack: what a pipeline runs on a schedule.
 *
 * Runs `terraform plan -detailed-exitcode` in the stack's directory and exits like it does:
 * 0 no drift, 2 drift (or unapplied changes), 1 the check itself failed. On drift it prints a
 * readable summary built from `terraform show -json` of the saved plan: what changed outside
 * Terraform (a member removed by hand, a renamed organization, a role granted or revoked by hand)
 * and what an apply would do, each resource named by its Terraform address and its construct path,
 * each user by email (or username) when the credentials may look users up (`view-users`), by id
 * otherwise, and a member's roles by member and role (`revoked outside Terraform: "billing"`,
 * `grant "billing" to alice@example.com`).
 *
 * ```sh
 * node --require ./examples/register.js examples/gitops/drift-check.ts cdktf.out/stacks/gitops
 * ```
 *
 * The `terraform` process gets this process's environment (provider settings `ORGADMIN_*`, state
 * backend `PG_CONN_STR`...); `TERRAFORM` overrides the binary. The user lookup uses the same
 * `ORGADMIN_*` settings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runProcess } from '../../src/cli/process-runner';
import { lookupUserNames, NO_USER_NAMES, userLookupFromEnvironment, type FindUsersPage, type UserNames } from './user-names';

/** Exit codes of the drift check (the same as `terraform plan -detailed-exitcode`). */
export const DRIFT_EXIT = { none: 0, failed: 1, drift: 2 } as const;

/** One resource change in `terraform show -json` output (the parts the summary uses). */
interface ResourceChange {
  address: string;
  type: string;
  change: {
    actions: string[];
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    after_unknown?: Record<string, unknown>;
    before_sensitive?: unknown;
    after_sensitive?: unknown;
  };
}

/** The parts of a plan's JSON the summary reads. */
export interface PlanJson {
  resource_drift?: ResourceChange[];
  resource_changes?: ResourceChange[];
}

/** Options of {@link checkDrift}. */
export interface DriftCheckOptions {
  /** The synthesized stack's directory (holding `cdk.tf.json`, already `terraform init`ed). */
  readonly dir: string;
  /** The terraform binary. @default `$TERRAFORM` or `terraform` on PATH */
  readonly terraform?: string;
  /** Environment of the terraform processes. @default this process's environment */
  readonly env?: NodeJS.ProcessEnv;
  /** How long to wait for a state lock held by another run. @default '60s' */
  readonly lockTimeout?: string;
  /**
   * How users are looked up to name them in the summary: a page reader and the realm of resources
   * that do not name their own, or false to show ids. @default the SDK with the `ORGADMIN_*`
   * settings of `env`, when it holds them
   */
  readonly users?: { readonly findPage: FindUsersPage; readonly defaultRealm: string } | false;
}

/** What {@link checkDrift} found. */
export interface DriftReport {
  /** 0 no drift, 2 drift, 1 the check failed. */
  readonly exitCode: number;
  /** The human summary (several lines). */
  readonly summary: string;
}

/** Plans the stack in `dir` and reports drift. */
export async function checkDrift(options: DriftCheckOptions): Promise<DriftReport> {
  const dir = resolve(options.dir);
  const terraform = options.terraform ?? process.env.TERRAFORM ?? 'terraform';
  const env = { CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', ...(options.env ?? process.env) };
  if (!existsSync(join(dir, 'cdk.tf.json'))) {
    return { exitCode: DRIFT_EXIT.failed, summary: `Drift check failed: ${dir} holds no cdk.tf.json; synthesize the stack first.` };
  }
  const work = await mkdtemp(join(tmpdir(), 'orgadmin-drift-'));
  try {
    const planFile = join(work, 'drift.tfplan');
    // A non-zero exit is a result here: 2 is "changes", i.e. drift.
    const plan = await runProcess(
      terraform,
      [`-chdir=${dir}`, 'plan', '-detailed-exitcode', '-input=false', '-no-color', `-lock-timeout=${options.lockTimeout ?? '60s'}`, `-out=${planFile}`],
      { env },
    );
    if (plan.code === 0) return { exitCode: DRIFT_EXIT.none, summary: `No drift: the service matches ${dir}.` };
    if (plan.code !== 2) {
      return { exitCode: DRIFT_EXIT.failed, summary: `Drift check failed: terraform plan exited ${plan.code}.\n${plan.stderr.trim() || plan.stdout.trim()}` };
    }
    const show = await runProcess(terraform, [`-chdir=${dir}`, 'show', '-json', planFile], { env });
    if (show.code !== 0) {
      return { exitCode: DRIFT_EXIT.failed, summary: `Drift check failed: terraform show exited ${show.code}.\n${show.stderr.trim()}` };
    }
    const planJson = JSON.parse(show.stdout) as PlanJson;
    const users = await nameUsers(planJson, options.users, env);
    const summary = summarizePlan(planJson, constructPaths(dir), users);
    return { exitCode: DRIFT_EXIT.drift, summary: `Drift detected in ${dir}.\n${summary}` };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The attributes of orgadmin resources that hold user ids: one (`user_id`) or a set (`user_ids`). */
const USER_ID_ATTRIBUTES = new Set(['user_id', 'user_ids']);

/**
 * The user ids a plan mentions, by realm: the resource's own `realm` when it has one, else
 * `defaultRealm` (the provider's).
 */
export function userIdsOf(plan: PlanJson, defaultRealm: string): Map<string, Set<string>> {
  const byRealm = new Map<string, Set<string>>();
  for (const change of [...(plan.resource_drift ?? []), ...(plan.resource_changes ?? [])]) {
    for (const values of [change.change.before, change.change.after]) {
      if (values === null) continue;
      const realm = typeof values.realm === 'string' && values.realm !== '' ? values.realm : defaultRealm;
      for (const name of USER_ID_ATTRIBUTES) {
        const value = values[name];
        const ids = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string' && id !== '');
        if (ids.length === 0) continue;
        const set = byRealm.get(realm) ?? new Set<string>();
        for (const id of ids) set.add(id);
        byRealm.set(realm, set);
      }
    }
  }
  return byRealm;
}

/** Looks up the names of the plan's users as `users` (or the environment) says; ids only when it cannot. */
async function nameUsers(plan: PlanJson, users: DriftCheckOptions['users'], env: NodeJS.ProcessEnv): Promise<UserNames> {
  if (users === false) return NO_USER_NAMES;
  if (users !== undefined) return lookupUserNames(userIdsOf(plan, users.defaultRealm), users.findPage);
  const lookup = userLookupFromEnvironment(env);
  if (lookup === undefined) return NO_USER_NAMES;
  try {
    const ids = userIdsOf(plan, lookup.defaultRealm);
    return ids.size === 0 ? NO_USER_NAMES : await lookupUserNames(ids, lookup.findPage);
  } finally {
    await lookup.close();
  }
}

/**
 * Maps Terraform addresses (`orgadmin_membership.acme_Member-alice_BE346D15`) to construct paths
 * (`basic/acme/Member-alice`) from the metadata cdktf writes into `cdk.tf.json`.
 */
export function constructPaths(dir: string): Map<string, string> {
  const paths = new Map<string, string>();
  const file = join(dir, 'cdk.tf.json');
  if (!existsSync(file)) return paths;
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  for (const [kind, prefix] of [['resource', ''], ['data', 'data.']] as const) {
    const byType = (config[kind] ?? {}) as Record<string, Record<string, { '//'?: { metadata?: { path?: string } } }>>;
    for (const [type, byName] of Object.entries(byType)) {
      for (const [name, block] of Object.entries(byName)) {
        const path = block['//']?.metadata?.path;
        if (path !== undefined) paths.set(`${prefix}${type}.${name}`, path.replace(/\/Default$/, ''));
      }
    }
  }
  return paths;
}

/** Verbs for the action lists Terraform writes. */
function describeActions(actions: readonly string[]): { symbol: string; verb: string } {
  const key = actions.join(',');
  if (key === 'create') return { symbol: '+', verb: 'create' };
  if (key === 'delete') return { symbol: '-', verb: 'delete' };
  if (key === 'update') return { symbol: '~', verb: 'update' };
  if (key === 'delete,create' || key === 'create,delete') return { symbol: '-/+', verb: 'replace' };
  if (key === 'read') return { symbol: '<=', verb: 'read' };
  return { symbol: '?', verb: key };
}

/** Renders one value briefly for a summary line. */
function brief(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}

/**
 * Renders a value of attribute `name`: a user id as the user's email or username when `users`
 * knows it (`alice@example.com`, unquoted, so it cannot be mistaken for the id), anything else as
 * {@link brief}.
 */
function briefValue(name: string, value: unknown, users: UserNames): string {
  if (USER_ID_ATTRIBUTES.has(name) && typeof value === 'string') return users.names.get(value) ?? brief(value);
  return brief(value);
}

/** True when `path` of a `*_sensitive` mask marks the attribute sensitive. */
function isSensitive(mask: unknown, name: string): boolean {
  return typeof mask === 'object' && mask !== null && (mask as Record<string, unknown>)[name] === true;
}

/** The attribute-level differences of one change, one short phrase each. */
function attributeDifferences(change: ResourceChange['change'], users: UserNames): string[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const phrases: string[] = [];
  for (const name of names) {
    if (isSensitive(change.before_sensitive, name) || isSensitive(change.after_sensitive, name)) {
      if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) phrases.push(`${name} (sensitive) changed`);
      continue;
    }
    if (change.after_unknown && (change.after_unknown as Record<string, unknown>)[name] === true) continue;
    const a = before[name];
    const b = after[name];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (Array.isArray(a) && Array.isArray(b)) {
      // Sets (domains, member sets) read best as what joined and what left.
      const added = b.filter((item) => !a.some((other) => JSON.stringify(other) === JSON.stringify(item)));
      const removed = a.filter((item) => !b.some((other) => JSON.stringify(other) === JSON.stringify(item)));
      const parts = [...added.map((item) => `+${briefValue(name, item, users)}`), ...removed.map((item) => `-${briefValue(name, item, users)}`)];
      phrases.push(`${name}: ${parts.length > 0 ? parts.join(' ') : 'reordered'}`);
    } else {
      phrases.push(`${name}: ${briefValue(name, a, users)} → ${briefValue(name, b, users)}`);
    }
  }
  return phrases;
}

/** The resource type holding one member's roles: its changes are told by member and role. */
const MEMBER_ROLES_TYPE = 'orgadmin_organization_member_roles';

/** The role names of a member's roles value (`roles`), or none. */
const roleNames = (values: Record<string, unknown> | null): string[] =>
  Array.isArray(values?.roles) ? (values!.roles as unknown[]).filter((role): role is string => typeof role === 'string') : [];

/**
 * The lines under a change of one member's roles: who the member is, and each role granted or
 * revoked, outside Terraform (`outside`) or by the apply.
 */
function memberRolesLines(change: ResourceChange['change'], outside: boolean, users: UserNames): string[] {
  const values = change.after ?? change.before ?? {};
  const member = briefValue('user_id', values.user_id, users);
  const where = `in organization ${brief(values.organization_id)}`;
  const before = roleNames(change.before);
  const after = roleNames(change.after);
  const granted = after.filter((role) => !before.includes(role)).map(brief);
  const revoked = before.filter((role) => !after.includes(role)).map(brief);
  if (outside) {
    const lines = [`      member ${member} ${where}`];
    if (change.after === null) lines.push(`      held ${before.length > 0 ? before.map(brief).join(', ') : 'no role'}; a removed member loses their roles`);
    if (granted.length > 0) lines.push(`      granted outside Terraform: ${granted.join(', ')}`);
    if (revoked.length > 0) lines.push(`      revoked outside Terraform: ${revoked.join(', ')}`);
    return lines;
  }
  return [...granted.map((role) => `      grant ${role} to ${member} ${where}`), ...revoked.map((role) => `      revoke ${role} from ${member} ${where}`)];
}

/** One resource of the summary: address, construct path and what happened to it. */
function describeChange(change: ResourceChange, paths: ReadonlyMap<string, string>, outside: boolean, users: UserNames): string[] {
  const { symbol, verb } = describeActions(change.change.actions);
  const path = paths.get(change.address);
  const name = `${change.address}${path !== undefined ? ` (${path})` : ''}`;
  if (change.type === MEMBER_ROLES_TYPE && verb !== 'read') {
    const head = outside
      ? `  ${symbol} ${name}: ${verb === 'delete' ? "member's roles gone outside Terraform" : "member's roles changed outside Terraform"}`
      : `  ${symbol} ${verb} ${name}`;
    return [head, ...memberRolesLines(change.change, outside, users)];
  }
  const head = outside
    ? `  ${symbol} ${name}: ${verb === 'delete' ? 'deleted outside Terraform' : verb === 'update' ? 'changed outside Terraform' : verb}`
    : `  ${symbol} ${verb} ${name}`;
  const lines = [head];
  if (outside && verb === 'delete' && change.change.before) {
    const identity = Object.entries(change.change.before)
      .filter(([key, value]) => key !== 'id' && typeof value === 'string' && !isSensitive(change.change.before_sensitive, key))
      .map(([key, value]) => `${key}=${briefValue(key, value, users)}`);
    if (identity.length > 0) lines.push(`      was ${identity.join(', ')}`);
  } else if (verb === 'update' || verb === 'replace') {
    for (const phrase of attributeDifferences(change.change, users)) lines.push(`      ${phrase}`);
  }
  return lines;
}

/**
 * The human summary of a plan with changes: what drifted outside Terraform, then what an apply
 * would do. Resource names come with their construct path when `paths` knows it; user ids are
 * shown as the names `users` has for them.
 */
export function summarizePlan(plan: PlanJson, paths: ReadonlyMap<string, string> = new Map(), users: UserNames = NO_USER_NAMES): string {
  const drift = (plan.resource_drift ?? []).filter((c) => !c.change.actions.every((a) => a === 'no-op'));
  const changes = (plan.resource_changes ?? []).filter((c) => !c.change.actions.every((a) => a === 'no-op' || a === 'read'));
  const lines: string[] = [];
  if (drift.length > 0) {
    lines.push(`Changed outside Terraform (${drift.length}):`);
    for (const change of drift) lines.push(...describeChange(change, paths, true, users));
  } else {
    lines.push('Nothing changed outside Terraform: the configuration has changes that are not applied yet.');
  }
  if (changes.length > 0) {
    lines.push(`An apply would make ${changes.length} change${changes.length === 1 ? '' : 's'}:`);
    for (const change of changes) lines.push(...describeChange(change, paths, false, users));
  }
  if (users.note !== undefined) lines.push(users.note);
  lines.push('Run `terraform apply` on this stack (or merge the change that explains the drift) to bring the service back in line.');
  return lines.join('\n');
}

/** The command line: `drift-check [DIR]` (default `cdktf.out/stacks/gitops`). */
async function main(argv: readonly string[]): Promise<number> {
  if (argv.length > 1 || argv[0]?.startsWith('-')) {
    process.stderr.write('usage: drift-check [STACK_DIR]   (default cdktf.out/stacks/gitops)\n');
    return DRIFT_EXIT.failed;
  }
  const report = await checkDrift({ dir: argv[0] ?? join('cdktf.out', 'stacks', 'gitops') });
  (report.exitCode === DRIFT_EXIT.failed ? process.stderr : process.stdout).write(`${report.summary}\n`);
  return report.exitCode;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`Drift check failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = DRIFT_EXIT.failed;
    },
  );
}
