/**
 * A {@link TimerFunction} that the test runs by hand: timers it starts never expire on their own;
 * {@link ManualTimer.expire} expires them. Given to the SDK as its `timer` option, it lets a test
 * decide when an attempt times out, without waiting for real time.
 */
import type { TimerFunction } from '../../src/client';

/** A timer that was started and neither expired nor cancelled yet. */
interface PendingTimer {
  readonly ms: number;
  readonly onExpiry: () => void;
}

/** Timers started through {@link ManualTimer.timer}, expired only by the test. */
export class ManualTimer {
  readonly #pending = new Set<PendingTimer>();
  #waiters: Array<{ count: number; wake: () => void }> = [];
  #started = 0;

  /** The {@link TimerFunction} to hand to the SDK. */
  readonly timer: TimerFunction = (ms, onExpiry) => {
    const pending: PendingTimer = { ms, onExpiry };
    this.#pending.add(pending);
    this.#started += 1;
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.#started < waiter.count) return true;
      waiter.wake();
      return false;
    });
    return () => {
      this.#pending.delete(pending);
    };
  };

  /** How many timers were started so far, expired or cancelled ones included. */
  get started(): number {
    return this.#started;
  }

  /** The limits of the timers still running, in milliseconds, oldest first. */
  get running(): number[] {
    return [...this.#pending].map((pending) => pending.ms);
  }

  /** Resolves once `count` timers have been started in all (an attempt is under way). */
  whenStarted(count = 1): Promise<void> {
    if (this.#started >= count) return Promise.resolve();
    return new Promise<void>((wake) => this.#waiters.push({ count, wake }));
  }

  /** Expires every timer still running, as if their time had passed. Returns how many expired. */
  expire(): number {
    const due = [...this.#pending];
    this.#pending.clear();
    for (const pending of due) pending.onExpiry();
    return due.length;
  }
}
