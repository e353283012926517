/**
 * A small gRPC server on the project's own HTTP/2 connection ({@link ./http2/connection}) over
 * node:tls (or node:net, in tests): unary and server-streaming methods, identity encoding.
 *
 * Why not @grpc/grpc-js: loading it lengthens every start, and Terraform starts the provider three
 * times per command. Why not node:http2: a longer start too, and more CPU per call than its own
 * work (see ./http2/connection; both measured in bench/README.md, bench:provider). gRPC over
 * HTTP/2 is a thin framing (a 5-byte prefix per message, status in trailers) that the methods
 * Terraform calls need no more of.
 *
 * @see https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md
 */
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { ErrorCode } from './http2/frames';
import { Http2ServerConnection, type HeaderList, type Http2ServerLimits, type Http2ServerStream } from './http2/connection';
import type { ProtoCodec, ProtoMessage } from './protobuf';
import { listenOnUnixSocket } from './unix-listen';

/** gRPC status codes used here. */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  INVALID_ARGUMENT: 3,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

/** An error that a handler throws to answer with a specific gRPC status. */
export class GrpcError extends Error {
  override readonly name = 'GrpcError';
  constructor(
    /** The gRPC status code. */
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a unary handler knows about its call besides the request. */
export interface UnaryCall {
  /**
   * Aborted when the call's HTTP/2 stream closes before the response was sent: the client
   * cancelled it (RST_STREAM), its connection went away, or the server is closing.
   */
  readonly signal: AbortSignal;
  /**
   * Aborts {@link signal} with `reason` (nothing once it is aborted): how the code above the server
   * cancels a call in flight for a reason of its own, such as the provider stopping.
   */
  abort(reason: unknown): void;
}

/** Answers one request with one response. */
export type UnaryHandler = (request: ProtoMessage, call: UnaryCall) => Promise<ProtoMessage> | ProtoMessage;

/** The reason a {@link UnaryCall}'s signal carries when the stream closed under the call. */
export class CallCancelledError extends Error {
  override readonly name = 'CallCancelledError';
}

/** The sending side of a server stream. */
export interface ServerStreamCall {
  /** Sends one message. */
  write(message: ProtoMessage): void;
  /** Ends the stream with status OK. */
  end(): void;
  /** True once the client went away. */
  readonly cancelled: boolean;
}

/** Answers one request with a stream of responses. */
export type ServerStreamHandler = (request: ProtoMessage, call: ServerStreamCall) => void;

interface Route {
  readonly requestType: string;
  readonly responseType: string;
  readonly unary?: UnaryHandler;
  readonly stream?: ServerStreamHandler;
}

/** TLS material of the server: its key and certificate, and the only client certificate it accepts. */
export interface GrpcTlsOptions {
  readonly keyPem: string;
  readonly certPem: string;
  readonly clientCertPem: string;
}

/** Options of {@link GrpcServer}. */
export interface GrpcServerOptions {
  /** Mutual TLS; without it the server speaks cleartext HTTP/2 (tests only). */
  readonly tls?: GrpcTlsOptions;
  /** Reports transport-level problems (never request contents). */
  readonly onTransportError?: (message: string, error: unknown) => void;
  /**
   * Connections open at once; more are closed as they arrive. Terraform opens one per provider
   * process. @default {@link DEFAULT_MAX_CONNECTIONS}
   */
  readonly maxConnections?: number;
  /** Bounds of each connection (header blocks, bodies, streams, idle time); see {@link Http2ServerLimits}. */
  readonly limits?: Http2ServerLimits;
}

/** Default {@link GrpcServerOptions.maxConnections}. */
export const DEFAULT_MAX_CONNECTIONS = 4;

/**
 * The largest request message once decompressed: a request body is bounded by the connection
 * (http2/connection.ts), and a compressed one must not grow past the same bound when inflated.
 */
export const DEFAULT_MAX_MESSAGE_SIZE = 16 * 1024 * 1024;

const RESPONSE_HEADERS: HeaderList = [
  [':status', '200'],
  ['content-type', 'application/grpc'],
];
const OK_TRAILERS: HeaderList = [['grpc-status', String(GrpcStatus.OK)]];

/** The DER bytes of the first certificate in a PEM text. */
function pemToDer(pem: string): Buffer {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem);
  if (!match) throw new Error('PLUGIN_CLIENT_CERT holds no PEM certificate');
  return Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64');
}

/** A gRPC server whose messages are encoded with a {@link ProtoCodec}. */
export class GrpcServer {
  private readonly routes = new Map<string, Route>();
  private readonly server: Server;
  private readonly connections = new Set<Http2ServerConnection>();
  /** Streams of calls in progress (unary calls not yet answered, server streams not ended). */
  private readonly openStreams = new Set<Http2ServerStream>();
  /** The largest request message, compressed or not (the connection's body bound, and the inflated size). */
  private readonly maxMessageSize: number;

  constructor(
    private readonly codec: ProtoCodec,
    private readonly options: GrpcServerOptions = {},
  ) {
    this.maxMessageSize = options.limits?.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    // The client is trusted by pinning, not by a CA chain: the one certificate Terraform handed us.
    // OpenSSL still checks during the handshake that the client holds that certificate's private
    // key; the chain is not verified (`ca: []`), because giving Node a `ca` makes it build its
    // bundled root store first, which costs a third of the provider's start-up, and a pinned
    // self-signed certificate has no chain to verify anyway.
    const pinnedClientCert = options.tls ? pemToDer(options.tls.clientCertPem) : undefined;
    if (options.tls) {
      const server = createTlsServer(
        {
          key: options.tls.keyPem,
          cert: options.tls.certPem,
          ca: [],
          requestCert: true,
          rejectUnauthorized: false,
          minVersion: 'TLSv1.2',
          ALPNProtocols: ['h2'],
        },
        (socket: TLSSocket) => {
          // A connection whose client certificate is not the pinned one never gets to HTTP/2.
          const peer = socket.getPeerCertificate?.();
          if (!peer || !Buffer.isBuffer(peer.raw) || !peer.raw.equals(pinnedClientCert!)) {
            this.options.onTransportError?.('TLS client certificate is not the one Terraform announced', new Error('client certificate mismatch'));
            socket.destroy();
            return;
          }
          this.serve(socket);
        },
      );
      server.on('tlsClientError', (error) => this.options.onTransportError?.('TLS handshake with the client failed', error));
      this.server = server;
    } else {
      this.server = createNetServer((socket: Socket) => this.serve(socket));
    }
    // Node closes connections beyond this as they are accepted, before any byte is read.
    this.server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    this.server.on('drop', () => this.options.onTransportError?.('a connection over the connection limit was closed', new Error('too many connections')));
  }

  /**
   * Serves the methods of `service` (a full name such as `tfplugin6.Provider`) found in the
   * descriptor; methods without a handler answer UNIMPLEMENTED.
   */
  addService(service: string, handlers: { [method: string]: UnaryHandler | ServerStreamHandler | undefined }): void {
    const methods = this.codec.service(service);
    const scope = service.slice(0, service.lastIndexOf('.'));
    for (const [method, definition] of Object.entries(methods)) {
      const handler = handlers[method];
      if (!handler) continue;
      this.routes.set(`/${service}/${method}`, {
        requestType: this.codec.resolve(definition.requestType, scope),
        responseType: this.codec.resolve(definition.responseType, scope),
        ...(definition.responseStream
          ? { stream: handler as ServerStreamHandler }
          : { unary: handler as UnaryHandler }),
      });
    }
  }

  /** Listens on a unix socket path (or a port on 127.0.0.1 when given a number). */
  listen(address: string | number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      const done = (): void => {
        this.server.off('error', reject);
        resolve();
      };
      if (typeof address === 'number') this.server.listen(address, '127.0.0.1', done);
      else listenOnUnixSocket(this.server, address, done);
    });
  }

  /** The TCP port when listening on one. */
  port(): number | undefined {
    const address = this.server.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  /** Stops accepting connections and closes every connection and open stream. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      for (const stream of this.openStreams) stream.reset(ErrorCode.CANCEL);
      for (const connection of this.connections) connection.close();
      this.server.close(() => resolve());
      // Connections that do not close promptly are destroyed: shutdown must not hang.
      setTimeout(() => {
        for (const connection of this.connections) connection.destroy();
      }, 200).unref();
    });
  }

  private serve(socket: Socket): void {
    const connection = new Http2ServerConnection(
      socket,
      {
        onStream: (stream) => this.dispatch(stream),
        onError: (message, error) => this.options.onTransportError?.(message, error),
        onClose: () => this.connections.delete(connection),
      },
      { connectionWindow: 2 * this.maxMessageSize, ...this.options.limits },
    );
    this.connections.add(connection);
  }

  private dispatch(stream: Http2ServerStream): void {
    const path = stream.header(':path') ?? '';
    const contentType = stream.header('content-type') ?? '';
    if (!contentType.startsWith('application/grpc')) {
      stream.respond([[':status', '415']], true);
      return;
    }
    const route = this.routes.get(path);
    if (!route) {
      this.fail(stream, GrpcStatus.UNIMPLEMENTED, `unknown method ${path}`);
      return;
    }
    const compressed = stream.header('grpc-encoding') ?? 'identity';
    stream.onEnd = (body) => {
      let request: ProtoMessage;
      try {
        request = this.codec.decode(route.requestType, unframe(body, compressed, this.maxMessageSize));
      } catch (error) {
        if (error instanceof GrpcError) {
          this.fail(stream, error.code, `cannot decode ${route.requestType}: ${error.message}`);
          return;
        }
        this.fail(stream, GrpcStatus.INVALID_ARGUMENT, `cannot decode ${route.requestType}: ${(error as Error).message}`);
        return;
      }
      if (route.stream) this.runStream(stream, route, request);
      else void this.runUnary(stream, route, request);
    };
  }

  private async runUnary(stream: Http2ServerStream, route: Route, request: ProtoMessage): Promise<void> {
    // The stream closing before the answer is the only cancellation signal gRPC over HTTP/2 has;
    // the open stream is also tracked so that close() cancels calls still running.
    const cancel = new AbortController();
    let answered = false;
    this.openStreams.add(stream);
    stream.onClose = () => {
      this.openStreams.delete(stream);
      if (!answered) cancel.abort(new CallCancelledError(`${route.requestType} was cancelled: its stream closed`));
    };
    const answer = (): void => {
      answered = true;
      // An answer on its way is not cut off by close(): only unanswered calls are cancelled.
      this.openStreams.delete(stream);
    };
    let body: Buffer;
    try {
      const response = await route.unary!(request, { signal: cancel.signal, abort: (reason) => cancel.abort(reason) });
      body = frame(this.codec.encode(route.responseType, response));
    } catch (error) {
      answer();
      const code = error instanceof GrpcError ? error.code : GrpcStatus.INTERNAL;
      this.fail(stream, code, (error as Error)?.message ?? String(error));
      return;
    }
    answer();
    if (stream.closed) return;
    stream.respond(RESPONSE_HEADERS);
    stream.write(body);
    stream.end(OK_TRAILERS);
  }

  private runStream(stream: Http2ServerStream, route: Route, request: ProtoMessage): void {
    stream.respond(RESPONSE_HEADERS);
    this.openStreams.add(stream);
    stream.onClose = () => this.openStreams.delete(stream);
    const call: ServerStreamCall = {
      write: (message) => {
        if (!stream.closed) stream.write(frame(this.codec.encode(route.responseType, message)));
      },
      end: () => {
        if (!stream.closed) stream.end(OK_TRAILERS);
      },
      get cancelled() {
        return stream.closed;
      },
    };
    try {
      route.stream!(request, call);
    } catch (error) {
      this.options.onTransportError?.(`stream handler ${route.requestType} failed`, error);
      call.end();
    }
  }

  /** A trailers-only response carrying an error status. */
  private fail(stream: Http2ServerStream, code: number, message: string): void {
    if (stream.closed || stream.headersSent) return;
    stream.respond(
      [...RESPONSE_HEADERS, ['grpc-status', String(code)], ['grpc-message', encodeGrpcMessage(message)]],
      true,
    );
  }
}

/**
 * Percent-encodes a status message for the `grpc-message` trailer as the gRPC protocol asks: the
 * UTF-8 bytes outside printable ASCII, and `%` itself. (encodeURIComponent would also encode
 * characters such as `,` that some clients, grpc-js among them, leave encoded when decoding.)
 */
export function encodeGrpcMessage(message: string): string {
  let encoded = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    encoded += byte < 0x20 || byte > 0x7e || byte === 0x25 ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
  }
  return encoded;
}

/** Prefixes a message with gRPC's 5-byte frame header (uncompressed, big-endian length). */
export function frame(message: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

/**
 * Extracts the single message of a unary request body; a gzip message may inflate to at most
 * `maxSize` bytes (RESOURCE_EXHAUSTED beyond, decided while inflating, not after).
 */
export function unframe(body: Buffer, encoding: string, maxSize: number = DEFAULT_MAX_MESSAGE_SIZE): Buffer {
  if (body.length < 5) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'request has no message');
  const flag = body[0]!;
  const size = body.readUInt32BE(1);
  if (body.length < 5 + size) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'truncated request message');
  const message = body.subarray(5, 5 + size);
  if (flag === 0) return message;
  // zlib costs milliseconds to load and Terraform never compresses: load it only when needed.
  if (encoding === 'gzip') {
    try {
      return (require('node:zlib') as typeof import('node:zlib')).gunzipSync(message, { maxOutputLength: maxSize });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new GrpcError(GrpcStatus.RESOURCE_EXHAUSTED, `the message inflates to more than ${maxSize} bytes`);
      }
      throw error;
    }
  }
  throw new GrpcError(GrpcStatus.UNIMPLEMENTED, `unsupported message encoding ${encoding}`);
}
