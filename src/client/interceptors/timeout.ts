/**
 * The per-attempt timeout as an undici interceptor: every request dispatched through it gets
 * `timeoutMs` for its whole exchange (connection, headers and body) and fails with
 * {@link AttemptTimeoutError} when that runs out. Composed below the retry interceptor, so each
 * attempt gets a limit of its own and the retry policy sees the timeout.
 */
import type { Dispatcher } from 'undici';
import { AttemptTimeoutError, transportErrorCode } from '../transport';
import { bufferedInterceptor } from './buffered';

/** undici's own headers and body timeouts, which we set to the same limit (a connect timeout is a connection failure). */
const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** An interceptor that limits each request dispatched through it to `timeoutMs` milliseconds. */
export function timeoutInterceptor(timeoutMs: number): Dispatcher.DispatcherComposeInterceptor {
  return bufferedInterceptor(async (opts, next, signal) => {
    const timer = AbortSignal.timeout(timeoutMs);
    try {
      return await next({ ...opts, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }, AbortSignal.any([signal, timer]));
    } catch (error) {
      // The caller's abort is not a timeout, even when both happen together.
      if (!signal.aborted && (timer.aborted || UNDICI_TIMEOUT_CODES.has(transportErrorCode(error) ?? ''))) {
        throw new AttemptTimeoutError(timeoutMs, { cause: error });
      }
      throw error;
    }
  });
}
