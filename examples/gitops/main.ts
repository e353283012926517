/**
 * Synthesizes the GitOps example into `cdktf.out/stacks/gitops` (or `$CDKTF_OUTDIR`).
 *
 * ```sh
 * export PG_CONN_STR=postgres://terraform@db.internal/terraform_state PGPASSWORD=...
 * node --require ./examples/register.js examples/gitops/main.ts
 * terraform -chdir=cdktf.out/stacks/gitops init && terraform -chdir=cdktf.out/stacks/gitops apply
 * node --require ./examples/register.js examples/gitops/drift-check.ts cdktf.out/stacks/gitops
 * ```
 *
 * `PG_CONN_STR` is the state database (the same variable Terraform's pg backend reads; keep the
 * password out of it, in `PGPASSWORD`). `ORGADMIN_GITOPS_CONFIG` may name another declarations
 * file than `organizations.json` next to this file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'cdktf';
import { GitopsStack, type GitopsConfig } from './stack';

const connectionString = process.env.PG_CONN_STR;
if (connectionString === undefined || connectionString === '') {
  process.stderr.write('examples/gitops: set PG_CONN_STR to the PostgreSQL database that holds the Terraform state.\n');
  process.exit(1);
}
const configFile = process.env.ORGADMIN_GITOPS_CONFIG || join(__dirname, 'organizations.json');
const config = JSON.parse(readFileSync(configFile, 'utf8')) as GitopsConfig;

const app = new App();
new GitopsStack(app, 'gitops', { config, stateConnectionString: connectionString });
app.synth();
