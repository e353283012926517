/**
 * Listening on a unix socket without loading `node:cluster`.
 *
 * Why: Node.js's `net.Server#listen` always passes through its cluster logic, which first loads
 * `node:cluster` (and with it `child_process`, `dgram` and cluster's own modules) to ask whether
 * this process is a cluster worker, even in a process that never forks. The provider listens once
 * per start, before its handshake line, and Terraform starts it three to five times per command,
 * so skipping that load shortens each start (bench/README.md, bench:provider).
 *
 * In a process that is not a cluster worker, `listen(path)` ends in `server._listen2(path, -1, -1,
 * backlog)`: Node.js's own name for "make the handle and listen", kept since its early versions
 * so that code wrapping it keeps working (Node.js 20 and 22 still call it from `listen`). This
 * calls it the same way, after the same bookkeeping `listen` does for a path. Where it is missing,
 * or the process is a cluster worker (whose `listen` asks the primary for its handle), the public
 * `listen` runs instead.
 */
import type { Server } from 'node:net';

/** Node.js's internal listen step, present on every `net.Server` (see the module comment). */
interface ServerWithListenStep {
  _listen2?: (address: string, port: number, addressType: number, backlog: number) => void;
  _pipeName?: string;
  listening: boolean;
}

/** The backlog `listen` uses when none is given (the kernel rounds it up to 512). */
const DEFAULT_BACKLOG = 511;

/**
 * Starts `server` listening on the unix socket `path`; `onListening` runs once it listens. A
 * failure is emitted as the server's `error` event, as with `listen`.
 */
export function listenOnUnixSocket(server: Server, path: string, onListening: () => void, env: NodeJS.ProcessEnv = process.env): void {
  const internal = server as unknown as ServerWithListenStep;
  // A cluster worker's listen() asks the primary for the handle; NODE_UNIQUE_ID is how Node.js
  // itself tells a worker.
  if (typeof internal._listen2 !== 'function' || env.NODE_UNIQUE_ID !== undefined || internal.listening) {
    server.listen(path, onListening);
    return;
  }
  server.once('listening', onListening);
  internal._pipeName = path;
  internal._listen2(path, -1, -1, DEFAULT_BACKLOG);
}
