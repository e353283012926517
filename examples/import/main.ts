/**
 * Synthesizes the import example into `cdktf.out/stacks/import` (or `$CDKTF_OUTDIR`).
 *
 * ```sh
 * ORGADMIN_IMPORT_ORGANIZATION_ID=<id of the existing organization> \
 *   node --require ./examples/register.js examples/import/main.ts
 * terraform -chdir=cdktf.out/stacks/import init
 * terraform -chdir=cdktf.out/stacks/import plan    # "2 to import, 0 to add, 0 to change, 0 to destroy"
 * terraform -chdir=cdktf.out/stacks/import apply
 * ```
 */
import { App } from 'cdktf';
import { ImportStack } from './stack';

const organizationId = process.env.ORGADMIN_IMPORT_ORGANIZATION_ID;
if (organizationId === undefined || organizationId === '') {
  process.stderr.write('examples/import: set ORGADMIN_IMPORT_ORGANIZATION_ID to the id of the organization to bring under management.\n');
  process.exit(1);
}

const app = new App();
new ImportStack(app, 'import', { organizationId, stateFile: process.env.ORGADMIN_STATE_FILE || undefined });
app.synth();
