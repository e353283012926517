/**
 * listenOnUnixSocket: the plugin server listens on its unix socket (the socket accepts
 * connections, the address is the path, failures are `error` events).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenOnUnixSocket } from '../../../src/tfplugin/protocol/unix-listen';

const dirs: string[] = [];
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function socketPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'unix-listen-'));
  dirs.push(dir);
  return join(dir, 'plugin.sock');
}

function listening(server: Server, path: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    listenOnUnixSocket(server, path, () => resolvePromise());
  });
}

/** Connects to `path`, sends `text` and resolves with what the server echoes back. */
function echoOver(path: string, text: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(path, () => socket.end(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('end', () => resolvePromise(received));
    socket.on('error', reject);
  });
}

function echoServer(): Server {
  const server = createServer((socket) => socket.pipe(socket));
  servers.push(server);
  return server;
}

test('the server listens on the path and accepts connections there', async () => {
  const path = socketPath();
  const server = echoServer();
  await listening(server, path);
  expect(server.listening).toBe(true);
  expect(server.address()).toBe(path);
  await expect(echoOver(path, 'hello')).resolves.toBe('hello');
});

test('a socket that cannot be made is an error event, the one listen() emits', async () => {
  const path = join(socketPath(), 'no-such-directory', 'plugin.sock');
  const viaListen = await new Promise<NodeJS.ErrnoException>((resolvePromise) => {
    const server = echoServer();
    server.once('error', resolvePromise);
    server.listen(path);
  });
  expect(viaListen.code).toEqual(expect.any(String));
  await expect(listening(echoServer(), path)).rejects.toMatchObject({ code: viaListen.code, syscall: viaListen.syscall });
});
