/**
 * The go-plugin side of a Terraform provider process: checks that Terraform started it, listens
 * with mutual TLS where go-plugin's client expects it, prints the handshake line, and serves
 * go-plugin's controller (Shutdown), stdio and health services next to the provider's own.
 *
 * Where it listens ({@link pluginTransport}): on a unix socket in a fresh temporary directory, or,
 * on Windows (where go-plugin's plugins always use TCP) and when {@link TRANSPORT_VARIABLE} is
 * `tcp`, on the first free port of 127.0.0.1 from `PLUGIN_MIN_PORT` to `PLUGIN_MAX_PORT`, which
 * Terraform sets, as go-plugin's own servers do.
 *
 * The handshake line is the only thing ever written to stdout: `1|6|unix|PATH|grpc|CERT` or
 * `1|6|tcp|127.0.0.1:PORT|grpc|CERT`, where CERT is the server certificate's DER in base64 without
 * padding (Go's RawStdEncoding).
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

/**
 * Selects the transport on any platform: `tcp` or `unix` (the default outside Windows). For tests
 * and diagnosis of the Windows transport on Linux: Terraform's go-plugin client accepts either
 * network in the handshake line whatever the platform.
 */
export const TRANSPORT_VARIABLE = 'TFPLUGIN_TRANSPORT';

/** A network go-plugin's client connects over. */
export type PluginTransport = 'unix' | 'tcp';

/**
 * The transport of a plugin on `platform` with `env`: TCP on Windows, as go-plugin does there; else
 * {@link TRANSPORT_VARIABLE}, unix by default.
 *
 * @throws HandshakeError for another value of {@link TRANSPORT_VARIABLE}.
 */
export function pluginTransport(env: NodeJS.ProcessEnv, platform: string = process.platform): PluginTransport {
  const chosen = env[TRANSPORT_VARIABLE];
  if (chosen !== undefined && chosen !== '' && chosen !== 'tcp' && chosen !== 'unix') {
    throw new HandshakeError(`${TRANSPORT_VARIABLE} is "${chosen}": use tcp or unix.`);
  }
  if (platform === 'win32') return 'tcp';
  return chosen === 'tcp' ? 'tcp' : 'unix';
}

/**
 * The ports to try, in order, for the TCP transport: `PLUGIN_MIN_PORT` to `PLUGIN_MAX_PORT`, as
 * go-plugin reads them (an unset bound is 0; 0 alone means any free port).
 *
 * @throws HandshakeError when a bound is not a number or the range is empty.
 */
export function pluginPortRange(env: NodeJS.ProcessEnv): { min: number; max: number } {
  const bound = (name: 'PLUGIN_MIN_PORT' | 'PLUGIN_MAX_PORT'): number => {
    const text = env[name] ?? '';
    if (text === '') return 0;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0 || value > 65535) throw new HandshakeError(`${name} is "${text}", not a port number.`);
    return value;
  };
  const min = bound('PLUGIN_MIN_PORT');
  const max = bound('PLUGIN_MAX_PORT');
  if (min > max) throw new HandshakeError(`PLUGIN_MIN_PORT (${min}) is greater than PLUGIN_MAX_PORT (${max}).`);
  return { min, max };
}

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
  /** The network the handshake line names. */
  readonly transport: PluginTransport;
  /** The address the handshake line names: the unix socket's path, or `127.0.0.1:PORT`. */
  readonly address: string;
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

/** Builds the go-plugin handshake line (without newline) for a server at `address` over `transport`. */
export function handshakeLine(address: string, certificateDer: Buffer | undefined, transport: PluginTransport = 'unix'): string {
  const cert = certificateDer ? rawBase64(certificateDer) : '';
  return `${CORE_PROTOCOL_VERSION}|${PLUGIN_PROTOCOL_VERSION}|${transport}|${address}|grpc|${cert}`;
}

/** Whether a failed listen means "this port is taken, try the next", as go-plugin goes on after any failure. */
function portUnavailable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'EADDRINUSE' || code === 'EACCES';
}

/**
 * Listens on the first port of {@link pluginPortRange} that is free, on 127.0.0.1; returns `127.0.0.1:PORT`.
 *
 * @throws HandshakeError when no port of the range is free.
 */
async function listenOnPluginPort(server: GrpcServer, env: NodeJS.ProcessEnv): Promise<string> {
  const { min, max } = pluginPortRange(env);
  for (let port = min; port <= max; port++) {
    try {
      await server.listen(port);
      return `127.0.0.1:${server.port()}`;
    } catch (error) {
      if (!portUnavailable(error)) throw error;
    }
  }
  throw new HandshakeError(`no free TCP port on 127.0.0.1 from PLUGIN_MIN_PORT (${min}) to PLUGIN_MAX_PORT (${max}).`);
}

/**
 * Starts the plugin server and prints the handshake line. Throws {@link HandshakeError} when
 * the process was not started by Terraform.
 */
export async function startPluginServer(options: PluginServerOptions): Promise<PluginServer> {
  const env = options.env ?? process.env;
  checkPluginEnvironment(env);
  const transport = pluginTransport(env);
  const logger = options.logger;
  const clientCertPem = env.PLUGIN_CLIENT_CERT;
  const tlsOn = Boolean(clientCertPem) && !env.TF_DISABLE_PLUGIN_TLS;
  const certificate = tlsOn ? generateCertificate() : undefined;

  const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR);
  const server = new GrpcServer(codec, {
    tls: certificate && clientCertPem ? { keyPem: certificate.keyPem, certPem: certificate.certPem, clientCertPem } : undefined,
    onTransportError: (message, error) => logger.debug(message, { error: (error as Error)?.message ?? String(error) }),
  });

  // The unix socket's directory, removed when the process exits; none for TCP.
  const socketDir = transport === 'unix' ? mkdtempSync(join(tmpdir(), 'plugin')) : undefined;
  const removeSocket = (): void => {
    if (socketDir !== undefined) rmSync(socketDir, { recursive: true, force: true });
  };
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

  let address: string;
  try {
    if (socketDir === undefined) {
      address = await listenOnPluginPort(server, env);
    } else {
      address = join(socketDir, 'plugin.sock');
      await server.listen(address);
    }
  } catch (error) {
    removeSocket();
    throw error;
  }
  const handshake = handshakeLine(address, certificate?.der, transport);
  (options.writeHandshake ?? ((line: string) => writeSync(1, line)))(`${handshake}\n`);
  logger.debug('plugin server listening', { transport, address, tls: tlsOn });
  return { transport, address, handshake, tls: tlsOn, shutdown };
}
