/**
 * When a webhook send is tried again after a failed attempt: exponential backoff with jitter, for a
 * bounded period after the first attempt of a round, then the send is given up (`failed`; a
 * resend starts a new round). docs/guides/service.md documents the defaults.
 */

/** The backoff of failed webhook sends. */
export interface RetryPolicy {
  /** Wait after the first failed attempt (ms). */
  readonly initialMs: number;
  /** Each further wait is this many times the previous one. */
  readonly multiplier: number;
  /** Longest wait between two attempts (ms). */
  readonly maxIntervalMs: number;
  /** A send whose first attempt of the round is this long ago is given up instead of tried again (ms). */
  readonly giveUpAfterMs: number;
  /** Each wait is spread by up to this share either way, so failed receivers are not hit in step. */
  readonly jitter: number;
}

/** 1 s, doubling, at most 10 minutes apart, for 24 hours, ±20 %. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialMs: 1000,
  multiplier: 2,
  maxIntervalMs: 10 * 60 * 1000,
  giveUpAfterMs: 24 * 60 * 60 * 1000,
  jitter: 0.2,
};

/**
 * When the next attempt is due after the `attempts`-th failed attempt of a round (1 for the first)
 * made at `now`, the round's first attempt having been at `firstAttemptAt`; undefined to give up.
 * `random` is in [0, 1).
 */
export function nextAttemptAt(policy: RetryPolicy, attempts: number, firstAttemptAt: number, now: number, random: number): number | undefined {
  if (now - firstAttemptAt >= policy.giveUpAfterMs) return undefined;
  const base = Math.min(policy.maxIntervalMs, policy.initialMs * policy.multiplier ** Math.max(attempts - 1, 0));
  const spread = base * policy.jitter * (2 * random - 1);
  return now + Math.max(0, Math.round(base + spread));
}
