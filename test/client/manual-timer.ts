/**
 * A {@link TimerFunction} that the test runs by hand: timers it starts never expire on their own;
 * {@link ManualTimer.expire} expires them. Given to the SDK as its `timer` option, it lets a test
 * decide when an attempt times out, without waiting for real time.
 */
import type { TimerFunction } from '../../src/client';

/** A timer that was started and neither expired nor cancelled yet. */
interface RunningTimer {
  readonly ms: number;
  readonly onExpiry: () => void;
}

/** Timers started through {@link ManualTimer.timer}, expired only by the test. */
export class ManualTimer {
  readonly #running = new Set<RunningTimer>();

  /** The {@link TimerFunction} to hand to the SDK. */
  readonly timer: TimerFunction = (ms, onExpiry) => {
    const running: RunningTimer = { ms, onExpiry };
    this.#running.add(running);
    return () => {
      this.#running.delete(running);
    };
  };

  /** The limits of the timers still running, in milliseconds, oldest first. */
  get running(): number[] {
    return [...this.#running].map((running) => running.ms);
  }

  /** Expires every timer still running, as if their time had passed. Returns how many expired. */
  expire(): number {
    const due = [...this.#running];
    this.#running.clear();
    for (const running of due) running.onExpiry();
    return due.length;
  }
}
