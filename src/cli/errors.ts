/**
 * The two kinds of expected failure of the `orgadmin` command line and how they reach the user:
 * one sentence on stderr, prefixed `orgadmin: `, and an exit code. Stack traces are kept for bugs.
 */
import type { CliIO } from './io';

/** Exit codes of every `orgadmin` command. */
export const EXIT = {
  /** The command did what was asked. */
  ok: 0,
  /** The command was well-formed but failed (unknown realm, duplicate name, ...). */
  error: 1,
  /** The command line itself was wrong (unknown flag, missing value, unknown command). */
  usage: 2,
} as const;

/** The command line is malformed: exit code 2. The message is one sentence. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A well-formed command that cannot be done: exit code 1. The message is one sentence. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/**
 * Errors thrown by the service's administration API for bad input carry this name
 * (`AdminError` in `src/service/admin/admin-error.ts`). Matching on the name rather than the class keeps the
 * command line's error reporting independent of how the service module is loaded.
 */
const EXPECTED_ERROR_NAMES = new Set(['AdminError', 'UsageError', 'CliError']);

/**
 * Writes `error` to stderr and returns the exit code for it. Expected errors print their sentence
 * only; anything else is a bug, so it prints its message and, when `ORGADMIN_DEBUG` is set, the
 * stack.
 */
export function reportError(error: unknown, io: CliIO): number {
  if (error instanceof Error && EXPECTED_ERROR_NAMES.has(error.name)) {
    io.stderr(`orgadmin: ${sentence(error.message)}\n`);
    return error instanceof UsageError ? EXIT.usage : EXIT.error;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`orgadmin: unexpected error: ${sentence(message)}\n`);
  if (io.env.ORGADMIN_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return EXIT.error;
}

/** Ends a message with a full stop, so every error reads as one sentence. */
function sentence(message: string): string {
  const trimmed = message.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
