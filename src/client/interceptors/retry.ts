/**
 * Retries as an undici interceptor, by the SDK's retry policy (`../retry-policy`: which failures,
 * how long to wait, how each attempt is described). It sends the request, and when the attempt
 * failed (an answer outside 2xx, a timeout, a connection failure) it writes the attempt down in the
 * request's record and either waits and sends again or passes the last answer or error up
 * unchanged: the sender turns that into a typed error carrying the record's attempt log.
 *
 * Errors the policy does not know pass up at once: the SDK's own errors (the token source retried
 * its token request itself, inside its single flight) and programming errors. The caller's abort
 * stops a wait at once, with the caller's reason.
 */
import type { Dispatcher } from 'undici';
import { delayBeforeRetry, describeAttempt, isRetryable, whyNotRetried, type AttemptFailure, type RetrySettings } from '../retry-policy';
import { parseRetryAfter, transportFailure, type SleepFunction } from '../transport';
import { bufferedInterceptor, type BufferedAnswer } from './buffered';
import { recordOf } from './request-record';

/** How the retry interceptor retries. */
export interface RetryInterceptorSettings extends RetrySettings {
  /** Waits between attempts (tests inject one that records). */
  readonly sleep: SleepFunction;
}

/** The policy's view of an answer outside 2xx. */
function answerFailure(answer: BufferedAnswer): AttemptFailure {
  const retryAfterSeconds = parseRetryAfter(answer.headers['retry-after']);
  return { kind: 'status', status: answer.statusCode, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
}

/** An interceptor that retries each request dispatched through it by the SDK's retry policy. */
export function retryInterceptor(settings: RetryInterceptorSettings): Dispatcher.DispatcherComposeInterceptor {
  return bufferedInterceptor(async (opts, next, signal) => {
    const record = recordOf(opts);
    for (let retries = 0; ; retries++) {
      record.onAttempt?.();
      let outcome: { answer: BufferedAnswer } | { error: unknown };
      let failure: AttemptFailure | undefined;
      try {
        const answer = await next(opts, signal);
        if (answer.statusCode >= 200 && answer.statusCode < 300) return answer;
        outcome = { answer };
        failure = answerFailure(answer);
      } catch (error) {
        signal.throwIfAborted();
        failure = transportFailure(error);
        if (failure === undefined) throw error;
        outcome = { error };
      }
      record.outcomes.push(describeAttempt(failure));
      if (!isRetryable(failure, record.repeatable) || retries >= settings.maxRetries) {
        record.stoppedBecause = whyNotRetried(failure, record.repeatable, record.outcomes.length, settings.maxRetries);
        if ('answer' in outcome) return outcome.answer;
        throw outcome.error;
      }
      await settings.sleep(delayBeforeRetry(failure, retries, settings), signal);
    }
  });
}
