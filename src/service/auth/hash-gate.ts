/**
 * The CPU the service spends on slow credential hashes (scrypt: user passwords, and API-key
 * secrets still stored the legacy way), bounded per source address and overall.
 *
 * Why: a password check costs a scrypt hash (16 MiB, tens of milliseconds of a core), and
 * attempts with ever new usernames are never slowed by the failed-credential throttle, which counts
 * per username. Without a bound, 150 attempts sent at once from one address queue 150 hashes in
 * the thread pool, and a legitimate login from anywhere waits behind all of them.
 *
 * So hashes run through this gate: at most {@link HashGateOptions.concurrency} at once overall and
 * {@link HashGateOptions.perSourceConcurrency} at once per source address; a few more may wait per
 * address ({@link HashGateOptions.perSourceQueue}) and overall ({@link HashGateOptions.maxQueue}),
 * and an attempt beyond those is refused at once with 429 `rate_limited`, before any work. A free
 * slot goes to the waiting address that was served longest ago (a newcomer first), so an address
 * that arrives while another floods is served at the next free slot, not after the flood; with one
 * hash at a time per address and more than one slot, it finds a free slot at once.
 */
import { availableParallelism } from 'node:os';
import { ServiceError } from '../errors';

/** What {@link HashGateOptions.observe} is told. */
export type HashGateEvent = 'queued' | 'started' | 'finished' | 'withdrawn' | 'refused';

/** Settings of {@link HashGate}. */
export interface HashGateOptions {
  /** Slow hashes running at once, overall. */
  concurrency: number;
  /** Slow hashes running at once for one source address. */
  perSourceConcurrency: number;
  /** Slow hashes one source address may have waiting; more are refused. */
  perSourceQueue: number;
  /** Slow hashes waiting overall; more are refused. */
  maxQueue: number;
  /**
   * Told of each hash that takes a place in the queue, starts, finishes, leaves the queue unrun or
   * is refused, with its source address (tests and benchmarks count them).
   */
  observe?: (event: HashGateEvent, source: string) => void;
}

/**
 * The default policy (docs/guides/service.md, "Security"): one hash at a time per address with 8
 * waiting, as many at once overall as there are cores (at most 4, the size of Node's thread pool,
 * which scrypt runs on), 512 waiting overall.
 */
export const DEFAULT_HASH_GATE: HashGateOptions = {
  concurrency: Math.max(1, Math.min(4, availableParallelism())),
  perSourceConcurrency: 1,
  perSourceQueue: 8,
  maxQueue: 512,
};

/** One source address's hashes. */
interface SourceState {
  running: number;
  /** When its last hash started, in starts of the gate (0: never, while the address was known). */
  lastStart: number;
  /** Waiting hashes, oldest first: each is started by calling it. */
  waiting: Array<() => void>;
}

/** A place in the gate's queue, taken before the work it will hash for (see {@link HashGate.enter}). */
export interface HashTurn {
  /** Waits for a slot, runs `work` in it and frees the slot. Once per turn. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place (or the slot, when one was granted) back without running; nothing after {@link run}. */
  cancel(): void;
}

const refusal = (): ServiceError =>
  new ServiceError(429, 'rate_limited', 'Too many sign-in attempts from this address at once; retry after 1 second.', { 'Retry-After': '1' });

/** Runs slow hashes fairly, within the bounds of {@link HashGateOptions}. */
export class HashGate {
  private readonly options: HashGateOptions;
  private readonly sources = new Map<string, SourceState>();
  /** Addresses with waiting hashes. */
  private readonly turns = new Set<string>();
  /** Hashes started so far: the clock of {@link SourceState.lastStart}. */
  private starts = 0;
  private running = 0;
  private waiting = 0;

  constructor(options: Partial<HashGateOptions> = {}) {
    this.options = { ...DEFAULT_HASH_GATE, ...options };
    for (const name of ['concurrency', 'perSourceConcurrency', 'perSourceQueue', 'maxQueue'] as const) {
      const value = this.options[name];
      if (!Number.isInteger(value) || value < (name.endsWith('Queue') ? 0 : 1)) throw new Error(`${name} must be a whole number${name.endsWith('Queue') ? '' : ' above 0'}, got ${value}.`);
    }
  }

  /** Hashes running now, and waiting now (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  /**
   * Takes a place in the queue of `source`, or throws 429 `rate_limited` (with `Retry-After`) at
   * once when that address, or the service, has as many hashes waiting as it may. The place is
   * taken before the caller's other work (the user lookup), so a refusal costs nothing.
   */
  enter(source: string): HashTurn {
    let state = this.sources.get(source);
    if (state === undefined) {
      state = { running: 0, lastStart: 0, waiting: [] };
      this.sources.set(source, state);
    }
    const wouldWait = this.running >= this.options.concurrency || state.running >= this.options.perSourceConcurrency || state.waiting.length > 0;
    if (wouldWait && (state.waiting.length >= this.options.perSourceQueue || this.waiting >= this.options.maxQueue)) {
      this.forgetIfIdle(source, state);
      this.options.observe?.('refused', source);
      throw refusal();
    }
    const own = state;
    let granted = false;
    let finished = false;
    let start!: () => void;
    const slot = new Promise<void>((resolve) => {
      start = () => {
        granted = true;
        resolve();
      };
    });
    own.waiting.push(start);
    this.waiting += 1;
    this.turns.add(source);
    this.options.observe?.('queued', source);
    this.dispatch();
    const release = (): void => {
      if (finished) return;
      finished = true;
      if (granted) {
        this.running -= 1;
        own.running -= 1;
        this.options.observe?.('finished', source);
      } else {
        own.waiting.splice(own.waiting.indexOf(start), 1);
        this.waiting -= 1;
        if (own.waiting.length === 0) this.turns.delete(source);
        this.options.observe?.('withdrawn', source);
      }
      this.forgetIfIdle(source, own);
      this.dispatch();
    };
    let used = false;
    return {
      run: async <T>(work: () => Promise<T>): Promise<T> => {
        if (used || finished) throw new Error('A hash turn runs once.');
        used = true;
        await slot;
        try {
          return await work();
        } finally {
          release();
        }
      },
      cancel: () => {
        if (!used) release();
      },
    };
  }

  /** Takes a place for `source` and runs `work` in its turn (see {@link enter}). */
  run<T>(source: string, work: () => Promise<T>): Promise<T> {
    return this.enter(source).run(work);
  }

  /** Starts waiting hashes while slots are free, each for the eligible address served longest ago. */
  private dispatch(): void {
    while (this.running < this.options.concurrency) {
      let chosen: SourceState | undefined;
      let chosenSource = '';
      for (const source of this.turns) {
        const state = this.sources.get(source)!;
        if (state.running >= this.options.perSourceConcurrency) continue;
        if (chosen === undefined || state.lastStart < chosen.lastStart) {
          chosen = state;
          chosenSource = source;
        }
      }
      if (chosen === undefined) return;
      const next = chosen.waiting.shift()!;
      if (chosen.waiting.length === 0) this.turns.delete(chosenSource);
      this.waiting -= 1;
      this.running += 1;
      chosen.running += 1;
      this.starts += 1;
      chosen.lastStart = this.starts;
      this.options.observe?.('started', chosenSource);
      next();
    }
  }

  private forgetIfIdle(source: string, state: SourceState): void {
    if (state.running === 0 && state.waiting.length === 0) this.sources.delete(source);
  }
}
