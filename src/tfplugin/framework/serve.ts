/**
 * Runs a provider definition as a Terraform plugin in the current process.
 *
 * @example
 * // A definition at hand (tests, small providers):
 * void serveProvider(demoProvider);
 * // src/provider/main.ts — the definition's module loads on the first provider RPC, after the
 * // handshake line:
 * void serveProvider({ typeName: 'orgadmin', load: () => require('./provider').orgadminProvider });
 */
import { GrpcError, GrpcStatus, type UnaryHandler } from '../protocol/grpc-server';
import { createJsonLogger, logLevelFromEnv, type JsonLogger } from '../protocol/log';
import { HandshakeError, startPluginServer, type PluginServer } from '../protocol/plugin-server';
import type { ProviderHandlers, ProviderService } from './provider-service';
import type { ProviderDefinition } from './types';

/** The gRPC service Terraform's provider RPCs belong to. */
const PROVIDER_SERVICE = 'tfplugin6.Provider';

/**
 * A provider definition whose module is loaded on the first provider RPC instead of before the
 * handshake line. Terraform starts the provider three times per command and waits for that line
 * each time; building the definition (its resources, the SDK, the API schemas) is not needed to
 * print it.
 */
export interface LazyProviderDefinition<T> {
  /** The provider's type name; must equal the loaded definition's `typeName`. */
  readonly typeName: string;
  /** Loads the definition; called once, on the first provider RPC. */
  readonly load: () => ProviderDefinition<T>;
}

function isLazy<T>(definition: ProviderDefinition<T> | LazyProviderDefinition<T>): definition is LazyProviderDefinition<T> {
  return typeof (definition as Partial<LazyProviderDefinition<T>>).load === 'function';
}

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
  definition: ProviderDefinition<T> | LazyProviderDefinition<T>,
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

  // The service (and with it the definition, when lazy) is built on the first provider RPC: its
  // modules are evaluated after the handshake line, not before.
  let service: ProviderService<T> | undefined;
  let loaded: ProviderDefinition<T> | undefined;
  let handlers: ProviderHandlers | undefined;
  const loadHandlers = (): ProviderHandlers => {
    if (!handlers) {
      loaded = isLazy(definition) ? definition.load() : definition;
      if (loaded.typeName !== definition.typeName) {
        throw new Error(`the provider definition loaded is "${loaded.typeName}", expected "${definition.typeName}"`);
      }
      // Required here, not imported: provider-service pulls in the value codecs and planning code.
      const { ProviderService: Service } = require('./provider-service') as typeof import('./provider-service');
      service = new Service(loaded, logger);
      handlers = service.handlers();
    }
    return handlers;
  };
  let server: PluginServer;
  try {
    server = await startPluginServer({
      env,
      logger,
      writeHandshake: options.writeHandshake,
      exit,
      handleSignals: !hosted,
      exitOnShutdown: !hosted,
      register: (grpc, codec) => {
        // One forwarding handler per method of the protocol; the real handlers load on first use.
        const forwarding: Record<string, UnaryHandler> = {};
        for (const method of Object.keys(codec.service(PROVIDER_SERVICE))) {
          forwarding[method] = (request, call) => {
            // By name: the descriptor may list methods that the typed handlers do not know. The
            // typed messages are what the codec reads and writes, hence the one cast at the edge.
            const handler = (loadHandlers() as unknown as Partial<Record<string, UnaryHandler>>)[method];
            if (!handler) throw new GrpcError(GrpcStatus.UNIMPLEMENTED, `${PROVIDER_SERVICE}/${method} is not implemented`);
            return handler(request, call);
          };
        }
        grpc.addService(PROVIDER_SERVICE, forwarding);
      },
      beforeShutdown: async () => {
        // Never loaded: nothing was configured, nothing to close.
        if (service && loaded) await loaded.close?.(service.providerContext);
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
