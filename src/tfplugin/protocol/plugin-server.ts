/**
 * The go-plugin side of a Terraform provider process: checks that Terraform started it, listens
 * on a unix socket with mutual TLS, prints the handshake line, and serves go-plugin's controller
 * (Shutdown), stdio and health services next to the provider's own.
 *
 * The handshake line is the only thing ever written to stdout: `1|6|unix|PATH|grpc|CERT`, where
 * CERT is the server certificate's DER in base64 without padding (Go's RawStdEncoding).
 */
import { mkdtempSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCertificate } from './certificate';
import { PROTOCOL_DESCRIPTOR } from './descriptor';
import { GrpcServer, type ServerStreamCall } from './grpc-server';
import type { JsonLogger } from './log';
import { ProtoCodec } from './protobuf';

/** The cookie Terraform sets so that a provider can tell it was started by Terraform. */
export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
/** Its value (fixed by Terraform). */
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
/** go-plugin's core protocol version, first field of the handshake line. */
export const CORE_PROTOCOL_VERSION = 1;
/** The plugin protocol major version this server speaks. */
export const PLUGIN_PROTOCOL_VERSION = 6;

/** Raised when the process was not started the way Terraform starts plugins. */
export class HandshakeError extends Error {
  override readonly name = 'HandshakeError';
}

/** Options of {@link startPluginServer}. */
export interface PluginServerOptions {
  /** Registers the plugin's own services (e.g. `tfplugin6.Provider`) on the server. */
  readonly register: (server: GrpcServer, codec: ProtoCodec) => void;
  /** Structured logger (stderr). */
  readonly logger: JsonLogger;
  /** Environment to read the handshake variables from. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Writes the handshake line. @default a synchronous write to file descriptor 1 */
  readonly writeHandshake?: (line: string) => void;
  /** Runs when the client asks the plugin to shut down, before the server closes. */
  readonly beforeShutdown?: () => Promise<void>;
  /** Ends the process after shutdown. @default process.exit */
  readonly exit?: (code: number) => void;
  /**
   * Install process signal handlers (off for servers hosted in a test process): SIGTERM shuts
   * down cleanly, SIGINT is ignored because Terraform forwards Ctrl-C to the whole process group
   * and then stops the provider itself (StopProvider, Shutdown); dying on it would fail
   * in-flight applies. @default false
   */
  readonly handleSignals?: boolean;
  /**
   * On Shutdown, exit as soon as the reply is on its way, without `beforeShutdown` or closing the
   * server (on for a process of its own, off for servers hosted in a test process). The process
   * holds nothing that outlives it: Terraform calls Shutdown once it is done with every RPC, and
   * the kernel closes the gRPC and HTTP connections. Closing them one by one, and waiting for
   * Terraform to close its end of the gRPC connection first, only kept Terraform waiting for the
   * exit (tens of milliseconds in the process that made requests, three to five processes per
   * command). SIGTERM still shuts down gracefully. @default false
   */
  readonly exitOnShutdown?: boolean;
}

/** A running plugin server. */
export interface PluginServer {
  /** The unix socket path. */
  readonly socketPath: string;
  /** The handshake line as printed (without newline). */
  readonly handshake: string;
  /** Whether mutual TLS is on. */
  readonly tls: boolean;
  /** Shuts down like GRPCController/Shutdown does: hook, close the server, remove the socket, exit. */
  shutdown(): Promise<void>;
}

/**
 * Checks the environment Terraform gives a plugin; throws a {@link HandshakeError} with a
 * message for a human otherwise.
 */
export function checkPluginEnvironment(env: NodeJS.ProcessEnv): void {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    throw new HandshakeError(
      'This binary is a plugin. These are not meant to be executed directly.\n' +
        'Please execute the program that consumes these plugins, which will\n' +
        'load any plugins automatically (here: terraform).',
    );
  }
  const versions = (env.PLUGIN_PROTOCOL_VERSIONS ?? '').split(',').map((v) => v.trim()).filter(Boolean);
  if (versions.length > 0 && !versions.includes(String(PLUGIN_PROTOCOL_VERSION))) {
    throw new HandshakeError(
      `Terraform offers plugin protocol versions ${versions.join(', ')}, but this provider speaks only version ` +
        `${PLUGIN_PROTOCOL_VERSION}: use Terraform 1.0 or newer.`,
    );
  }
}

/** Base64 without `=` padding, as Go's RawStdEncoding decodes it. */
export function rawBase64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

/** Builds the go-plugin handshake line (without newline). */
export function handshakeLine(socketPath: string, certificateDer: Buffer | undefined): string {
  const cert = certificateDer ? rawBase64(certificateDer) : '';
  return `${CORE_PROTOCOL_VERSION}|${PLUGIN_PROTOCOL_VERSION}|unix|${socketPath}|grpc|${cert}`;
}

/**
 * Starts the plugin server and prints the handshake line. Throws {@link HandshakeError} when
 * the process was not started by Terraform.
 */
export async function startPluginServer(options: PluginServerOptions): Promise<PluginServer> {
  const env = options.env ?? process.env;
  checkPluginEnvironment(env);
  const logger = options.logger;
  const clientCertPem = env.PLUGIN_CLIENT_CERT;
  const tlsOn = Boolean(clientCertPem) && !env.TF_DISABLE_PLUGIN_TLS;
  const certificate = tlsOn ? generateCertificate() : undefined;

  const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR);
  const server = new GrpcServer(codec, {
    tls: certificate && clientCertPem ? { keyPem: certificate.keyPem, certPem: certificate.certPem, clientCertPem } : undefined,
    onTransportError: (message, error) => logger.debug(message, { error: (error as Error)?.message ?? String(error) }),
  });

  const socketDir = mkdtempSync(join(tmpdir(), 'plugin'));
  const socketPath = join(socketDir, 'plugin.sock');
  const removeSocket = (): void => rmSync(socketDir, { recursive: true, force: true });
  process.once('exit', removeSocket);

  let shuttingDown: Promise<void> | undefined;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const shutdown = (): Promise<void> => {
    shuttingDown ??= (async () => {
      logger.debug('plugin shutting down');
      try {
        await options.beforeShutdown?.();
      } catch (error) {
        logger.error('shutdown hook failed', { error: (error as Error)?.message ?? String(error) });
      }
      await server.close();
      removeSocket();
      process.off('exit', removeSocket);
      exit(0);
    })();
    return shuttingDown;
  };

  if (options.handleSignals) {
    // Installed before the handshake line: a client may signal as soon as it has read it.
    process.on('SIGINT', () => logger.debug('ignoring SIGINT; Terraform stops the provider itself'));
    process.once('SIGTERM', () => void shutdown());
  }

  // Exits right away (see exitOnShutdown); the socket directory goes with the 'exit' handler.
  const exitNow = (): void => {
    logger.debug('plugin shutting down', { graceful: false });
    exit(0);
  };
  server.addService('plugin.GRPCController', {
    // Reply first; the shutdown starts once the reply is on its way.
    Shutdown: () => {
      setImmediate(() => (options.exitOnShutdown ? exitNow() : void shutdown()));
      return {};
    },
  });
  server.addService('plugin.GRPCStdio', {
    // Output goes to stderr directly (go-plugin reads it); the stream stays open and empty.
    StreamStdio: (_request: unknown, call: ServerStreamCall) => {
      void call;
    },
  });
  server.addService('grpc.health.v1.Health', {
    Check: () => ({ status: 'SERVING' }),
  });
  options.register(server, codec);

  try {
    await server.listen(socketPath);
  } catch (error) {
    removeSocket();
    throw error;
  }
  const handshake = handshakeLine(socketPath, certificate?.der);
  (options.writeHandshake ?? ((line: string) => writeSync(1, line)))(`${handshake}\n`);
  logger.debug('plugin server listening', { socket: socketPath, tls: tlsOn });
  return { socketPath, handshake, tls: tlsOn, shutdown };
}
