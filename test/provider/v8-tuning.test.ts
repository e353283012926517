/**
 * The configured provider process's V8 tuning (src/provider/v8-tuning.ts): the short-run flags at
 * once, V8's JavaScript defaults back once the process has used its CPU budget, and only once.
 * The flags, the CPU clock and the interval are the test's: the jest worker's V8 is left alone.
 */
import { LONG_RUN_V8_FLAGS, SHORT_RUN_CPU_BUDGET_MS, SHORT_RUN_V8_FLAGS, tuneV8ForShortRun } from '../../src/provider/v8-tuning';

function tuned(startCpuMs: number) {
  const flags: string[] = [];
  let cpuMs = startCpuMs;
  let check: (() => void) | undefined;
  let stopped = 0;
  const stop = tuneV8ForShortRun({
    setFlags: (flag) => flags.push(flag),
    cpuUsage: () => ({ user: cpuMs * 700, system: cpuMs * 300 }),
    every: (_ms, run) => {
      check = run;
      return () => {
        stopped += 1;
        check = undefined;
      };
    },
  });
  return {
    flags,
    stop,
    setCpuMs: (ms: number) => (cpuMs = ms),
    tick: () => check?.(),
    watching: () => check !== undefined,
    stopped: () => stopped,
  };
}

describe('tuneV8ForShortRun', () => {
  it('sets the short-run flags at once: no optimising tier for WebAssembly or JavaScript, no young-generation growth', () => {
    const run = tuned(200);
    expect(run.flags).toEqual(['--liftoff-only', '--no-turbofan', '--semi-space-growth-factor=1']);
    expect(run.flags).toEqual([...SHORT_RUN_V8_FLAGS]);
    expect(run.watching()).toBe(true);
  });

  it('keeps them while the process stays under its CPU budget', () => {
    const run = tuned(200);
    run.setCpuMs(SHORT_RUN_CPU_BUDGET_MS - 1);
    run.tick();
    expect(run.flags).toEqual([...SHORT_RUN_V8_FLAGS]);
    expect(run.watching()).toBe(true);
  });

  it("gives JavaScript V8's defaults back once the run is long, and stops watching", () => {
    const run = tuned(200);
    run.setCpuMs(SHORT_RUN_CPU_BUDGET_MS);
    run.tick();
    expect(run.flags).toEqual([...SHORT_RUN_V8_FLAGS, '--turbofan', '--semi-space-growth-factor=2']);
    expect(run.flags.slice(SHORT_RUN_V8_FLAGS.length)).toEqual([...LONG_RUN_V8_FLAGS]);
    expect(run.watching()).toBe(false);
    expect(run.stopped()).toBe(1);
    run.tick();
    expect(run.flags).toHaveLength(SHORT_RUN_V8_FLAGS.length + LONG_RUN_V8_FLAGS.length);
  });

  it('can be stopped before the budget is reached', () => {
    const run = tuned(0);
    run.stop();
    expect(run.watching()).toBe(false);
    expect(run.flags).toEqual([...SHORT_RUN_V8_FLAGS]);
  });
});
