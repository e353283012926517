/** Reading the dashboard's form posts and queries (urlencoded: one value, or several for checkboxes). */

/** The fields of a form post or query string. */
export type Fields = Record<string, unknown>;

/** One text field ('' when absent or repeated). */
export function field(fields: unknown, name: string): string {
  const value = ((fields ?? {}) as Fields)[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a repeatable field (checkboxes). */
export function fieldValues(fields: unknown, name: string): string[] {
  const value = ((fields ?? {}) as Fields)[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** A non-negative page offset from a query (0 when absent or malformed). */
export function offset(fields: unknown): number {
  const text = field(fields, 'first');
  return /^\d{1,9}$/.test(text) ? Number(text) : 0;
}
