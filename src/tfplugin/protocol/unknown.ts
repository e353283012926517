/**
 * Terraform values have three states: known, null and unknown ("known after apply"). Decoded
 * values use JavaScript `null` for null and this sentinel for unknown, so the two can never be
 * confused. Every msgpack extension value Terraform sends (including refined unknowns, type 12)
 * decodes to it.
 */
export const UNKNOWN: unique symbol = Symbol.for('orgadmin.terraform.unknown');

/** The type of {@link UNKNOWN}. */
export type Unknown = typeof UNKNOWN;

/** True when `value` is the unknown sentinel. */
export function isUnknown(value: unknown): value is Unknown {
  return value === UNKNOWN;
}

/** True when `value`, or anything nested in it, is unknown. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}
