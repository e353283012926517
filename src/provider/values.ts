/**
 * Small conversions between decoded Terraform values ({@link Value}) and the plain JavaScript
 * values the SDK takes. Resources read their configuration through these so that null, unknown and
 * a wrong type are each handled once, in one place.
 */
import type { Value } from '../tfplugin/framework/types';
import { isUnknown } from '../tfplugin/protocol/unknown';

/** The value as a string, or undefined when it is null, unknown or not a string. */
export function knownString(value: Value | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The value as a list of strings (Terraform lists and sets decode to arrays), or undefined when it
 * is null or unknown. Unknown or null elements are left out: callers that care check
 * `containsUnknown` (protocol/unknown) first.
 */
export function knownStringList(value: Value | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((item): item is string => typeof item === 'string');
}

/**
 * The value as a map of string lists (the organization `attributes` type), or undefined when it is
 * null or unknown.
 */
export function knownStringListMap(value: Value | undefined): Record<string, string[]> | undefined {
  if (value === null || value === undefined || isUnknown(value) || typeof value !== 'object' || Array.isArray(value)) {
    return undefined;
  }
  // fromEntries defines own properties: a key `__proto__` stays a key instead of setting a prototype.
  return Object.fromEntries(Object.entries(value).map(([key, list]) => [key, knownStringList(list) ?? []]));
}

/** The value as a map of strings, or undefined when it is null or unknown. */
export function knownStringMap(value: Value | undefined): Record<string, string> | undefined {
  if (value === null || value === undefined || isUnknown(value) || typeof value !== 'object' || Array.isArray(value)) {
    return undefined;
  }
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Two string lists hold the same set of values. */
export function sameStringSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  if (left.size !== right.size) return false;
  for (const item of left) if (!right.has(item)) return false;
  return true;
}

/** Quotes a value for a diagnostic: `"value"`. */
export function quote(value: string): string {
  return JSON.stringify(value);
}
