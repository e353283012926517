/** Test helper: a {@link CliIO} that records what a command prints. */
import type { CliIO } from '../../src/cli/io';

/** What {@link captureIO} gives a test: the IO to pass to a command, and what it wrote. */
export interface CapturedIO {
  io: CliIO;
  out: () => string;
  err: () => string;
  /**
   * Resolves once `ready(stdout)` holds, checked at every write (so no polling), or once anything
   * is written to stderr; rejects after `timeoutMs` with what was written.
   */
  waitForOutput: (ready: (stdout: string) => boolean, timeoutMs?: number) => Promise<void>;
}

/** A CliIO that records stdout and stderr in memory. */
export function captureIO(cwd: string, env: NodeJS.ProcessEnv = {}): CapturedIO {
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const check of [...waiters]) check();
  };
  return {
    io: {
      stdout: (t) => {
        out += t;
        wake();
      },
      stderr: (t) => {
        err += t;
        wake();
      },
      env,
      cwd,
    },
    out: () => out,
    err: () => err,
    waitForOutput: (ready, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ready output within ${timeoutMs} ms; stdout: ${JSON.stringify(out)}; stderr: ${JSON.stringify(err)}`));
        }, timeoutMs);
        function check(): void {
          if (!ready(out) && err === '') return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
        waiters.add(check);
        check();
      }),
  };
}
