/**
 * The executable Terraform starts: serves the orgadmin provider over Terraform's plugin protocol.
 * Nothing may be written to stdout before the runtime prints its handshake line, so failures go
 * to stderr.
 *
 * The provider definition (resources, SDK, API schemas) is required on the first provider RPC,
 * not imported: Terraform waits for the handshake line at each of its three starts per command,
 * and nothing in that module is needed to print it.
 */
import { serveProvider } from '../tfplugin/framework/serve';

Promise.resolve()
  .then(() =>
    serveProvider({
      // Must match PROVIDER_TYPE_NAME of ./provider (serveProvider checks on load); importing it
      // from there would load that whole module before the handshake.
      typeName: 'orgadmin',
      load: () => (require('./provider') as typeof import('./provider')).createOrgAdminProvider(),
    }),
  )
  .catch((error: unknown) => {
    process.stderr.write(`terraform-provider-orgadmin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
