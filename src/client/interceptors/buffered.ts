/**
 * undici interceptors written as async steps over whole answers. {@link bufferedInterceptor}
 * turns a step (`(opts, next, signal) => Promise<BufferedAnswer>`) into an interceptor for
 * `dispatcher.compose(...)`; `next` sends the request on down the chain and resolves with the
 * answer read in full.
 *
 * Why buffered, not streaming: every answer of this API is small (a page of at most 1000 members
 * is the largest), and the SDK reads each one in full anyway. Deciding on a retry or a token
 * refresh needs the whole answer of an attempt before anything is passed up, which in undici's
 * streaming handler protocol means holding back the handler calls of every attempt but the last,
 * per interceptor. Reading each answer into memory first makes each interceptor a short async
 * function that reads like the rule it implements, at the cost of not streaming: do not compose
 * these interceptors onto a dispatcher that fetches large bodies.
 *
 * Cancellation follows undici: the handler above aborts through the controller it was given, which
 * aborts `signal`, stops `next` and any wait of the step, and reports the abort reason to the
 * handler as is.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** An answer read in full. */
export interface BufferedAnswer {
  /** The HTTP status. */
  readonly statusCode: number;
  /** The reason phrase, when the server sent one. */
  readonly statusMessage: string | undefined;
  /** Response headers (lower-case names). */
  readonly headers: IncomingHttpHeaders;
  /** The whole body. */
  readonly body: Buffer;
  /** Trailers (usually none). */
  readonly trailers: IncomingHttpHeaders;
}

/** Sends a request on down the chain; resolves with its whole answer, rejects with what failed or the signal's reason. */
export type SendOnward = (opts: Dispatcher.DispatchOptions, signal: AbortSignal) => Promise<BufferedAnswer>;

/**
 * One interceptor's work on one request: `next` sends (as often as the step likes), `signal` aborts
 * when the caller gives up; the step resolves with the answer to pass up or rejects with the error.
 */
export type InterceptorStep = (opts: Dispatcher.DispatchOptions, next: SendOnward, signal: AbortSignal) => Promise<BufferedAnswer>;

/**
 * The controller the handler above gets: its `abort` stops the step. Pausing has nothing to hold
 * back, since the answer is passed up in one piece from memory.
 */
class StepController implements Dispatcher.DispatchController {
  readonly #abort = new AbortController();
  /** The handler has heard the end or an error: nothing more goes up. */
  #finished = false;

  constructor(private readonly handler: Dispatcher.DispatchHandler) {}

  /** Aborted when the handler above aborts. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get aborted(): boolean {
    return this.#abort.signal.aborted;
  }

  get reason(): Error | null {
    return this.aborted ? (this.#abort.signal.reason as Error) : null;
  }

  get paused(): boolean {
    return false;
  }

  pause(): void {
    // The answer is already in memory: nothing to hold back.
  }

  resume(): void {
    // See pause().
  }

  abort(reason: Error): void {
    if (this.aborted) return;
    this.#abort.abort(reason);
    this.fail(this.#abort.signal.reason);
  }

  /**
   * Passes the answer up: status and headers, the body in one chunk, the end. An abort by the
   * handler on the way has reported itself (see {@link abort}), so delivery just stops.
   */
  deliver(answer: BufferedAnswer): void {
    if (this.#finished) return;
    try {
      this.handler.onResponseStart?.(this, answer.statusCode, answer.headers, answer.statusMessage);
      if (this.aborted) return;
      if (answer.body.length > 0) this.handler.onResponseData?.(this, answer.body);
      if (this.aborted) return;
      this.#finished = true;
      this.handler.onResponseEnd?.(this, answer.trailers);
    } catch (error) {
      // A handler that throws is told so once, as undici's own dispatchers do.
      this.fail(error);
    }
  }

  /** Reports the failure up, once. */
  fail(error: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    try {
      this.handler.onResponseError?.(this, error as Error);
    } catch {
      // A handler that cannot take an error (undici's wrapper of one without onError throws) has
      // no other way to hear about it; throwing here would only become an unhandled rejection.
    }
  }
}

/**
 * Sends `opts` through `dispatch` and collects the answer; `signal`, when given, aborts the
 * exchange. Each interceptor step sends on with it, and so does the SDK itself at the top of the
 * chain (`sendRecorded`), since it reads every answer in full too.
 */
export function sendBuffered(dispatch: Dispatcher.Dispatch, opts: Dispatcher.DispatchOptions, signal?: AbortSignal): Promise<BufferedAnswer> {
  return new Promise<BufferedAnswer>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let inner: Dispatcher.DispatchController | undefined;
    let start: Pick<BufferedAnswer, 'statusCode' | 'statusMessage' | 'headers'> | undefined;
    let chunks: Buffer[] = [];
    let settled = false;
    // Everything after the first outcome is ignored: a dispatcher may still answer after an abort.
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      finish();
    };
    const onAbort = (): void => {
      inner?.abort(signal!.reason as Error);
      settle(() => reject(signal!.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        inner = controller;
        if (signal?.aborted) controller.abort(signal.reason as Error);
      },
      onResponseStart(_controller, statusCode, headers, statusMessage) {
        start = { statusCode, statusMessage, headers };
        chunks = [];
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd(_controller, trailers) {
        const head = start;
        settle(() =>
          head
            ? resolve({ ...head, body: Buffer.concat(chunks), trailers })
            : reject(new Error('the answer ended before its status line')),
        );
      },
      onResponseError(_controller, error) {
        settle(() => reject(error));
      },
    };
    try {
      dispatch(opts, handler);
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

/** An undici interceptor that runs `step` for every request dispatched through it. */
export function bufferedInterceptor(step: InterceptorStep): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    // Exactly two parameters: compose() checks the arity of what an interceptor returns.
    (opts, handler) => {
      const controller = new StepController(handler);
      handler.onRequestStart?.(controller, {});
      if (controller.aborted) return true;
      step(opts, (onward, signal) => sendBuffered(dispatch, onward, signal), controller.signal).then(
        (answer) => controller.deliver(answer),
        (error: unknown) => controller.fail(error),
      );
      return true;
    };
}
