/**
 * What a failed child process said, for error messages that name the cause without dumping a
 * whole log.
 */

/** The last two lines of a failed `execFile`'s stderr, or its message when stderr is empty. */
export function failureDetail(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : error instanceof Error ? error.message : String(error);
  return text.trim().split('\n').slice(-2).join(' ');
}
