/**
 * The gRPC server's own bounds (issue 27, finding 11): a gzip message may not inflate past the
 * message limit, and connections beyond the connection limit are closed as they arrive. The
 * connection's bounds (header blocks, bodies, windows, idle time) are http2/connection.test.ts's.
 */
import * as http2 from 'node:http2';
import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { PROTOCOL_DESCRIPTOR } from '../../../src/tfplugin/protocol/descriptor';
import { GrpcServer, GrpcStatus } from '../../../src/tfplugin/protocol/grpc-server';
import { ProtoCodec } from '../../../src/tfplugin/protocol/protobuf';

const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR);

/** A compressed gRPC frame (flag 1) around `message`. */
function compressedFrame(message: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = 1;
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

/** Calls ReadResource with a gzip body; answers the grpc-status and grpc-message trailers. */
function call(session: http2.ClientHttp2Session, body: Buffer): Promise<{ status: string; message: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': '/tfplugin6.Provider/ReadResource', 'content-type': 'application/grpc', 'grpc-encoding': 'gzip' });
    let answer = { status: '', message: '' };
    const take = (headers: http2.IncomingHttpHeaders): void => {
      if (headers['grpc-status'] !== undefined) answer = { status: String(headers['grpc-status']), message: decodeURIComponent(String(headers['grpc-message'] ?? '')) };
    };
    stream.on('response', take);
    stream.on('trailers', take);
    stream.on('end', () => resolve(answer));
    stream.on('error', reject);
    stream.resume();
    stream.end(body);
  });
}

describe('GrpcServer bounds', () => {
  let server: GrpcServer | undefined;
  const sockets: Socket[] = [];
  let session: http2.ClientHttp2Session | undefined;
  afterEach(async () => {
    session?.destroy();
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.close();
    server = undefined;
  });

  it('refuses a gzip message that inflates past the message limit with RESOURCE_EXHAUSTED, without inflating it', async () => {
    let calls = 0;
    server = new GrpcServer(codec, { limits: { maxMessageSize: 1024 * 1024 } });
    server.addService('tfplugin6.Provider', { ReadResource: () => ((calls += 1), {}) });
    await server.listen(0);
    session = http2.connect(`http://127.0.0.1:${server.port()}`);
    // 64 MiB of zeros compress to about 64 KB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(128 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const refused = await call(session, compressedFrame(bomb));
    expect(refused.status).toBe(String(GrpcStatus.RESOURCE_EXHAUSTED));
    expect(refused.message).toContain('inflates to more than 1048576 bytes');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
    // A compressed message within the limit is served.
    const fine = await call(session, compressedFrame(gzipSync(codec.encode('tfplugin6.ReadResource.Request', { type_name: 'x' }))));
    expect(fine.status).toBe('0');
    expect(calls).toBe(1);
  });

  it('closes connections beyond its connection limit as they arrive, and serves those within it', async () => {
    const drops: string[] = [];
    server = new GrpcServer(codec, { maxConnections: 2, onTransportError: (message) => drops.push(message) });
    server.addService('tfplugin6.Provider', { ReadResource: () => ({}) });
    await server.listen(0);
    const open = async (): Promise<{ socket: Socket; closed: Promise<void> }> => {
      const socket = connect(server!.port()!, '127.0.0.1');
      sockets.push(socket);
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.resume();
      await new Promise((resolve) => socket.once('connect', resolve));
      return { socket, closed };
    };
    // One gRPC client and one raw socket fill the limit; the next connection is closed at once.
    session = http2.connect(`http://127.0.0.1:${server.port()}`);
    await new Promise((resolve) => session!.once('connect', resolve));
    await open();
    const third = await open();
    await third.closed;
    expect(drops).toContain('a connection over the connection limit was closed');
    // The connections within the limit are served.
    const answer = await call(session, compressedFrame(gzipSync(codec.encode('tfplugin6.ReadResource.Request', { type_name: 'x' }))));
    expect(answer.status).toBe('0');
  });
});
