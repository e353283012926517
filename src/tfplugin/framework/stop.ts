/**
 * The provider's one stop switch. `StopProvider` trips it: every call in flight sees its signal
 * abort, and calls that arrive afterwards are refused with {@link STOPPING_SUMMARY}. Each call's
 * signal also follows the call's own transport signal (its gRPC stream closing), so a resource
 * listens to one `AbortSignal` whatever the reason it should give up.
 */

/** Summary of the error diagnostic of calls refused or cut short because the provider stops. */
export const STOPPING_SUMMARY = 'the provider is stopping';

/** The abort reason of calls cut short by `StopProvider`. */
export class ProviderStoppingError extends Error {
  override readonly name = 'ProviderStoppingError';
  constructor() {
    super(STOPPING_SUMMARY);
  }
}

/**
 * A call's transport as the stop switch sees it: `signal` aborts when the call's own stream closes,
 * and `abort` aborts that same signal (the gRPC server's `UnaryCall` is one).
 */
export interface CancellableCall {
  readonly signal?: AbortSignal;
  readonly abort?: (reason: unknown) => void;
}

/**
 * Trips once; gives each call a signal that aborts when it trips or the call is cancelled.
 *
 * A call whose transport can be aborted ({@link CancellableCall.abort}) listens to its transport's
 * own signal: while the call runs, the switch keeps its `abort` and calls it when tripped. That
 * avoids `AbortSignal.any`, which is costly per call (it keeps weak references to both sources),
 * and a configured provider makes hundreds of calls per plan.
 */
export class StopController {
  private readonly controller = new AbortController();
  /** `abort` of every call in flight, called with the stop reason when the switch trips. */
  private readonly inFlight = new Set<(reason: unknown) => void>();

  /** True once {@link stop} was called. */
  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /** Aborts every call's signal, with a {@link ProviderStoppingError}. Idempotent. */
  stop(): void {
    if (this.stopping) return;
    const reason = new ProviderStoppingError();
    this.controller.abort(reason);
    for (const abort of this.inFlight) abort(reason);
    this.inFlight.clear();
  }

  /**
   * Runs one call's `work` with the signal it should listen to: one that aborts when the provider
   * stops, with a {@link ProviderStoppingError}, or when the call's transport aborts, with the
   * transport's reason, whichever comes first. Without a transport that is the switch's own signal.
   */
  async run<T>(call: CancellableCall | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const transport = call?.signal;
    if (!transport || this.stopping) return work(this.controller.signal);
    const abort = call.abort;
    // A transport that cannot be aborted from here: the two sources are combined instead.
    if (!abort || transport.aborted) return work(transport.aborted ? transport : AbortSignal.any([this.controller.signal, transport]));
    this.inFlight.add(abort);
    try {
      return await work(transport);
    } finally {
      this.inFlight.delete(abort);
    }
  }
}
