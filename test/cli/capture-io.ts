/** Test helper: a {@link CliIO} that records what a command prints. */
import type { CliIO } from '../../src/cli/io';

/** Makes a captured {@link CliIO}. */
export function captureIO(cwd: string, env: NodeJS.ProcessEnv = {}): { io: CliIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env, cwd },
    out: () => out,
    err: () => err,
  };
}
