/**
 * What the API request path (`./http` and `./interceptors/`) and the token source
 * (`./token-source`) both need from the transport: the error an attempt's timeout raises, turning
 * what undici throws into the retry policy's view of it, reading `Retry-After` and error bodies,
 * the sleep between attempts and the timer of an attempt's timeout. One module, so neither side
 * imports helpers back from the other; `./failures` makes the SDK's errors from them.
 */
import { isErrorBody } from '../api';
import { OrgAdminError, type TimeoutError } from './errors';
import type { AttemptFailure } from './retry-policy';

/** Waits `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
export type SleepFunction = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The default {@link SleepFunction}: a timer that rejects with the signal's own reason on abort.
 * It keeps the process alive on purpose: a script awaiting a retry must not exit half-way.
 */
export const defaultSleep: SleepFunction = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Starts a timer: calls `onExpiry` once `ms` milliseconds have passed, unless the returned function
 * cancelled it first. The per-attempt timeout (`./interceptors/timeout`) is the one place that
 * starts one, for API and token requests alike.
 */
export type TimerFunction = (ms: number, onExpiry: () => void) => () => void;

/**
 * The default {@link TimerFunction}: `setTimeout`, cancelled with `clearTimeout`. Unreferenced, as
 * `AbortSignal.timeout()` is: the request it limits is what keeps a process alive, not its timer.
 */
export const defaultTimer: TimerFunction = (ms, onExpiry) => {
  const timer = setTimeout(onExpiry, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * The code of a transport error: its own `code`, or that of its cause or of the first of an
 * `AggregateError` (Node's happy-eyeballs connect reports one per address).
 */
export function transportErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0) return transportErrorCode(errors[0]);
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined || cause === error ? undefined : transportErrorCode(cause);
}

/**
 * Raised by the timeout interceptor (`./interceptors/timeout`) when an attempt took longer than
 * its limit; `toTransportError` (`./failures`) turns it into the SDK's {@link TimeoutError}.
 */
export class AttemptTimeoutError extends Error {
  /** undici-style code, for logs. */
  readonly code = 'ORGADMIN_ATTEMPT_TIMEOUT';

  /**
   * @param timeoutMs the limit that was exceeded, in milliseconds
   * @param options `cause`: what the aborted exchange reported
   */
  constructor(
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`the attempt timed out after ${timeoutMs} ms`, options);
    this.name = 'AttemptTimeoutError';
  }
}

/**
 * The retry policy's view of what a transport threw: a timeout, or a connection failure with its
 * code. Undefined for what is not a transport failure: the SDK's own errors (the token source's,
 * which decided about retries itself) and programming errors (undici's invalid-argument errors).
 */
export function transportFailure(error: unknown): AttemptFailure | undefined {
  if (error instanceof OrgAdminError) return undefined;
  if (error instanceof AttemptTimeoutError) return { kind: 'timeout', timeoutMs: error.timeoutMs };
  const code = transportErrorCode(error);
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_INVALID_RETURN_VALUE') return undefined;
  return { kind: 'network', code };
}

/**
 * Reads `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns whole seconds to
 * wait (0 for a date in the past), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Longest excerpt of a non-JSON error body kept in an error. */
const BODY_EXCERPT_LENGTH = 200;

/**
 * Reads an error body: the service's `{"error","error_description"}` when it is one, otherwise a
 * short, single-line excerpt of whatever came back (a proxy's HTML page, plain text).
 */
export function readErrorBody(text: string): { error?: string; errorDescription?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (isErrorBody(parsed)) return { error: parsed.error, errorDescription: parsed.error_description };
    if (typeof parsed === 'object' && parsed !== null) {
      const error = (parsed as { error?: unknown }).error;
      const description = (parsed as { error_description?: unknown }).error_description;
      if (typeof error === 'string' || typeof description === 'string') {
        return {
          error: typeof error === 'string' ? error : undefined,
          errorDescription: typeof description === 'string' ? description : undefined,
        };
      }
    }
  } catch {
    // Not JSON: fall through to the excerpt.
  }
  const oneLine = trimmed.replace(/\s+/g, ' ');
  return {
    errorDescription: oneLine.length > BODY_EXCERPT_LENGTH ? `${oneLine.slice(0, BODY_EXCERPT_LENGTH)}…` : oneLine,
  };
}

