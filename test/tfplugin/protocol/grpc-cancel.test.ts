/**
 * A unary call's signal: the gRPC server aborts it when the call's HTTP/2 stream closes before
 * the answer (the client cancelled, or the server is closing), never after the answer.
 */
import * as http2 from 'node:http2';
import { PROTOCOL_DESCRIPTOR } from '../../../src/tfplugin/protocol/descriptor';
import { CallCancelledError, frame, GrpcServer, type UnaryCall } from '../../../src/tfplugin/protocol/grpc-server';
import { ProtoCodec, type ProtoMessage } from '../../../src/tfplugin/protocol/protobuf';

const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR);

interface Started {
  readonly call: UnaryCall;
  readonly answer: (response: ProtoMessage) => void;
}

/** A server whose ReadResource waits until the test answers it; `started` yields each call. */
async function holdingServer(): Promise<{ server: GrpcServer; port: number; next: () => Promise<Started> }> {
  const waiting: Array<(started: Started) => void> = [];
  const pending: Started[] = [];
  const server = new GrpcServer(codec);
  server.addService('tfplugin6.Provider', {
    ReadResource: (_request: ProtoMessage, call: UnaryCall) =>
      new Promise<ProtoMessage>((resolve) => {
        const started = { call, answer: resolve };
        const taker = waiting.shift();
        if (taker) taker(started);
        else pending.push(started);
      }),
  });
  await server.listen(0);
  const next = (): Promise<Started> => {
    const ready = pending.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
  };
  return { server, port: server.port()!, next };
}

function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
}

function callReadResource(session: http2.ClientHttp2Session): http2.ClientHttp2Stream {
  const stream = session.request({ ':method': 'POST', ':path': '/tfplugin6.Provider/ReadResource', 'content-type': 'application/grpc' });
  stream.on('error', () => undefined); // a cancelled stream errors on the client side
  stream.end(frame(codec.encode('tfplugin6.ReadResource.Request', { type_name: 'x' })));
  return stream;
}

describe('the signal of a unary call', () => {
  let session: http2.ClientHttp2Session | undefined;
  let server: GrpcServer | undefined;

  afterEach(async () => {
    session?.destroy();
    await server?.close();
    session = undefined;
    server = undefined;
  });

  it('aborts with a CallCancelledError when the client cancels the stream, and only that call', async () => {
    const held = await holdingServer();
    server = held.server;
    session = http2.connect(`http://127.0.0.1:${held.port}`);
    const cancelled = callReadResource(session);
    const first = await held.next();
    const other = callReadResource(session);
    const second = await held.next();
    const reason = aborted(first.call.signal);
    cancelled.close(http2.constants.NGHTTP2_CANCEL);
    expect(await reason).toBeInstanceOf(CallCancelledError);
    expect(second.call.signal.aborted).toBe(false);

    // The other call is still answered normally.
    const status = new Promise<string>((resolve) => other.on('trailers', (trailers) => resolve(String(trailers['grpc-status']))));
    other.resume();
    second.answer({});
    expect(await status).toBe('0');
    expect(second.call.signal.aborted).toBe(false);
  });

  it('aborts calls still running when the server closes', async () => {
    const held = await holdingServer();
    session = http2.connect(`http://127.0.0.1:${held.port}`);
    callReadResource(session);
    const started = await held.next();
    const reason = aborted(started.call.signal);
    await held.server.close();
    expect(await reason).toBeInstanceOf(CallCancelledError);
  });
});
