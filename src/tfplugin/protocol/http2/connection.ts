/**
 * The server side of one HTTP/2 connection (RFC 9113), as much of it as a gRPC server needs: the
 * client opens streams, sends one header block and a body on each, and the server answers each with
 * headers, data and trailers.
 *
 * Why not node:http2: loading it lengthens every provider start (three per Terraform command), and
 * its streams cost more CPU per call than the calls' own work (measured in bench/README.md,
 * bench:provider, start-up decisions). What a gRPC server needs of HTTP/2 is small:
 * - frames read from and written to the (TLS) socket, header blocks in HPACK ({@link ./hpack});
 * - flow control both ways: a stream's window is given back as its data arrives, the connection's
 *   only once a request body was handed over (or dropped), so the bodies held at once never exceed
 *   the connection window; the server's data waits for the client's windows;
 * - bounds on what a client can make the server hold: a header block's size (CONTINUATION frames
 *   included), a request body's size, streams open at once, and an idle connection's lifetime;
 * - streams refused over the concurrency limit, reset by either side, and a GOAWAY at the end.
 * No server push, no priorities (ignored, as the RFC allows), no upgrade from HTTP/1.1.
 */
import type { Duplex } from 'node:stream';
import {
  CLIENT_PREFACE,
  DEFAULT_MAX_FRAME_SIZE,
  DEFAULT_WINDOW_SIZE,
  ErrorCode,
  Flag,
  FRAME_HEADER_SIZE,
  FrameType,
  frame,
  goawayFrame,
  headerFrames,
  MAX_WINDOW_SIZE,
  rstStreamFrame,
  Setting,
  settingsFrame,
  windowUpdateFrame,
} from './frames';
import { encodeHeaderBlock, HpackDecoder, HpackError } from './hpack';

/** Header fields in order, as [name, value]. */
export type HeaderList = ReadonlyArray<readonly [string, string]>;

/** The idle timer of a connection: Node's timers by default, a hand-driven one in tests. */
export interface IdleTimers {
  /** Calls `onIdle` once `ms` pass without a {@link IdleTimer.refresh}. */
  start(onIdle: () => void, ms: number): IdleTimer;
}

/** A running idle timer. */
export interface IdleTimer {
  /** Starts the wait again from now. */
  refresh(): void;
  /** Stops it for good. */
  clear(): void;
}

/** Node's timers, never keeping the process alive. */
const NODE_IDLE_TIMERS: IdleTimers = {
  start(onIdle, ms) {
    const handle = setTimeout(onIdle, ms).unref();
    return { refresh: () => void handle.refresh(), clear: () => clearTimeout(handle) };
  },
};

/** Limits of a connection: what the server announces in its SETTINGS, and what it holds at most. */
export interface Http2ServerLimits {
  /** Streams open at once; more are refused (REFUSED_STREAM). @default 100 */
  readonly maxConcurrentStreams?: number;
  /** Each stream's receive window. @default 4 MiB */
  readonly streamWindow?: number;
  /**
   * The connection's receive window: the most request-body bytes held at once over all streams
   * (given back as bodies are handed over). @default 32 MiB
   */
  readonly connectionWindow?: number;
  /** The largest decoded header list accepted. @default 64 KiB */
  readonly maxHeaderListSize?: number;
  /**
   * The largest header block (HEADERS and its CONTINUATION frames, as sent); more ends the
   * connection with ENHANCE_YOUR_CALM. @default maxHeaderListSize
   */
  readonly maxHeaderBlockSize?: number;
  /**
   * The largest request body of one stream; a larger one is reset with ENHANCE_YOUR_CALM (gRPC
   * clients report RESOURCE_EXHAUSTED). At most half the connection window, so that one body can
   * always arrive whatever the connection window still owes. @default connectionWindow / 2
   */
  readonly maxMessageSize?: number;
  /**
   * How long a connection may stay without a frame and without an open stream (ms): then it is
   * closed, gracefully (GOAWAY) once it has begun HTTP/2, at once before. A client that wants the
   * connection again dials anew (gRPC clients do). @default 5 minutes
   */
  readonly idleTimeoutMs?: number;
  /** The idle timer. @default Node's timers */
  readonly timers?: IdleTimers;
}

/** Default {@link Http2ServerLimits.idleTimeoutMs}. */
export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60 * 1000;

/** What a connection tells its owner. */
export interface Http2ConnectionHandlers {
  /** A new stream, its request headers complete; register its callbacks before returning. */
  onStream(stream: Http2ServerStream): void;
  /** A transport problem (never request contents): a protocol error of the client, a socket error. */
  onError(message: string, error: unknown): void;
  /** The connection is gone (its socket closed). */
  onClose?(): void;
}

/** A connection error: the connection ends with a GOAWAY carrying `code`. */
class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One request stream. The request's body arrives whole ({@link onEnd}); the response goes out with
 * {@link respond}, {@link write} and {@link end}, waiting for the client's flow-control windows.
 */
export class Http2ServerStream {
  /** Called once with the whole request body when the client has sent all of it. */
  onEnd?: (body: Buffer) => void;
  /**
   * Called once when the stream is over: `cancelled` when it ended before the server's response
   * did (the client reset it, or the connection went away or was closed).
   */
  onClose?: (cancelled: boolean) => void;

  /** @internal Bytes the server may still send on this stream. */
  sendWindow: number;
  /** @internal Bytes received and not yet given back to the client's window. */
  unacknowledged = 0;
  /** @internal Body bytes held against the connection window until the body is handed over. */
  held = 0;
  /** @internal */
  remoteEnded = false;
  /** @internal */
  readonly queue: Buffer[] = [];
  /** @internal Trailers to send once {@link queue} is empty. */
  trailers: HeaderList | undefined;
  private chunks: Buffer[] = [];
  private sentHeaders = false;
  private localEnded = false;
  private isClosed = false;

  /** @internal */
  constructor(
    /** The stream identifier. */
    readonly id: number,
    /** The request's header fields, in order. */
    readonly headerList: HeaderList,
    private readonly connection: Http2ServerConnection,
    sendWindow: number,
  ) {
    this.sendWindow = sendWindow;
  }

  /** The value of the request header `name` (the first one, when repeated). */
  header(name: string): string | undefined {
    for (const [key, value] of this.headerList) if (key === name) return value;
    return undefined;
  }

  /** True once the stream is over, normally or not. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** True once response headers went out. */
  get headersSent(): boolean {
    return this.sentHeaders;
  }

  /** Sends the response headers; with `endStream`, they are the whole response (no body, no trailers). */
  respond(headers: HeaderList, endStream = false): void {
    if (this.isClosed || this.sentHeaders) return;
    this.sentHeaders = true;
    this.connection.sendHeaders(this, headers, endStream);
    if (endStream) this.localEnd();
  }

  /** Queues response data (after {@link respond}). */
  write(data: Buffer): void {
    if (this.isClosed || !this.sentHeaders || this.localEnded || data.length === 0) return;
    this.queue.push(data);
    this.connection.schedule(this);
  }

  /** Ends the response with `trailers`, sent once the queued data is out. */
  end(trailers: HeaderList): void {
    if (this.isClosed || !this.sentHeaders || this.localEnded || this.trailers) return;
    this.trailers = trailers;
    this.connection.schedule(this);
  }

  /** Resets the stream (RST_STREAM with `code`). */
  reset(code: number = ErrorCode.CANCEL): void {
    if (this.isClosed) return;
    this.connection.sendReset(this.id, code);
    this.close(!this.localEnded);
  }

  /** @internal Data of the request body (dropped once the response is complete); whether it was kept. */
  receive(data: Buffer): boolean {
    if (this.localEnded) return false;
    if (data.length > 0) this.chunks.push(data);
    return true;
  }

  /** @internal The client sent END_STREAM. */
  remoteEnd(): void {
    if (this.remoteEnded) return;
    this.remoteEnded = true;
    if (this.localEnded) {
      this.close(false);
      return;
    }
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    // Handed over: the bytes it held go back to the connection window.
    this.connection.release(this);
    this.onEnd?.(body);
  }

  /**
   * @internal The server's END_STREAM went out (with headers or trailers). A response complete
   * before its request (an unknown method's status, say) leaves the stream half-closed: the rest of
   * the request is read and dropped, as node:http2 did, rather than reset.
   */
  localEnd(): void {
    this.localEnded = true;
    if (this.remoteEnded) this.close(false);
  }

  /** @internal */
  close(cancelled: boolean): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.queue.length = 0;
    this.trailers = undefined;
    this.chunks = [];
    this.connection.release(this);
    this.connection.forget(this);
    this.onClose?.(cancelled);
  }
}

/** The server side of one HTTP/2 connection over `socket` (see the module comment). */
export class Http2ServerConnection {
  private readonly decoder: HpackDecoder;
  private readonly streams = new Map<number, Http2ServerStream>();
  private readonly sendable = new Set<Http2ServerStream>();
  private readonly maxConcurrentStreams: number;
  private readonly streamWindow: number;
  private readonly connectionWindow: number;
  private readonly maxHeaderBlockSize: number;
  private readonly maxMessageSize: number;
  private readonly idleTimer: IdleTimer;
  private pending: Buffer | undefined;
  private prefaceSeen = false;
  private settingsSeen = false;
  private lastStreamId = 0;
  /** A header block being received: HEADERS seen, CONTINUATION expected. */
  private partial: { streamId: number; flags: number; pieces: Buffer[]; size: number } | undefined;
  private peerInitialWindow = DEFAULT_WINDOW_SIZE;
  private peerMaxFrameSize = DEFAULT_MAX_FRAME_SIZE;
  private connectionSendWindow = DEFAULT_WINDOW_SIZE;
  /** Bytes the client sent against the connection window and not yet given back. */
  private connectionReceived = 0;
  /** Bytes released and not yet given back in a WINDOW_UPDATE. */
  private connectionUnacknowledged = 0;
  private outgoing: Buffer[] = [];
  private flushScheduled = false;
  private goingAway = false;
  private ended = false;

  constructor(
    private readonly socket: Duplex,
    private readonly handlers: Http2ConnectionHandlers,
    limits: Http2ServerLimits = {},
  ) {
    this.maxConcurrentStreams = limits.maxConcurrentStreams ?? 100;
    this.streamWindow = limits.streamWindow ?? 4 * 1024 * 1024;
    this.connectionWindow = limits.connectionWindow ?? 32 * 1024 * 1024;
    const maxHeaderListSize = limits.maxHeaderListSize ?? 64 * 1024;
    this.maxHeaderBlockSize = limits.maxHeaderBlockSize ?? maxHeaderListSize;
    this.maxMessageSize = Math.min(limits.maxMessageSize ?? Infinity, Math.floor(this.connectionWindow / 2));
    this.idleTimer = (limits.timers ?? NODE_IDLE_TIMERS).start(() => this.onIdle(), limits.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    this.decoder = new HpackDecoder(4096, maxHeaderListSize);
    this.send(
      settingsFrame([
        [Setting.MAX_CONCURRENT_STREAMS, this.maxConcurrentStreams],
        [Setting.INITIAL_WINDOW_SIZE, this.streamWindow],
        [Setting.MAX_HEADER_LIST_SIZE, maxHeaderListSize],
        [Setting.ENABLE_PUSH, 0],
      ]),
    );
    this.send(windowUpdateFrame(0, this.connectionWindow - DEFAULT_WINDOW_SIZE));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.handlers.onError('http2 socket error', error));
    socket.on('close', () => this.onSocketClose());
  }

  /**
   * Ends the connection gracefully: a GOAWAY (no new streams), then the socket once the streams
   * open now are over. Streams are not cancelled here; reset them first to cancel them.
   */
  close(): void {
    if (this.ended) return;
    if (!this.goingAway) {
      this.goingAway = true;
      this.send(goawayFrame(this.lastStreamId, ErrorCode.NO_ERROR));
    }
    if (this.streams.size === 0) this.endSocket();
  }

  /** Drops the connection at once; open streams end cancelled. */
  destroy(): void {
    this.ended = true;
    this.socket.destroy();
  }

  /** @internal */
  sendHeaders(stream: Http2ServerStream, headers: HeaderList, endStream: boolean): void {
    this.send(headerFrames(stream.id, headerBlock(headers), endStream, this.peerMaxFrameSize));
  }

  /** @internal */
  sendReset(streamId: number, code: number): void {
    this.send(rstStreamFrame(streamId, code));
  }

  /** @internal A stream has data or trailers to send. */
  schedule(stream: Http2ServerStream): void {
    this.sendable.add(stream);
    this.flushStreams();
  }

  /**
   * @internal The body bytes `stream` held are no longer held (handed over or dropped): they go
   * back to the client's connection window, in updates of at least a quarter of it.
   */
  release(stream: Http2ServerStream): void {
    this.releaseBytes(stream.held);
    stream.held = 0;
  }

  /** Gives `bytes` back to the connection window (batched: see {@link release}). */
  private releaseBytes(bytes: number): void {
    if (bytes === 0) return;
    this.connectionUnacknowledged += bytes;
    if (this.connectionUnacknowledged >= this.connectionWindow / 4) {
      this.send(windowUpdateFrame(0, this.connectionUnacknowledged));
      this.connectionReceived -= this.connectionUnacknowledged;
      this.connectionUnacknowledged = 0;
    }
  }

  /** No frame for the idle time: close unless a call is in progress. */
  private onIdle(): void {
    if (this.ended) return;
    if (this.streams.size > 0) {
      this.idleTimer.refresh();
      return;
    }
    if (!this.settingsSeen) {
      this.handlers.onError('http2 connection idle before it began', new Error('idle timeout'));
      this.destroy();
      return;
    }
    this.close();
  }

  /** @internal A stream is over. */
  forget(stream: Http2ServerStream): void {
    this.streams.delete(stream.id);
    this.sendable.delete(stream);
    if (this.goingAway && this.streams.size === 0) this.endSocket();
  }

  private onData(chunk: Buffer): void {
    if (this.ended) return;
    this.idleTimer.refresh();
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    try {
      if (!this.prefaceSeen) {
        if (data.length < CLIENT_PREFACE.length) {
          if (!CLIENT_PREFACE.subarray(0, data.length).equals(data)) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'not an HTTP/2 client preface');
          this.pending = data;
          return;
        }
        if (!data.subarray(0, CLIENT_PREFACE.length).equals(CLIENT_PREFACE)) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'not an HTTP/2 client preface');
        this.prefaceSeen = true;
        data = data.subarray(CLIENT_PREFACE.length);
      }
      let offset = 0;
      while (!this.ended && data.length - offset >= FRAME_HEADER_SIZE) {
        const length = data.readUIntBE(offset, 3);
        if (length > DEFAULT_MAX_FRAME_SIZE) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, `a frame of ${length} bytes, above ${DEFAULT_MAX_FRAME_SIZE}`);
        if (data.length - offset < FRAME_HEADER_SIZE + length) break;
        const type = data[offset + 3]!;
        const flags = data[offset + 4]!;
        const streamId = data.readUInt32BE(offset + 5) & MAX_WINDOW_SIZE;
        const payload = data.subarray(offset + FRAME_HEADER_SIZE, offset + FRAME_HEADER_SIZE + length);
        offset += FRAME_HEADER_SIZE + length;
        this.onFrame(type, flags, streamId, payload);
      }
      if (offset < data.length && !this.ended) this.pending = Buffer.from(data.subarray(offset));
    } catch (error) {
      this.fail(error);
    }
    this.flushOutgoing();
  }

  private onFrame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (!this.settingsSeen && type !== FrameType.SETTINGS) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'the client did not start with SETTINGS');
    if (this.partial && type !== FrameType.CONTINUATION) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a header block was interrupted');
    switch (type) {
      case FrameType.DATA:
        return this.onDataFrame(flags, streamId, payload);
      case FrameType.HEADERS:
        return this.onHeadersFrame(flags, streamId, payload);
      case FrameType.CONTINUATION:
        return this.onContinuation(flags, streamId, payload);
      case FrameType.SETTINGS:
        return this.onSettings(flags, streamId, payload);
      case FrameType.WINDOW_UPDATE:
        return this.onWindowUpdate(streamId, payload);
      case FrameType.PING:
        if (streamId !== 0 || payload.length !== 8) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a malformed PING');
        if ((flags & Flag.ACK) === 0) this.send(frame(FrameType.PING, Flag.ACK, 0, payload));
        return;
      case FrameType.RST_STREAM:
        if (streamId === 0 || payload.length !== 4) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a malformed RST_STREAM');
        this.streams.get(streamId)?.close(true);
        return;
      case FrameType.GOAWAY:
        // The client opens no more streams; those open finish. It closes the socket itself.
        return;
      case FrameType.PRIORITY:
        if (streamId === 0 || payload.length !== 5) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a malformed PRIORITY');
        return;
      case FrameType.PUSH_PROMISE:
        throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a client cannot push');
      default:
        // Unknown frame types are ignored (RFC 9113 section 4.1).
        return;
    }
  }

  private onDataFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'DATA on stream 0');
    if (streamId > this.lastStreamId) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'DATA on an idle stream');
    // The whole frame counts against the windows, padding included, even on a closed stream.
    this.connectionReceived += payload.length;
    if (this.connectionReceived > this.connectionWindow) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'the client overran the connection window');
    const stream = this.streams.get(streamId);
    // Frames of a stream reset or answered already can still be in flight: ignored.
    if (!stream) return this.releaseBytes(payload.length);
    if (stream.remoteEnded) {
      this.releaseBytes(payload.length);
      stream.reset(ErrorCode.STREAM_CLOSED);
      return;
    }
    stream.unacknowledged += payload.length;
    if (stream.unacknowledged > this.streamWindow) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'the client overran a stream window');
    const data = unpad(flags, payload);
    // Padding is never held; data is, until its body is handed over (or dropped).
    this.releaseBytes(payload.length - data.length);
    stream.held += data.length;
    if (!stream.receive(data)) {
      this.release(stream);
    } else if (stream.held > this.maxMessageSize) {
      this.handlers.onError('http2 request body too large', new Error(`a request body above ${this.maxMessageSize} bytes`));
      stream.reset(ErrorCode.ENHANCE_YOUR_CALM);
      return;
    }
    if ((flags & Flag.END_STREAM) !== 0) {
      stream.remoteEnd();
    } else if (stream.unacknowledged >= this.streamWindow / 2) {
      this.send(windowUpdateFrame(streamId, stream.unacknowledged));
      stream.unacknowledged = 0;
    }
  }

  private onHeadersFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'HEADERS on stream 0');
    let fragment = unpad(flags, payload);
    if ((flags & Flag.PRIORITY) !== 0) {
      if (fragment.length < 5) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a malformed HEADERS priority');
      fragment = fragment.subarray(5);
    }
    this.checkHeaderBlockSize(fragment.length);
    if ((flags & Flag.END_HEADERS) !== 0) this.onHeaderBlock(streamId, flags, fragment);
    else this.partial = { streamId, flags, pieces: [Buffer.from(fragment)], size: fragment.length };
  }

  /** A header block of `size` bytes so far: over the limit ends the connection before it is held. */
  private checkHeaderBlockSize(size: number): void {
    if (size > this.maxHeaderBlockSize) throw new ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, `a header block above ${this.maxHeaderBlockSize} bytes`);
  }

  private onContinuation(flags: number, streamId: number, payload: Buffer): void {
    if (!this.partial || this.partial.streamId !== streamId) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'CONTINUATION without HEADERS');
    this.partial.size += payload.length;
    this.checkHeaderBlockSize(this.partial.size);
    this.partial.pieces.push(Buffer.from(payload));
    if ((flags & Flag.END_HEADERS) === 0) return;
    const { flags: headerFlags, pieces } = this.partial;
    this.partial = undefined;
    this.onHeaderBlock(streamId, headerFlags, Buffer.concat(pieces));
  }

  private onHeaderBlock(streamId: number, flags: number, block: Buffer): void {
    let headers: Array<[string, string]>;
    try {
      // Decoded even when the stream is refused: the decoder's table must follow the client's.
      headers = this.decoder.decode(block);
    } catch (error) {
      if (error instanceof HpackError) throw new ConnectionError(ErrorCode.COMPRESSION_ERROR, `a header block could not be decoded: ${error.message}`);
      throw error;
    }
    const endStream = (flags & Flag.END_STREAM) !== 0;
    const existing = this.streams.get(streamId);
    if (existing) {
      // Trailers of a request: they must end it.
      if (!endStream || existing.remoteEnded) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'HEADERS in the middle of a request');
      existing.remoteEnd();
      return;
    }
    if (streamId <= this.lastStreamId) {
      // A stream reset or answered before its client ended it.
      return;
    }
    if (streamId % 2 === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a client stream with an even identifier');
    this.lastStreamId = streamId;
    if (this.goingAway || this.streams.size >= this.maxConcurrentStreams) {
      this.sendReset(streamId, ErrorCode.REFUSED_STREAM);
      return;
    }
    const stream = new Http2ServerStream(streamId, headers, this, this.peerInitialWindow);
    this.streams.set(streamId, stream);
    this.handlers.onStream(stream);
    if (endStream && !stream.closed) stream.remoteEnd();
  }

  private onSettings(flags: number, streamId: number, payload: Buffer): void {
    if (streamId !== 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'SETTINGS on a stream');
    if ((flags & Flag.ACK) !== 0) {
      if (payload.length !== 0) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'a SETTINGS acknowledgement with a payload');
      return;
    }
    if (payload.length % 6 !== 0) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'a SETTINGS payload not a multiple of 6');
    this.settingsSeen = true;
    for (let at = 0; at < payload.length; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === Setting.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW_SIZE) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1');
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const stream of this.streams.values()) {
          stream.sendWindow += delta;
          if (stream.sendWindow > MAX_WINDOW_SIZE) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'a stream window above 2^31-1');
        }
      } else if (id === Setting.MAX_FRAME_SIZE) {
        if (value < DEFAULT_MAX_FRAME_SIZE || value > 0xff_ffff) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'SETTINGS_MAX_FRAME_SIZE out of range');
        this.peerMaxFrameSize = value;
      } else if (id === Setting.ENABLE_PUSH && value > 1) {
        throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'SETTINGS_ENABLE_PUSH above 1');
      }
      // The header table size only bounds an encoder's dynamic table, and ours uses none.
    }
    this.send(frame(FrameType.SETTINGS, Flag.ACK, 0));
    this.flushStreams();
  }

  private onWindowUpdate(streamId: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, 'a malformed WINDOW_UPDATE');
    const increment = payload.readUInt32BE(0) & MAX_WINDOW_SIZE;
    if (streamId === 0) {
      if (increment === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a WINDOW_UPDATE of 0');
      this.connectionSendWindow += increment;
      if (this.connectionSendWindow > MAX_WINDOW_SIZE) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, 'the connection window above 2^31-1');
    } else {
      const stream = this.streams.get(streamId);
      if (!stream) return;
      if (increment === 0 || stream.sendWindow + increment > MAX_WINDOW_SIZE) {
        stream.reset(increment === 0 ? ErrorCode.PROTOCOL_ERROR : ErrorCode.FLOW_CONTROL_ERROR);
        return;
      }
      stream.sendWindow += increment;
    }
    this.flushStreams();
  }

  /** Sends what the windows allow of each stream's queued data, then its trailers when all is out. */
  private flushStreams(): void {
    for (const stream of this.sendable) {
      while (stream.queue.length > 0 && this.connectionSendWindow > 0 && stream.sendWindow > 0) {
        const head = stream.queue[0]!;
        const size = Math.min(head.length, this.peerMaxFrameSize, this.connectionSendWindow, stream.sendWindow);
        const piece = size === head.length ? head : head.subarray(0, size);
        if (size === head.length) stream.queue.shift();
        else stream.queue[0] = head.subarray(size);
        this.connectionSendWindow -= size;
        stream.sendWindow -= size;
        this.send(frame(FrameType.DATA, 0, stream.id, piece));
      }
      if (stream.queue.length === 0) {
        this.sendable.delete(stream);
        const trailers = stream.trailers;
        if (trailers) {
          stream.trailers = undefined;
          this.send(headerFrames(stream.id, headerBlock(trailers), true, this.peerMaxFrameSize));
          stream.localEnd();
        }
      }
    }
  }

  /** Queues a frame; what a turn of the event loop queues goes out in one write. */
  private send(bytes: Buffer): void {
    if (this.ended) return;
    this.outgoing.push(bytes);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(() => this.flushOutgoing());
    }
  }

  private flushOutgoing(): void {
    this.flushScheduled = false;
    if (this.outgoing.length === 0 || this.socket.destroyed) return;
    const bytes = this.outgoing.length === 1 ? this.outgoing[0]! : Buffer.concat(this.outgoing);
    this.outgoing = [];
    this.socket.write(bytes);
  }

  private fail(error: unknown): void {
    const code = error instanceof ConnectionError ? error.code : ErrorCode.INTERNAL_ERROR;
    this.handlers.onError('http2 connection error', error);
    this.send(goawayFrame(this.lastStreamId, code));
    this.flushOutgoing();
    this.endSocket();
  }

  private endSocket(): void {
    if (this.ended) return;
    this.flushOutgoing();
    this.ended = true;
    this.socket.end();
  }

  private onSocketClose(): void {
    this.ended = true;
    this.idleTimer.clear();
    for (const stream of [...this.streams.values()]) stream.close(true);
    this.handlers.onClose?.();
  }
}

/**
 * Header blocks of header lists, kept per list object: a server answers every call with the same
 * few constant lists (response headers, OK trailers), and the encoder keeps no state, so one list
 * always encodes to the same block.
 */
const encodedBlocks = new WeakMap<HeaderList, Buffer>();

function headerBlock(headers: HeaderList): Buffer {
  let block = encodedBlocks.get(headers);
  if (block === undefined) {
    block = encodeHeaderBlock(headers);
    encodedBlocks.set(headers, block);
  }
  return block;
}

/** The payload of a DATA or HEADERS frame without its padding. */
function unpad(flags: number, payload: Buffer): Buffer {
  if ((flags & Flag.PADDED) === 0) return payload;
  if (payload.length < 1) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'a padded frame without its pad length');
  const padding = payload[0]!;
  if (padding >= payload.length) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, 'padding as long as the frame');
  return payload.subarray(1, payload.length - padding);
}
