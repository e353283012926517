/**
 * Synthesizes the basic example into `cdktf.out/stacks/basic/cdk.tf.json` (or `$CDKTF_OUTDIR`).
 *
 * ```sh
 * node --require ./examples/register.js examples/basic/main.ts   # or: cdktf synth
 * terraform -chdir=cdktf.out/stacks/basic init && terraform -chdir=cdktf.out/stacks/basic apply
 * ```
 *
 * `ORGADMIN_STATE_FILE`, when set, is where the local state is kept (`npm start` keeps it under
 * `.orgadmin/`); the provider reads `ORGADMIN_BASE_URL`, `ORGADMIN_REALM`, `ORGADMIN_CLIENT_ID` and
 * `ORGADMIN_CLIENT_SECRET` when `terraform` runs.
 */
import { App } from 'cdktf';
import { BasicStack } from './stack';

const app = new App();
new BasicStack(app, 'basic', { stateFile: process.env.ORGADMIN_STATE_FILE || undefined });
app.synth();
