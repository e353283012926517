/**
 * The `orgadmin` command run from this checkout's sources (no build needed):
 * `node --require examples/register.js test/service/broker/orgadmin-from-source.ts serve ...`.
 * The single sign-on browser test starts the upstream service with it, as a process of its own.
 */
import { main } from '../../../src/cli/main';
import { processIO } from '../../../src/cli/io';

void main(process.argv.slice(2), processIO()).then((code) => {
  process.exitCode = code;
});
