/**
 * Graceful shutdown of a listening app: stop accepting connections, answer every request already
 * accepted (also those still arriving on open keep-alive connections: fastify answers them with
 * `Connection: close`, since the app is built with `return503OnClosing: false`), close idle
 * keep-alive connections at once, and after `timeoutMs` cut whatever is still open.
 */
import type { FastifyInstance } from 'fastify';

/** Default bound of a graceful shutdown (ms). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** How a graceful shutdown ended. */
export interface ShutdownOutcome {
  /** True when the bound passed and open connections were cut (their requests got no answer). */
  forced: boolean;
  /** Milliseconds the shutdown took. */
  elapsedMs: number;
}

/** Closes `app` gracefully within `timeoutMs` (see the module comment). */
export async function closeGracefully(app: FastifyInstance, timeoutMs: number = DEFAULT_SHUTDOWN_TIMEOUT_MS): Promise<ShutdownOutcome> {
  const started = performance.now();
  let forced = false;
  const timer = setTimeout(() => {
    forced = true;
    app.server.closeAllConnections();
  }, timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
  return { forced, elapsedMs: performance.now() - started };
}
