/**
 * Waiting for a domain verification, the way `aws_acm_certificate_validation` waits for a
 * certificate: ask the service to verify, and while the record is not there yet ask again with
 * exponential backoff until a deadline. The clock and the sleep are parameters so that tests can
 * drive the wait without waiting.
 */
import type { DomainVerification } from '../api/domains';

/** The first pause between two verification attempts. */
export const FIRST_PAUSE_MS = 1_000;
/** The longest pause between two attempts. */
export const MAX_PAUSE_MS = 30_000;
/** How long a verification waits when `timeouts.create` is not set (Terraform's convention for long creates). */
export const DEFAULT_CREATE_TIMEOUT_MS = 10 * 60_000;

/** What the wait needs from its surroundings. */
export interface WaitClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const REAL_CLOCK: WaitClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** How a wait ended: verified, or the deadline passed with the last attempt's answer. */
export interface WaitOutcome {
  verified: boolean;
  /** The last answer of the service. */
  last: DomainVerification;
  /** How many times the service was asked. */
  attempts: number;
}

/**
 * Calls `verify` until it answers verified or `timeoutMs` has passed; pauses double from
 * {@link FIRST_PAUSE_MS} to {@link MAX_PAUSE_MS}, the last one cut to end at the deadline, where
 * one final attempt is made. Errors of `verify` (a 409 for a domain another organization holds,
 * a refused permission) end the wait at once.
 */
export async function waitForVerification(verify: () => Promise<DomainVerification>, timeoutMs: number, clock: WaitClock, signal?: AbortSignal): Promise<WaitOutcome> {
  const deadline = clock.now() + timeoutMs;
  let pause = FIRST_PAUSE_MS;
  for (let attempts = 1; ; attempts += 1) {
    const last = await verify();
    if (last.verified) return { verified: true, last, attempts };
    const left = deadline - clock.now();
    if (left <= 0) return { verified: false, last, attempts };
    await clock.sleep(Math.min(pause, left), signal);
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  }
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/**
 * A Terraform timeout string (Go's duration syntax as `timeouts` blocks take it: `10m`, `1h30m`,
 * `45s`) in milliseconds, or undefined when it is not one or is not positive.
 */
export function parseDuration(text: string): number | undefined {
  if (!/^(\d+(?:\.\d+)?(ms|h|m|s))+$/.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(DURATION_PART)) total += Number(match[1]) * UNIT_MS[match[2]!]!;
  return total > 0 ? total : undefined;
}
