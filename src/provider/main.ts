/**
 * The executable Terraform starts: serves the orgadmin provider over Terraform's plugin protocol.
 * Nothing may be written to stdout before the runtime prints its handshake line, so failures go
 * to stderr.
 */
import { serveProvider } from './framework/serve';
import { orgadminProvider } from './provider';

Promise.resolve()
  .then(() => serveProvider(orgadminProvider))
  .catch((error: unknown) => {
    process.stderr.write(`terraform-provider-orgadmin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
