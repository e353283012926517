/**
 * Runs a child process to its end and collects what it wrote: the one way `orgadmin start`, the
 * GitOps drift check (examples/gitops/drift-check.ts) and the benchmarks (bench/provider.mjs,
 * bench/provider-startup.mjs, which load it from dist/ or through esbuild) run terraform, the
 * provider and scripts.
 *
 * A non-zero exit is a result, not an error: callers decide which exit codes are failures (a
 * `terraform plan -detailed-exitcode` exits 2 for "changes"). Only a process that cannot start at
 * all (no such executable) rejects.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** How to run one process. */
export interface RunProcessOptions {
  /** Working directory; the current one when left out. */
  readonly cwd?: string;
  /** The child's whole environment; this process's when left out. */
  readonly env?: NodeJS.ProcessEnv;
  /** `ignore` discards standard error instead of collecting it (a benchmark that must not buffer). */
  readonly stderr?: 'pipe' | 'ignore';
  /**
   * Stops the process (SIGTERM) as soon as this returns true for the standard output collected so
   * far; `stoppedAfterMs` then says when. For a process that never exits by itself, such as a
   * provider serving after its handshake line.
   */
  readonly stopWhen?: (stdout: string) => boolean;
  /** Stops the process (SIGTERM) after this many milliseconds; `timedOut` is then true. */
  readonly timeoutMs?: number;
}

/** What one process did. */
export interface ProcessResult {
  /** Exit code; -1 when a signal ended it. */
  readonly code: number;
  /** Standard output, UTF-8. */
  readonly stdout: string;
  /** Standard error, UTF-8 (empty with `stderr: 'ignore'`). */
  readonly stderr: string;
  /** Milliseconds from spawn to exit. */
  readonly elapsedMs: number;
  /** Milliseconds from spawn to the output that `stopWhen` accepted, when it did. */
  readonly stoppedAfterMs?: number;
  /** True when `timeoutMs` ran out and the process was stopped. */
  readonly timedOut: boolean;
}

/**
 * Runs `command` with `args` (no shell) to its end, collecting its output.
 * @returns the exit code and output, also for a non-zero exit
 * @throws (rejects) when the process cannot be started
 */
export function runProcess(command: string, args: readonly string[], options: RunProcessOptions = {}): Promise<ProcessResult> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', options.stderr ?? 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let exitedAt: number | undefined;
    let stoppedAfterMs: number | undefined;
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGTERM');
          }, options.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out.push(chunk);
      if (options.stopWhen && stoppedAfterMs === undefined && options.stopWhen(Buffer.concat(out).toString('utf8'))) {
        stoppedAfterMs = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      reject(error);
    });
    child.on('exit', () => {
      exitedAt = performance.now();
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolvePromise({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        elapsedMs: (exitedAt ?? performance.now()) - started,
        ...(stoppedAfterMs === undefined ? {} : { stoppedAfterMs }),
        timedOut,
      });
    });
  });
}
