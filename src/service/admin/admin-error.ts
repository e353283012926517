/**
 * The one error of the administration areas, and the small checks they share. Every bad input
 * throws {@link AdminError} before anything is written.
 */
import { MAX_NAME_LENGTH, spoofingProblem } from '../../api';
import { hasControlCharacter } from '../text-checks';

/** A refused administration request; the message is one sentence that names the value. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

/** Optional text field: undefined or null means absent; otherwise at most 255 characters, none of them spoofing ({@link spoofingProblem}). */
export function optionalText(field: string, value: string | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH) {
    throw new AdminError(`${field} must be a string of at most ${MAX_NAME_LENGTH} characters.`);
  }
  if (hasControlCharacter(value)) throw new AdminError(`${field} must not contain control characters (U+0000 to U+001F).`);
  // Shown in the dashboard and the command line: one rule against look-alikes, as for organization names.
  const spoofing = value.trim() === '' ? undefined : spoofingProblem(value);
  if (spoofing) throw new AdminError(`${field} ${spoofing}.`);
  return value === '' ? null : value;
}
