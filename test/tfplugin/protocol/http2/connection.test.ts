/**
 * The provider's HTTP/2 server connection against Node's own HTTP/2 client (nghttp2, an independent
 * implementation) and against raw frames: flow control both ways, pings, resets, refused streams,
 * header blocks split over CONTINUATION frames, protocol errors and graceful close.
 */
import * as http2 from 'node:http2';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { ErrorCode, Flag, frame, FrameType, settingsFrame, CLIENT_PREFACE } from '../../../../src/tfplugin/protocol/http2/frames';
import { Http2ServerConnection, type Http2ServerLimits, type Http2ServerStream, type IdleTimers } from '../../../../src/tfplugin/protocol/http2/connection';
import { encodeHeaderBlock } from '../../../../src/tfplugin/protocol/http2/hpack';

interface Served {
  server: Server;
  port: number;
  streams: Http2ServerStream[];
  errors: string[];
  connections: Http2ServerConnection[];
}

/** A TCP server on port 0 whose connections are {@link Http2ServerConnection}s handled by `onStream`. */
async function serve(onStream: (stream: Http2ServerStream) => void, limits?: Http2ServerLimits): Promise<Served> {
  const served: Served = { server: undefined as unknown as Server, port: 0, streams: [], errors: [], connections: [] };
  served.server = createServer((socket: Socket) => {
    served.connections.push(
      new Http2ServerConnection(
        socket,
        {
          onStream: (stream) => {
            served.streams.push(stream);
            onStream(stream);
          },
          onError: (message, error) => served.errors.push(`${message}: ${(error as Error).message}`),
        },
        limits,
      ),
    );
  });
  await new Promise<void>((resolve) => served.server.listen(0, '127.0.0.1', resolve));
  served.port = (served.server.address() as { port: number }).port;
  return served;
}

/** Resolves once `condition` holds, checked after each turn of the event loop (no timers). */
function until(condition: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => (condition() ? resolve() : void setImmediate(check));
    check();
  });
}

/** Answers every request with its own body, then a trailer. */
function echo(stream: Http2ServerStream): void {
  stream.onEnd = (body) => {
    stream.respond([[':status', '200'], ['x-path', stream.header(':path') ?? '']]);
    stream.write(body);
    stream.end([['x-length', String(body.length)]]);
  };
}

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
  trailers: http2.IncomingHttpHeaders;
}

function request(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': 'POST', ...headers });
    const chunks: Buffer[] = [];
    let head: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    req.on('response', (h) => (head = h));
    req.on('trailers', (t) => (trailers = t));
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks), trailers }));
    req.on('error', reject);
    req.end(body);
  });
}

/** A frame as read off the wire. */
interface RawFrame {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

/** Reads frames from a raw socket until `enough` says so (or the socket closes). */
function readFrames(socket: Socket, enough: (frames: RawFrame[]) => boolean): Promise<RawFrame[]> {
  return new Promise((resolve) => {
    const frames: RawFrame[] = [];
    let pending = Buffer.alloc(0);
    const done = (): void => {
      socket.removeAllListeners('data');
      resolve(frames);
    };
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 9 && pending.length >= 9 + pending.readUIntBE(0, 3)) {
        const length = pending.readUIntBE(0, 3);
        frames.push({ type: pending[3]!, flags: pending[4]!, streamId: pending.readUInt32BE(5), payload: pending.subarray(9, 9 + length) });
        pending = pending.subarray(9 + length);
      }
      if (enough(frames)) done();
    });
    socket.on('close', done);
  });
}

describe('Http2ServerConnection', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function clientOf(served: Served, settings?: http2.Settings): Promise<http2.ClientHttp2Session> {
    const session = http2.connect(`http://127.0.0.1:${served.port}`, settings ? { settings } : {});
    cleanups.push(() => new Promise<void>((resolve) => (session.closed ? resolve() : session.close(() => resolve()))));
    await new Promise<void>((resolve, reject) => {
      session.once('connect', () => resolve());
      session.once('error', reject);
    });
    return session;
  }

  /** A plain TCP connection to the server, for writing frames by hand. */
  async function rawSocket(served: Served): Promise<Socket> {
    const socket = connect(served.port, '127.0.0.1');
    cleanups.push(() => void socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  }

  async function started(onStream: (stream: Http2ServerStream) => void, limits?: Http2ServerLimits): Promise<Served> {
    const served = await serve(onStream, limits);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const connection of served.connections) connection.destroy();
          served.server.close(() => resolve());
        }),
    );
    return served;
  }

  it('answers requests with headers, data and trailers, several streams on one connection', async () => {
    const served = await started(echo);
    const session = await clientOf(served);
    const answers = await Promise.all([1, 2, 3].map((n) => request(session, { ':path': `/p${n}` }, Buffer.from(`body ${n}`))));
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.headers['x-path']).toBe(`/p${i + 1}`);
      expect(answer.body.toString()).toBe(`body ${i + 1}`);
      expect(answer.trailers['x-length']).toBe(String(`body ${i + 1}`.length));
    });
    expect(served.errors).toEqual([]);
  });

  it('sends a response larger than the client\'s windows as the client grants them', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const served = await started((stream) => {
      stream.onEnd = () => {
        stream.respond([[':status', '200']]);
        stream.write(big);
        stream.end([['x-done', 'yes']]);
      };
    });
    // A small client window: the answer needs dozens of WINDOW_UPDATEs to get through.
    const session = await clientOf(served, { initialWindowSize: 16_384 });
    const answer = await request(session, { ':path': '/big' });
    expect(answer.body.equals(big)).toBe(true);
    expect(answer.trailers['x-done']).toBe('yes');
  });

  it('takes a request body larger than its stream window (it gives it back as it reads)', async () => {
    const served = await started(echo, { streamWindow: 65_535, connectionWindow: 8 * 1024 * 1024 });
    const session = await clientOf(served);
    const body = Buffer.alloc(2 * 1024 * 1024, 3);
    const answer = await request(session, { ':path': '/upload' }, body);
    expect(answer.trailers['x-length']).toBe(String(body.length));
    expect(answer.body.equals(body)).toBe(true);
  });

  it('decodes request headers split over CONTINUATION frames', async () => {
    const served = await started(echo);
    const session = await clientOf(served);
    const long = 'v'.repeat(40_000);
    const answer = await request(session, { ':path': '/long', 'x-long': long });
    expect(answer.status).toBe(200);
    expect(served.streams[0]!.header('x-long')).toBe(long);
  });

  it('answers pings', async () => {
    const served = await started(echo);
    const session = await clientOf(served);
    const payload = Buffer.from('12345678');
    const echoed = await new Promise<Buffer>((resolve, reject) => {
      session.ping(payload, (error, _duration, answer) => (error ? reject(error) : resolve(answer)));
    });
    expect(echoed.equals(payload)).toBe(true);
  });

  it('tells a stream that the client reset it', async () => {
    const closes: boolean[] = [];
    const served = await started((stream) => {
      stream.onClose = (cancelled) => closes.push(cancelled);
    });
    const session = await clientOf(served);
    const req = session.request({ ':method': 'POST', ':path': '/hang' });
    req.on('error', () => undefined);
    await until(() => served.streams.length > 0);
    req.close(http2.constants.NGHTTP2_CANCEL);
    await until(() => closes.length > 0);
    expect(closes).toEqual([true]);
    expect(served.streams[0]!.closed).toBe(true);
  });

  it('announces its concurrency limit: a client that keeps to it is served in turn', async () => {
    const held: Http2ServerStream[] = [];
    const served = await started((stream) => held.push(stream), { maxConcurrentStreams: 1 });
    const session = await clientOf(served);
    const first = request(session, { ':path': '/one' });
    await until(() => held.length > 0);
    held[0]!.respond([[':status', '200']], true);
    expect((await first).status).toBe(200);
    const second = request(session, { ':path': '/two' });
    await until(() => held.length > 1);
    held[1]!.respond([[':status', '204']], true);
    expect((await second).status).toBe(204);
  });

  it('refuses a stream over its concurrency limit (REFUSED_STREAM) and serves the others', async () => {
    const held: Http2ServerStream[] = [];
    const served = await started((stream) => held.push(stream), { maxConcurrentStreams: 1 });
    const socket = await rawSocket(served);
    const frames = readFrames(socket, (seen) => seen.some((f) => f.type === FrameType.RST_STREAM));
    const headers = (path: string): Buffer => encodeHeaderBlock([[':method', 'POST'], [':scheme', 'http'], [':path', path], [':authority', 'x']]);
    socket.write(
      Buffer.concat([
        CLIENT_PREFACE,
        settingsFrame([]),
        frame(FrameType.HEADERS, Flag.END_HEADERS, 1, headers('/one')),
        frame(FrameType.HEADERS, Flag.END_HEADERS, 3, headers('/two')),
      ]),
    );
    const reset = (await frames).find((f) => f.type === FrameType.RST_STREAM);
    expect(reset?.streamId).toBe(3);
    expect(reset?.payload.readUInt32BE(0)).toBe(ErrorCode.REFUSED_STREAM);
    expect(held.map((stream) => stream.header(':path'))).toEqual(['/one']);
  });

  it('answers before the request ends without cutting the request off', async () => {
    const served = await started((stream) => stream.respond([[':status', '200'], ['grpc-status', '12']], true));
    const session = await clientOf(served);
    const answer = await request(session, { ':path': '/unknown' }, Buffer.alloc(100_000, 1));
    expect(answer.status).toBe(200);
    expect(answer.headers['grpc-status']).toBe('12');
    expect(served.errors).toEqual([]);
  });

  it('ends the connection with GOAWAY(FRAME_SIZE_ERROR) on a frame above the frame size limit', async () => {
    const served = await started(echo);
    const socket = await rawSocket(served);
    const frames = readFrames(socket, (seen) => seen.some((f) => f.type === FrameType.GOAWAY));
    socket.write(Buffer.concat([CLIENT_PREFACE, settingsFrame([]), frame(FrameType.DATA, 0, 1, Buffer.alloc(20_000))]));
    const goaway = (await frames).find((f) => f.type === FrameType.GOAWAY);
    expect(goaway?.payload.readUInt32BE(4)).toBe(ErrorCode.FRAME_SIZE_ERROR);
    expect(served.errors.join('\n')).toContain('above 16384');
  });

  it('closes a connection that does not start with the HTTP/2 preface', async () => {
    const served = await started(echo);
    const socket = await rawSocket(served);
    const frames = readFrames(socket, () => false);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const seen = await frames;
    expect(seen.find((f) => f.type === FrameType.GOAWAY)?.payload.readUInt32BE(4)).toBe(ErrorCode.PROTOCOL_ERROR);
    expect(served.streams).toEqual([]);
  });

  it('ends the connection on a header block it cannot decode (COMPRESSION_ERROR)', async () => {
    const served = await started(echo);
    const socket = await rawSocket(served);
    const frames = readFrames(socket, (seen) => seen.some((f) => f.type === FrameType.GOAWAY));
    // Index 0 is never valid in HPACK.
    socket.write(Buffer.concat([CLIENT_PREFACE, settingsFrame([]), frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, Buffer.from([0x80]))]));
    const goaway = (await frames).find((f) => f.type === FrameType.GOAWAY);
    expect(goaway?.payload.readUInt32BE(4)).toBe(ErrorCode.COMPRESSION_ERROR);
    expect(served.streams).toEqual([]);
  });

  it('closes gracefully: GOAWAY, then the socket once the open streams are done', async () => {
    const held: Http2ServerStream[] = [];
    const served = await started((stream) => held.push(stream));
    const session = await clientOf(served);
    const goaway = new Promise<number>((resolve) => session.once('goaway', (code) => resolve(code)));
    const pending = request(session, { ':path': '/slow' });
    await until(() => held.length > 0);
    served.connections[0]!.close();
    expect(await goaway).toBe(ErrorCode.NO_ERROR);
    held[0]!.respond([[':status', '200']]);
    held[0]!.write(Buffer.from('late'));
    held[0]!.end([]);
    const answer = await pending;
    expect(answer.body.toString()).toBe('late');
    await new Promise<void>((resolve) => (session.closed ? resolve() : session.once('close', () => resolve())));
  });

  describe('bounds on what a client can make it hold (issue 27, finding 11)', () => {
    /**
     * Writes `piece` to `socket` again and again, `total` bytes in all, waiting for the socket to
     * drain, until done or the server closes the connection; answers the bytes written.
     */
    async function flood(socket: Socket, piece: Buffer, total: number): Promise<number> {
      let written = 0;
      let closed = false;
      socket.once('close', () => (closed = true));
      socket.on('error', () => (closed = true));
      while (!closed && written < total) {
        written += piece.length;
        if (!socket.write(piece)) await new Promise((resolve) => { socket.once('drain', resolve); socket.once('close', resolve); });
      }
      return written;
    }

    it('ends the connection with ENHANCE_YOUR_CALM once a header block passes its limit, holding no more (CONTINUATION flood)', async () => {
      const served = await started(echo);
      const socket = await rawSocket(served);
      const frames = readFrames(socket, (seen) => seen.some((f) => f.type === FrameType.GOAWAY));
      const before = process.memoryUsage().arrayBuffers;
      socket.write(Buffer.concat([CLIENT_PREFACE, settingsFrame([]), frame(FrameType.HEADERS, 0, 1, encodeHeaderBlock([[':path', '/flood']]))]));
      // One 16 KiB CONTINUATION frame, sent over and over: 64 MiB unless the server stops it.
      const written = await flood(socket, frame(FrameType.CONTINUATION, 0, 1, Buffer.alloc(16_384, 0x41)), 64 * 1024 * 1024);
      const goaway = (await frames).find((f) => f.type === FrameType.GOAWAY);
      expect(goaway?.payload.readUInt32BE(4)).toBe(ErrorCode.ENHANCE_YOUR_CALM);
      expect(served.errors.join('\n')).toContain('a header block above 65536 bytes');
      expect(written).toBeLessThan(64 * 1024 * 1024);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
      expect(served.streams).toEqual([]);
    });

    it('resets a stream whose body passes the message limit (ENHANCE_YOUR_CALM) and serves the next', async () => {
      const served = await started(echo, { connectionWindow: 2 * 1024 * 1024, maxMessageSize: 256 * 1024 });
      const session = await clientOf(served);
      const refused = request(session, { ':path': '/big' }, Buffer.alloc(300 * 1024, 1));
      await expect(refused).rejects.toMatchObject({ code: 'ERR_HTTP2_STREAM_ERROR' });
      expect(served.errors.join('\n')).toContain('a request body above 262144 bytes');
      const fits = Buffer.alloc(256 * 1024 - 1, 2);
      const answer = await request(session, { ':path': '/fits' }, fits);
      expect(answer.trailers['x-length']).toBe(String(fits.length));
    });

    it('never grants more connection window than the bodies it holds leave: unfinished bodies on many streams end in FLOW_CONTROL_ERROR', async () => {
      const window = 1024 * 1024;
      const served = await started(echo, { connectionWindow: window, streamWindow: window });
      const socket = await rawSocket(served);
      const frames = readFrames(socket, (seen) => seen.some((f) => f.type === FrameType.GOAWAY));
      socket.write(Buffer.concat([CLIENT_PREFACE, settingsFrame([])]));
      // 16 streams, 128 KiB each, never ended: twice the connection window, as a client ignoring the windows sends it.
      const chunk = Buffer.alloc(16_384, 7);
      const pieces: Buffer[] = [];
      for (let stream = 1; stream <= 31; stream += 2) pieces.push(frame(FrameType.HEADERS, Flag.END_HEADERS, stream, encodeHeaderBlock([[':path', `/s${stream}`]])));
      for (let round = 0; round < 8; round += 1) for (let stream = 1; stream <= 31; stream += 2) pieces.push(frame(FrameType.DATA, 0, stream, chunk));
      socket.write(Buffer.concat(pieces));
      const seen = await frames;
      expect(seen.find((f) => f.type === FrameType.GOAWAY)?.payload.readUInt32BE(4)).toBe(ErrorCode.FLOW_CONTROL_ERROR);
      // The only connection-level WINDOW_UPDATE is the opening one that announces the window.
      const connectionUpdates = seen.filter((f) => f.type === FrameType.WINDOW_UPDATE && f.streamId === 0).map((f) => f.payload.readUInt32BE(0));
      expect(connectionUpdates).toEqual([window - 65_535]);
      expect(served.streams).toHaveLength(16);
    });

    it('gives the connection window back once bodies are handed over: many requests, each under the limit, in a row', async () => {
      const served = await started(echo, { connectionWindow: 1024 * 1024, streamWindow: 1024 * 1024 });
      const session = await clientOf(served);
      const body = Buffer.alloc(400 * 1024, 5);
      for (let i = 0; i < 8; i += 1) expect((await request(session, { ':path': `/r${i}` }, body)).trailers['x-length']).toBe(String(body.length));
    });

    /** Idle timers the test fires by hand. */
    function handTimers(): { timers: IdleTimers; fire: () => void; refreshes: () => number } {
      let onIdle: (() => void) | undefined;
      let refreshes = 0;
      return {
        timers: { start: (callback) => ((onIdle = callback), { refresh: () => void (refreshes += 1), clear: () => (onIdle = undefined) }) },
        fire: () => onIdle?.(),
        refreshes: () => refreshes,
      };
    }

    it('closes an idle connection: at once before HTTP/2 began, with GOAWAY after; not while a call is open', async () => {
      const silent = handTimers();
      const served = await started(echo, { timers: silent.timers });
      const mute = await rawSocket(served);
      const muteClosed = new Promise((resolve) => mute.once('close', resolve));
      mute.resume(); // reads (and drops) the server's SETTINGS, so that its end is seen
      await until(() => served.connections.length === 1);
      silent.fire();
      await muteClosed;
      expect(served.errors.join('\n')).toContain('idle before it began');

      const idle = handTimers();
      const held: Http2ServerStream[] = [];
      const served2 = await started((stream) => held.push(stream), { timers: idle.timers });
      const socket = await rawSocket(served2);
      const frames = readFrames(socket, (seen) => seen.some((f) => f.type === FrameType.GOAWAY));
      socket.write(Buffer.concat([CLIENT_PREFACE, settingsFrame([]), frame(FrameType.HEADERS, Flag.END_HEADERS, 1, encodeHeaderBlock([[':path', '/long-call']]))]));
      await until(() => held.length === 1 && idle.refreshes() > 0);
      // A call in progress (a long apply): the connection stays.
      idle.fire();
      expect(held[0]!.closed).toBe(false);
      held[0]!.respond([[':status', '200']], true);
      socket.write(frame(FrameType.DATA, Flag.END_STREAM, 1, Buffer.alloc(0)));
      await until(() => held[0]!.closed);
      idle.fire();
      const goaway = (await frames).find((f) => f.type === FrameType.GOAWAY);
      expect(goaway?.payload.readUInt32BE(4)).toBe(ErrorCode.NO_ERROR);
    });
  });
});
