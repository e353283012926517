/**
 * The per-attempt timeout as an undici interceptor: every request dispatched through it gets
 * `timeoutMs` for its whole exchange (connection, headers and body) and fails with
 * {@link AttemptTimeoutError} when that runs out. Composed below the retry interceptor, so each
 * attempt gets a limit of its own and the retry policy sees the timeout.
 *
 * The limit runs on the {@link TimerFunction} the client or the token source was given (the real
 * `setTimeout` by default), so a test decides when an attempt times out instead of waiting for it.
 * undici's own headers and body timeouts get the same limit only so that their defaults (300 s)
 * never cut a longer limit short: they keep real time and start later than this timer, so with the
 * default timer they never expire first.
 */
import type { Dispatcher } from 'undici';
import { AttemptTimeoutError, transportErrorCode, type TimerFunction } from '../transport';
import { bufferedInterceptor } from './buffered';

/** undici's own headers and body timeouts, which we set to the same limit (a connect timeout is a connection failure). */
const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** An interceptor that limits each request dispatched through it to `timeoutMs` milliseconds, timed by `timer`. */
export function timeoutInterceptor(timeoutMs: number, timer: TimerFunction): Dispatcher.DispatcherComposeInterceptor {
  return bufferedInterceptor(async (opts, next, signal) => {
    // The attempt's signal aborts when the caller's does (with the caller's reason) or when the
    // limit runs out. It follows the caller's through a listener removed at the end, not
    // AbortSignal.any, which costs more per request than the rest of this interceptor
    // (bench/README.md, bench:provider, start-up decisions).
    const attempt = new AbortController();
    const followCaller = (): void => attempt.abort(signal.reason);
    if (signal.aborted) followCaller();
    else signal.addEventListener('abort', followCaller, { once: true });
    // The reason AbortSignal.timeout() gives, so the timeout's cause reads as it always did.
    const cancel = timer(timeoutMs, () => attempt.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    try {
      return await next({ ...opts, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }, attempt.signal);
    } catch (error) {
      // The caller's abort is not a timeout, even when both happen together.
      if (!signal.aborted && (attempt.signal.aborted || UNDICI_TIMEOUT_CODES.has(transportErrorCode(error) ?? ''))) {
        throw new AttemptTimeoutError(timeoutMs, { cause: error });
      }
      throw error;
    } finally {
      cancel();
      signal.removeEventListener('abort', followCaller);
    }
  });
}
