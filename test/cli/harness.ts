/**
 * Test harness for the command line: runs `main(argv, io)` in-process with captured output,
 * against a data file in a fresh temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { captureIO } from './capture-io';

/** What one command run printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temporary working directory with a data file path, and a runner bound to them. */
export interface CliSandbox {
  /** Working directory of every run (removed by `cleanup`). */
  dir: string;
  /** The data file passed with `--data` by {@link CliSandbox.run}. */
  dataFile: string;
  /** Runs `orgadmin ARGV --data DATAFILE` in-process. */
  run(...argv: string[]): Promise<CliResult>;
  /** Runs `orgadmin ARGV` in-process exactly as given (no `--data` added). */
  runRaw(argv: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** Runs with `--json` and parses stdout; fails the test when the command fails. */
  json<T = unknown>(...argv: string[]): Promise<T>;
  /** Removes the directory. */
  cleanup(): void;
}

/** Creates a sandbox in a new temporary directory. */
export function createSandbox(): CliSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'orgadmin-cli-'));
  const dataFile = join(dir, 'data', 'orgadmin.db');
  const runRaw = async (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => {
    const captured = captureIO(dir, env);
    const code = await main(argv, captured.io);
    return { code, stdout: captured.out(), stderr: captured.err() };
  };
  const run = (...argv: string[]): Promise<CliResult> => runRaw([...argv, '--data', dataFile]);
  return {
    dir,
    dataFile,
    run,
    runRaw,
    async json<T>(...argv: string[]): Promise<T> {
      const result = await run(...argv, '--json');
      if (result.code !== 0) throw new Error(`orgadmin ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
