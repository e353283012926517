/**
 * Tunes V8 for the configured provider process, which is usually a short run: a few hundred small
 * requests and RPCs, then exit. A run that turns out long gets V8's JavaScript defaults back.
 *
 * Why: V8's defaults suit long-running servers. Three of them cost a short run more than they give
 * back (measured on a small plan's configured process, peak RSS and CPU: bench/README.md,
 * bench:provider, memory):
 * - WebAssembly's optimising tier. The SDK's HTTP client (undici) parses HTTP/1.1 with llhttp
 *   compiled to WebAssembly; by default V8 compiles it with Liftoff and then re-compiles its hot
 *   functions with TurboFan on background threads, which took about a third of the process's peak
 *   RSS. This one stays off for the whole run: Liftoff's parser is fast enough for any number of
 *   requests.
 * - JavaScript's optimising tier (TurboFan). The interpreter and the baseline compiler (Sparkplug)
 *   stay; the optimising compiler's background jobs and their memory go, and with them CPU.
 * - Growing the young generation. Each scavenge that finds many survivors doubles the young
 *   generation's semi-spaces; a short run's garbage is short-lived, so the growth buys little and
 *   its pages stay resident.
 *
 * A long run (thousands of requests: a member set of 10,000 applied from empty) is where TurboFan
 * pays: without it that apply's provider used about half again as much CPU. So once the process
 * has used {@link SHORT_RUN_CPU_BUDGET_MS} of CPU, which a small plan's configured process does not
 * reach, the JavaScript flags go back to V8's defaults.
 *
 * Set by the provider when it builds its own HTTP client (at ConfigureProvider), not on the
 * launcher's `#!` line: the self-contained executable takes no Node.js flags, and loading
 * `node:v8` costs start-up time that the schema and validation starts (which never connect) would
 * pay for nothing. It runs before the first WebAssembly module is compiled, which undici does on
 * its first connection, and before the provider's own hot paths have run often enough to be
 * optimised.
 */
/** The V8 flags of a short run, each explained in the module comment. */
export const SHORT_RUN_V8_FLAGS = ['--liftoff-only', '--no-turbofan', '--semi-space-growth-factor=1'] as const;

/** V8's defaults for the JavaScript flags of {@link SHORT_RUN_V8_FLAGS}, restored in a long run. */
export const LONG_RUN_V8_FLAGS = ['--turbofan', '--semi-space-growth-factor=2'] as const;

/** CPU time (user + system, ms) after which a run counts as long. */
export const SHORT_RUN_CPU_BUDGET_MS = 1_000;

/** How often the process's CPU time is compared with the budget (ms). */
const CPU_CHECK_INTERVAL_MS = 250;

/** What {@link tuneV8ForShortRun} needs from the process; tests pass their own. */
export interface V8TuningHooks {
  /** Sets V8 flags (default `v8.setFlagsFromString`). */
  setFlags?: (flags: string) => void;
  /** The process's CPU time so far, in microseconds (default `process.cpuUsage`). */
  cpuUsage?: () => { user: number; system: number };
  /** Calls `check` every `ms` until the returned function stops it (default: an unref'd `setInterval`). */
  every?: (ms: number, check: () => void) => () => void;
}

/**
 * Sets {@link SHORT_RUN_V8_FLAGS} for this process, and {@link LONG_RUN_V8_FLAGS} once it has used
 * {@link SHORT_RUN_CPU_BUDGET_MS} of CPU (see the module comment). Returns a function that stops
 * watching the CPU time.
 */
export function tuneV8ForShortRun(hooks: V8TuningHooks = {}): () => void {
  // Required here, not imported: see the module comment.
  const setFlags = hooks.setFlags ?? (require('node:v8') as typeof import('node:v8')).setFlagsFromString;
  const cpuUsage = hooks.cpuUsage ?? (() => process.cpuUsage());
  const every = hooks.every ?? everyUnref;
  for (const flag of SHORT_RUN_V8_FLAGS) setFlags(flag);
  const stop = every(CPU_CHECK_INTERVAL_MS, () => {
    const { user, system } = cpuUsage();
    if ((user + system) / 1000 < SHORT_RUN_CPU_BUDGET_MS) return;
    stop();
    for (const flag of LONG_RUN_V8_FLAGS) setFlags(flag);
  });
  return stop;
}

/** An interval that does not keep the process alive (the provider exits when Terraform is done). */
function everyUnref(ms: number, check: () => void): () => void {
  const timer = setInterval(check, ms);
  timer.unref();
  return () => clearInterval(timer);
}
