/**
 * What a command of the `orgadmin` command line may touch besides its arguments. Commands write
 * through this instead of `process.stdout` so tests can run them in-process and read the output.
 */
export interface CliIO {
  /** Writes to standard output (a newline is not added). */
  stdout(text: string): void;
  /** Writes to standard error (a newline is not added). */
  stderr(text: string): void;
  /** The environment (for `ORGADMIN_DATA` and friends). */
  env: NodeJS.ProcessEnv;
  /** Working directory that relative paths are resolved against. */
  cwd: string;
}

/** A command: takes its own arguments (after the command words) and returns the exit code. */
export type Command = (argv: string[], io: CliIO) => Promise<number>;

/** The {@link CliIO} of the running process. */
export function processIO(): CliIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}
