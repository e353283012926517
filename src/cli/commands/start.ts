/**
 * `orgadmin start` (what `npm start` runs): the whole loop on the embedded default, start to end.
 *
 * 1. checks that Terraform is installed;
 * 2. starts the service on a free port of 127.0.0.1 with its SQLite file under `.orgadmin/`;
 * 3. bootstraps the demo realm, its API key, the users alice, bob and carol and the realm
 *    administrator `admin` (idempotently);
 * 4. installs the provider into a project-local mirror (`.orgadmin/plugins`, used through a CLI
 *    configuration file `.orgadmin/terraform.rc`, so nothing is written into HOME);
 * 5. synthesizes `examples/basic`;
 * 6. `terraform init`, 7. `terraform apply`, 8. a second `terraform plan` that must be empty;
 * then prints what exists and how to open the dashboard (sign in as `admin`, password in the
 * credentials file, never printed), stops the service and exits.
 *
 * It runs in a clone of the repository only (it needs `examples/` and the dev dependencies that
 * run them); elsewhere it refuses before step 1 and says what to run instead.
 *
 * State stays under `.orgadmin/`, so a second run finds everything in place and applies nothing.
 * Each step prints a progress line; a failing step says which step failed and why.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { redactKnownSecrets } from '../../api/redaction';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../client';
import { installProvider, mirrorCliConfig, type InstalledProvider } from '../../distribution/install';
import { Admin } from '../../service/admin';
import { startServer, type RunningServer } from '../../service/server';
import { defineCommand } from '../command';
import { COMMON_FLAGS, resolveDataFile } from '../context';
import { CliError, EXIT } from '../errors';
import type { CliIO } from '../io';
import { printJson } from '../output';
import { runProcess, type ProcessResult } from '../process-runner';
import { dashboardPath } from '../../service/login-paths';
import { bootstrapDemo, DEMO_CREDENTIALS_FILE, type DemoBootstrap } from './demo-bootstrap';
import { DEFAULT_PORT } from './serve';

/** The package root: `src/cli/commands` and `dist/cli/commands` are both three levels down. */
const PACKAGE_ROOT = resolve(__dirname, '..', '..', '..');

/** The example this loop applies, and the stack it defines. */
const EXAMPLE = { dir: join('examples', 'basic'), stack: 'basic' } as const;

/**
 * What `orgadmin start` needs besides the package itself: the example's TypeScript sources and the
 * packages that run them, which a clone of the repository has (`npm install`) and an installed
 * package does not (it ships `dist/`, not `examples/`, and no dev dependencies).
 */
const CHECKOUT_NEEDS = {
  files: [join(EXAMPLE.dir, 'main.ts'), join(EXAMPLE.dir, 'stack.ts'), join('examples', 'register.js')],
  packages: ['@swc/core', 'cdktf', 'constructs'],
} as const;

/**
 * Refuses up front, before anything starts, to run where `examples/basic` cannot be synthesized,
 * saying what to do instead: better than a service started and a provider installed for a run that
 * then fails at its fifth step.
 * @param root the package root to check (the installed package's own by default)
 * @throws CliError naming what is missing and the two ways forward
 */
export function checkRepositoryCheckout(root: string = PACKAGE_ROOT): void {
  const missing: string[] = CHECKOUT_NEEDS.files.filter((file) => !existsSync(join(root, file)));
  for (const name of CHECKOUT_NEEDS.packages) {
    try {
      require.resolve(`${name}/package.json`, { paths: [root] });
    } catch {
      missing.push(`the ${name} package`);
    }
  }
  if (missing.length === 0) return;
  throw new CliError(
    `"orgadmin start" applies the repository's examples/basic and runs only in a clone of the orgadmin repository after "npm install" ` +
      `(here ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing). ` +
      'From an installed package, run "orgadmin demo" for the service with demo data and "orgadmin provider install" for the provider, ' +
      "then apply a stack of your own as the README's construct example shows",
  );
}

/** Where this run keeps its files, all under the data file's directory (`.orgadmin/`). */
interface Workspace {
  /** The directory (`.orgadmin`). */
  dir: string;
  /** The service's SQLite file. */
  dataFile: string;
  /** The provider mirror. */
  pluginDir: string;
  /** Terraform CLI configuration pointing at the mirror. */
  cliConfigFile: string;
  /** Where the example is synthesized. */
  outDir: string;
  /** The synthesized stack's directory, where terraform runs. */
  stackDir: string;
  /** Terraform state (local backend). */
  stateFile: string;
}

/** The files of a run next to the data file. */
function workspaceFor(dataFile: string): Workspace {
  const dir = dirname(dataFile);
  const outDir = join(dir, 'cdktf.out');
  return {
    dir,
    dataFile,
    pluginDir: join(dir, 'plugins'),
    cliConfigFile: join(dir, 'terraform.rc'),
    outDir,
    stackDir: join(outDir, 'stacks', EXAMPLE.stack),
    stateFile: join(dir, 'terraform.tfstate'),
  };
}

/** The Terraform CLI configuration that installs orgadmin from the project-local mirror only. */
function cliConfig(pluginDir: string): string {
  return '# Written by `orgadmin start`: orgadmin comes from the project-local mirror, nothing from the network.\n' + mirrorCliConfig(pluginDir);
}

/**
 * The environment of terraform and the synth: the caller's, without its `TF_*` and `ORGADMIN_*`
 * settings (a machine-wide `TF_CLI_CONFIG_FILE` would decide where providers come from), plus
 * `extra`. Node's own directory goes first on PATH: the provider launcher finds `node` through `/usr/bin/env`.
 */
function childEnv(io: CliIO, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(io.env)) {
    if (!name.startsWith('TF_') && !name.startsWith('ORGADMIN_')) env[name] = value;
  }
  env.PATH = [dirname(process.execPath), io.env.PATH ?? ''].filter((part) => part !== '').join(delimiter);
  env.CHECKPOINT_DISABLE = '1';
  env.TF_IN_AUTOMATION = '1';
  return { ...env, ...extra };
}

/** Terraform's `Apply complete! Resources: 2 added, 0 changed, 0 destroyed.` counts. */
function applyCounts(stdout: string): { added: number; changed: number; destroyed: number } | undefined {
  const match = /Resources: (\d+) added, (\d+) changed, (\d+) destroyed/.exec(stdout);
  if (!match) return undefined;
  return { added: Number(match[1]), changed: Number(match[2]), destroyed: Number(match[3]) };
}

/** One organization in the summary. */
interface OrganizationSummary {
  name: string;
  id: string;
  /** Usernames, sorted. */
  members: string[];
}

/** What a successful run reports (also the `--json` output). */
export interface StartResult {
  /** The service's address during the run (it is stopped at the end). */
  url: string;
  /** The demo realm the example was applied to. */
  realm: string;
  /** What the apply did. */
  applied: { added: number; changed: number; destroyed: number };
  /** The realm's organizations after the run, each with its members (default admin excepted). */
  organizations: OrganizationSummary[];
  /** The Terraform state file (local backend). */
  stateFile: string;
  /** The service's SQLite file. */
  dataFile: string;
  /** The synthesized stack's directory, where terraform ran. */
  stackDir: string;
  /** How to open the demo realm's dashboard once `orgadmin serve` runs on the same data. */
  dashboard: {
    /** The dashboard's path on the service (`/realms/demo/dashboard`). */
    path: string;
    /** The realm administrator to sign in as. */
    username: string;
    /** The file whose `adminPassword` is the administrator's password (never printed). */
    credentialsFile: string;
  };
}

/** Prints progress lines and turns a failure into "step N/M (name) failed: why". */
class Progress {
  private step = 0;

  constructor(
    private readonly io: CliIO,
    private readonly total: number,
    private readonly quiet: boolean,
    private readonly secrets: () => readonly string[],
  ) {}

  /** Runs one step: prints its name, then its outcome; a failure names the step. */
  async run<T>(name: string, work: () => Promise<T>, outcome: (value: T) => string): Promise<T> {
    this.step += 1;
    const label = `[${this.step}/${this.total}] ${name}`;
    if (!this.quiet) this.io.stdout(`${label} ...`);
    let value: T;
    try {
      value = await work();
    } catch (error) {
      if (!this.quiet) this.io.stdout(' failed\n');
      const reason = error instanceof Error ? error.message : String(error);
      throw new CliError(`step ${this.step}/${this.total} (${name}) failed: ${this.redact(reason)}`);
    }
    if (!this.quiet) this.io.stdout(` ${this.redact(outcome(value))}\n`);
    return value;
  }

  /** Removes the run's secrets from text that is about to be shown (`***` in their place). */
  redact(text: string): string {
    return redactKnownSecrets(text, this.secrets(), '***');
  }
}

/** Shortens terraform's error output to its meaningful lines for a one-paragraph message. */
function terraformFailure(what: string, result: ProcessResult): Error {
  const text = (result.stderr.trim() || result.stdout.trim())
    .split('\n')
    .map((line) => line.replace(/^[│╷╵]\s?/, '').trimEnd())
    .filter((line) => line !== '')
    .slice(-12)
    .join('\n  ');
  return new Error(`${what} exited ${result.code}:\n  ${text}`);
}

/** Every organization of the client's realm with its members' usernames, for the summary. */
async function summarizeOrganizations(client: OrgAdminClient): Promise<OrganizationSummary[]> {
  const organizations: OrganizationSummary[] = [];
  for (const org of await client.listAllOrganizations()) {
    const members = await client.listAllMembers(org.id, { excludeAdminAccounts: true });
    organizations.push({ name: org.name, id: org.id, members: members.map((m) => m.username).sort() });
  }
  return organizations;
}

/**
 * The whole loop (see the file comment). `dataFile` decides where everything is kept; progress goes
 * to `io.stdout` unless `json`. Rejects with a {@link CliError} naming the step that failed.
 */
export async function runStartLoop(options: { dataFile: string; json: boolean }, io: CliIO): Promise<StartResult> {
  checkRepositoryCheckout();
  const ws = workspaceFor(options.dataFile);
  const terraform = io.env.TERRAFORM ?? 'terraform';
  let demo: DemoBootstrap | undefined;
  const progress = new Progress(io, 8, options.json, () => (demo ? [demo.clientSecret, demo.adminPassword] : []));
  const shown = (path: string): string => relative(io.cwd, path) || '.';
  if (!options.json) io.stdout(`orgadmin start: service, provider and examples/basic, end to end (files in ${shown(ws.dir)})\n`);

  await progress.run(
    'Checking Terraform',
    async () => {
      const result = await runProcess(terraform, ['version', '-json'], { cwd: io.cwd, env: childEnv(io, {}) }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') {
          throw new Error(`"${terraform}" was not found on PATH; install Terraform 1.11 (https://developer.hashicorp.com/terraform/install) or set TERRAFORM to its path`);
        }
        throw error;
      });
      if (result.code !== 0) throw terraformFailure('terraform version', result);
      return (JSON.parse(result.stdout) as { terraform_version: string }).terraform_version;
    },
    (v) => `terraform ${v}`,
  );

  const server: RunningServer = await progress.run(
    'Starting the service',
    () => startServer({ dataFile: ws.dataFile, host: '127.0.0.1', port: 0, logger: false }),
    (s) => `${s.url} (data ${shown(ws.dataFile)})`,
  );
  let client: OrgAdminClient | undefined;
  try {
    demo = await progress.run(
      'Bootstrapping the demo realm, API key and users',
      () => bootstrapDemo(new Admin(server.store), ws.dir),
      (d) => `realm "${d.realm}", users ${d.users.map((u) => u.username).join(', ')}, administrator ${d.adminUsername}`,
    );
    const credentials = demo;

    const installed = await progress.run(
      'Installing the provider',
      async (): Promise<InstalledProvider> => {
        const installed = await installProvider({ dir: ws.pluginDir });
        await writeFile(ws.cliConfigFile, cliConfig(ws.pluginDir));
        return installed;
      },
      (p) => `${p.version} into ${shown(ws.pluginDir)} (${p.status})`,
    );

    const terraformEnv = childEnv(io, {
      TF_CLI_CONFIG_FILE: ws.cliConfigFile,
      ORGADMIN_BASE_URL: server.url,
      ORGADMIN_REALM: credentials.realm,
      ORGADMIN_CLIENT_ID: credentials.clientId,
      ORGADMIN_CLIENT_SECRET: credentials.clientSecret,
    });
    const tf = async (what: string, args: string[], okCodes: readonly number[] = [0]): Promise<ProcessResult> => {
      const result = await runProcess(terraform, [`-chdir=${ws.stackDir}`, ...args], { cwd: io.cwd, env: terraformEnv });
      if (!okCodes.includes(result.code)) throw terraformFailure(what, result);
      return result;
    };

    await progress.run(
      `Synthesizing ${EXAMPLE.dir}`,
      async () => {
        // checkRepositoryCheckout made sure, before anything started, that both are there.
        const main = join(PACKAGE_ROOT, EXAMPLE.dir, 'main.ts');
        const register = join(PACKAGE_ROOT, 'examples', 'register.js');
        await mkdir(ws.outDir, { recursive: true });
        const result = await runProcess(process.execPath, ['--require', register, main], {
          cwd: PACKAGE_ROOT,
          env: childEnv(io, { CDKTF_OUTDIR: ws.outDir, ORGADMIN_STATE_FILE: ws.stateFile }),
        });
        if (result.code !== 0) throw new Error(`node ${join(EXAMPLE.dir, 'main.ts')} exited ${result.code}:\n  ${result.stderr.trim()}`);
      },
      () => shown(join(ws.stackDir, 'cdk.tf.json')),
    );

    await progress.run(
      'terraform init',
      async () => {
        // A rebuilt provider has other checksums than the ones an earlier run locked: the lock
        // file of this local demo is then stale, not a tampering alarm, so it is made afresh.
        if (installed.status !== 'unchanged') await rm(join(ws.stackDir, '.terraform.lock.hcl'), { force: true });
        await tf('terraform init', ['init', '-input=false', '-no-color']);
      },
      () => 'done',
    );

    const applied = await progress.run(
      'terraform apply',
      async () => {
        const result = await tf('terraform apply', ['apply', '-auto-approve', '-input=false', '-no-color']);
        const counts = applyCounts(result.stdout);
        if (counts === undefined) throw new Error('terraform apply finished without its "Resources: ..." line');
        return counts;
      },
      (c) => `${c.added} added, ${c.changed} changed, ${c.destroyed} destroyed`,
    );

    await progress.run(
      'terraform plan (must report no changes)',
      async () => {
        const result = await tf('terraform plan', ['plan', '-detailed-exitcode', '-input=false', '-no-color'], [0, 2]);
        if (result.code === 2) {
          const changes = result.stdout.split('\n').filter((line) => /^\s+# /.test(line)).map((line) => line.trim());
          throw new Error(`the plan after apply is not empty, so the provider does not converge:\n  ${changes.join('\n  ')}`);
        }
      },
      () => 'no changes',
    );

    client = new OrgAdminClient({
      baseUrl: server.url,
      realm: credentials.realm,
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: server.url, clientId: credentials.clientId, clientSecret: credentials.clientSecret }),
    });
    const organizations = await summarizeOrganizations(client).catch((error: unknown) => {
      // Not a numbered step, but a failure here must still say what was being done.
      const reason = error instanceof Error ? error.message : String(error);
      throw new CliError(`reading the organizations for the summary failed: ${progress.redact(reason)}`);
    });
    return {
      url: server.url,
      realm: credentials.realm,
      applied,
      organizations,
      stateFile: ws.stateFile,
      dataFile: ws.dataFile,
      stackDir: ws.stackDir,
      dashboard: { path: dashboardPath(credentials.realm), username: credentials.adminUsername, credentialsFile: join(ws.dir, DEMO_CREDENTIALS_FILE) },
    };
  } finally {
    await client?.close();
    await server.close();
  }
}

/** The closing summary for people. */
function summary(result: StartResult, io: CliIO): string {
  const shown = (path: string): string => relative(io.cwd, path) || '.';
  const width = Math.max(...result.organizations.map((o) => o.name.length), 4);
  const orgs = result.organizations.map((o) => `  ${o.name.padEnd(width)}  members: ${o.members.length > 0 ? o.members.join(', ') : '(none)'}`);
  const nothing = result.applied.added + result.applied.changed + result.applied.destroyed === 0;
  return [
    '',
    nothing ? 'Everything was already in place: the apply changed nothing.' : 'Applied examples/basic.',
    `Organizations in realm "${result.realm}":`,
    ...orgs,
    '',
    `Terraform state: ${shown(result.stateFile)}`,
    `Service data:    ${shown(result.dataFile)} (the service ran at ${result.url} and is stopped now)`,
    `Stack:           ${shown(result.stackDir)}/cdk.tf.json (from examples/basic/stack.ts)`,
    '',
    'Dashboard (API keys, users, organizations, realm settings):',
    `  npx orgadmin serve --data ${shown(result.dataFile)} --port ${DEFAULT_PORT}`,
    `  then open http://127.0.0.1:${DEFAULT_PORT}${result.dashboard.path}`,
    `  and sign in as "${result.dashboard.username}" with the "adminPassword" of ${shown(result.dashboard.credentialsFile)}`,
    '',
    `Run it again with \`npm start\`: a second run applies nothing. Delete ${shown(dirname(result.dataFile))}/ to start over.`,
    '',
  ].join('\n');
}

const start = defineCommand(
  {
    command: 'start',
    summary:
      'Runs the whole loop once: the service on a free port, the demo data, the provider, examples/basic synthesized, terraform init, apply and an empty second plan; then stops.',
    flags: { ...COMMON_FLAGS },
  },
  async ({ flags }, io) => {
    const dataFile = resolveDataFile(flags.data, io);
    const result = await runStartLoop({ dataFile, json: flags.json }, io);
    if (flags.json) printJson(io, result);
    else io.stdout(summary(result, io));
    return EXIT.ok;
  },
);

/** `orgadmin start ...`: the end-to-end loop `npm start` runs. */
export const runStart = start.run;

