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

/** Trips once; hands out per-call signals that abort when it trips or the call is cancelled. */
export class StopController {
  private readonly controller = new AbortController();

  /** True once {@link stop} was called. */
  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /** Aborts every signal handed out, with a {@link ProviderStoppingError}. Idempotent. */
  stop(): void {
    if (!this.stopping) this.controller.abort(new ProviderStoppingError());
  }

  /**
   * The signal of one call: aborts when the provider stops or `transport` (the call's own
   * cancellation, e.g. its stream closing) aborts, with that source's reason.
   */
  signalFor(transport?: AbortSignal): AbortSignal {
    return transport ? AbortSignal.any([this.controller.signal, transport]) : this.controller.signal;
  }
}
