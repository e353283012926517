/**
 * Listening on a unix socket: the plugin server's default transport outside Windows.
 */
import type { Server } from 'node:net';

/**
 * Starts `server` listening on the unix socket `path`; `onListening` runs once it listens. A
 * failure is emitted as the server's `error` event, as with `listen`.
 */
export function listenOnUnixSocket(server: Server, path: string, onListening: () => void): void {
  server.listen(path, onListening);
}
