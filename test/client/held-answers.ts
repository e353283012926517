/**
 * A slow service without real time: an undici interceptor, composed onto the MockAgent (still the
 * SDK's HTTP boundary), that holds back the mock's answers to matching requests until the test
 * calls {@link HeldAnswers.release}. A held request reaches the mock at once and takes its
 * intercept in order, as `.delay()` would; only its answer waits. The caller can still abort it
 * while it is held (the abort reaches the mock, as it would reach a socket), and a held answer is
 * never passed up to a caller that gave up.
 *
 * Uses: callers that queue behind one token request (single flight), a caller that gives up while
 * the others wait, and, with a {@link ManualTimer}, an attempt that times out because its answer
 * never came in time.
 */
import type { Dispatcher } from 'undici';

/** Which requests to hold: the same vocabulary as MockAgent's `intercept()`. */
export interface HeldRequests {
  /** The path, query included, as the SDK sends it. */
  path: string;
  /** The method. @default any */
  method?: string;
  /** Hold only the first this many matching requests; later ones are answered at once. @default all */
  times?: number;
}

/** Holds the answers to the requests {@link HeldRequests} describes until released. */
export class HeldAnswers {
  #held = 0;
  #released = false;
  #onRelease: Array<() => void> = [];
  #waiters: Array<{ count: number; wake: () => void }> = [];

  /** @param requests which requests' answers to hold */
  constructor(private readonly requests: HeldRequests) {}

  /** Resolves once `count` matching requests have reached the mock (their answers held). */
  whenHeld(count = 1): Promise<void> {
    if (this.#held >= count) return Promise.resolve();
    return new Promise<void>((wake) => this.#waiters.push({ count, wake }));
  }

  /** Passes every held answer up (to callers still waiting), and lets later ones through at once. */
  release(): void {
    this.#released = true;
    const pending = this.#onRelease;
    this.#onRelease = [];
    for (const replay of pending) replay();
  }

  /** `dispatcher` with the hold composed onto it; close and call history stay the dispatcher's. */
  wrap(dispatcher: Dispatcher): Dispatcher {
    return dispatcher.compose((dispatch) => (opts, handler) => dispatch(opts, this.#matches(opts) ? this.#holding(handler) : handler));
  }

  /** Whether the answer to `opts` is to be held: a request it names, before release, within `times`. */
  #matches(opts: Dispatcher.DispatchOptions): boolean {
    if (this.#released) return false;
    if (opts.path !== this.requests.path) return false;
    if (this.requests.method !== undefined && opts.method !== this.requests.method) return false;
    return this.#held < (this.requests.times ?? Infinity);
  }

  /** A handler that passes the request's start up at once and holds the answer until release. */
  #holding(handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
    this.#held += 1;
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.#held < waiter.count) return true;
      waiter.wake();
      return false;
    });
    const queue: Array<() => void> = [];
    let released = false;
    const later = (controller: Dispatcher.DispatchController, step: () => void): void => {
      const guarded = (): void => {
        // The caller gave up meanwhile: it heard its abort already and hears nothing more.
        if (!controller.aborted) step();
      };
      if (released) guarded();
      else queue.push(guarded);
    };
    this.#onRelease.push(() => {
      released = true;
      for (const step of queue.splice(0)) step();
    });
    return {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onResponseStart: (controller, statusCode, headers, statusMessage) =>
        later(controller, () => handler.onResponseStart?.(controller, statusCode, headers, statusMessage)),
      onResponseData: (controller, chunk) => later(controller, () => handler.onResponseData?.(controller, chunk)),
      onResponseEnd: (controller, trailers) => later(controller, () => handler.onResponseEnd?.(controller, trailers)),
      onResponseError: (controller, error) => {
        // An abort is the caller's, not part of the answer: it goes up at once.
        if (controller.aborted) handler.onResponseError?.(controller, error);
        else later(controller, () => handler.onResponseError?.(controller, error));
      },
    };
  }
}
