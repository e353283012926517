/**
 * Runs a provider definition as a Terraform plugin in the current process.
 *
 * @example
 * // src/provider/main.ts — the executable Terraform starts
 * import { serveProvider } from './framework/serve';
 * import { orgadminProvider } from './provider';
 * void serveProvider(orgadminProvider);
 */
import { createJsonLogger, logLevelFromEnv, type JsonLogger } from '../protocol/log';
import { HandshakeError, startPluginServer, type PluginServer } from '../protocol/plugin-server';
import { ProviderService } from './provider-service';
import type { ProviderDefinition } from './types';

/** Options of {@link serveProvider}; the defaults are what Terraform needs, the rest is for tests. */
export interface ServeProviderOptions {
  /** Environment to read Terraform's handshake variables and log level from. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Receives the handshake line instead of stdout. When set, the process is treated as hosted
   * (a test): stdout, console and signals are left alone.
   */
  readonly writeHandshake?: (line: string) => void;
  /** Receives each log line instead of stderr. */
  readonly writeLog?: (line: string) => void;
  /** Ends the process after GRPCController/Shutdown or a failed handshake. @default process.exit */
  readonly exit?: (code: number) => void;
}

/** What {@link serveProvider} returns once the plugin is listening. */
export interface ServingProvider {
  /** The go-plugin handshake line that was written. */
  readonly handshake: string;
  /** Shuts down as GRPCController/Shutdown does (calls `close` of the definition, then `exit`). */
  shutdown(): Promise<void>;
}

/**
 * Keeps stdout for the handshake line alone: a stray `console.log` before it would break the
 * handshake, and after it the output is dropped, so everything goes to stderr instead.
 */
function guardStdout(): void {
  // Redefining the getter (instead of patching `write`) keeps the stream lazy: creating
  // process.stdout costs start-up time, and the global console picks its stream on first use.
  Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => process.stderr });
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/**
 * Serves `definition` over Terraform's plugin protocol 6: checks the magic cookie, listens on a
 * unix socket with mutual TLS, prints the handshake line, and answers RPCs until Terraform calls
 * Shutdown. Resolves once the handshake line is written (resolves with undefined when the
 * handshake was refused: the process then exits with status 1 after a message on stderr).
 */
export async function serveProvider<T>(
  definition: ProviderDefinition<T>,
  options: ServeProviderOptions = {},
): Promise<ServingProvider | undefined> {
  const env = options.env ?? process.env;
  const hosted = options.writeHandshake !== undefined;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const logger: JsonLogger = createJsonLogger({
    module: `provider.terraform-provider-${definition.typeName}`,
    level: logLevelFromEnv(env),
    write: options.writeLog,
  });
  if (!hosted) guardStdout();

  const service = new ProviderService(definition, logger);
  let server: PluginServer;
  try {
    server = await startPluginServer({
      env,
      logger,
      writeHandshake: options.writeHandshake,
      exit,
      handleSignals: !hosted,
      register: (grpc) => grpc.addService('tfplugin6.Provider', service.handlers()),
      beforeShutdown: async () => {
        await definition.close?.(service.providerContext);
      },
    });
  } catch (error) {
    if (error instanceof HandshakeError) {
      process.stderr.write(`${error.message}\n`);
      exit(1);
      return undefined;
    }
    throw error;
  }

  return { handshake: server.handshake, shutdown: () => server.shutdown() };
}
