/**
 * The `q` parameter of the organization list and count: exact attribute matches written as
 * `key:value` pairs separated by whitespace; a key or value with whitespace (or a key with a colon)
 * is double-quoted (`"cost center":"north east"`). The SDK formats it, the service parses it; both
 * use this one grammar. A term cannot contain a double quote (neither this service nor the hosted
 * one can express it).
 */

import { queryTermsProblem } from './validation';

/** One exact attribute match: `[key, value]`. */
export type AttributeMatch = [key: string, value: string];

/** Characters that force quoting in a `q` term: whitespace, and in a key also the colon. */
const VALUE_NEEDS_QUOTES = /\s/;
const KEY_NEEDS_QUOTES = /[\s:]/;

/** Checks one `q` term and quotes it when `needsQuotes` says so. */
function formatTerm(what: string, term: string, needsQuotes: RegExp): string {
  if (term === '') throw new TypeError(`q: ${what} must not be empty`);
  // Neither the service nor the hosted service can express a double quote inside a term.
  if (term.includes('"')) throw new TypeError(`q: ${what} ${JSON.stringify(term)} contains a double quote, which q cannot express`);
  return needsQuotes.test(term) ? `"${term}"` : term;
}

/**
 * Renders attribute matches as the `q` parameter: `key:value` pairs separated by spaces; a key or
 * value with spaces (or a key with a colon) is double-quoted (`tier:"gold plus"`).
 *
 * @example formatAttributeQuery({ tier: 'gold plus', region: 'eu' }) // 'tier:"gold plus" region:eu'
 * @throws TypeError when a key or value is empty or contains a double quote (q cannot express
 *   either), or when there are more pairs than the service accepts (`MAX_QUERY_TERMS`)
 */
export function formatAttributeQuery(q: Record<string, string>): string {
  const entries = Object.entries(q);
  const tooMany = queryTermsProblem(entries.length);
  if (tooMany) throw new TypeError(`q ${tooMany}`);
  return entries
    .map(([key, value]) => {
      if (typeof value !== 'string') throw new TypeError(`q: the value of attribute ${JSON.stringify(key)} must be a string`);
      const k = formatTerm('an attribute name', key, KEY_NEEDS_QUOTES);
      const v = formatTerm(`the value of attribute ${JSON.stringify(key)}`, value, VALUE_NEEDS_QUOTES);
      return `${k}:${v}`;
    })
    .join(' ');
}

/**
 * Reads `q`: whitespace-separated `key:value` pairs, keys and values optionally double-quoted. An
 * unquoted key ends at a colon, an unquoted value at whitespace; an empty value (`key:`) is an
 * empty match. Returns undefined when `q` is not such a list (an unclosed quote, a key without a
 * colon, text right after a quoted term).
 *
 * @example parseAttributeQuery('tier:gold "cost center":"north east"') // [['tier', 'gold'], ['cost center', 'north east']]
 */
export function parseAttributeQuery(q: string): AttributeMatch[] | undefined {
  const pairs: AttributeMatch[] = [];
  let i = 0;
  /** The next key or value, or undefined for an unclosed quote. */
  const readTerm = (stopAtColon: boolean): string | undefined => {
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      if (end < 0) return undefined;
      const term = q.slice(i + 1, end);
      i = end + 1;
      return term;
    }
    const start = i;
    while (i < q.length && !/\s/.test(q[i]) && !(stopAtColon && q[i] === ':') && q[i] !== '"') i += 1;
    return q.slice(start, i);
  };
  while (i < q.length) {
    if (/\s/.test(q[i])) {
      i += 1;
      continue;
    }
    const key = readTerm(true);
    if (key === undefined || key === '' || q[i] !== ':') return undefined;
    i += 1;
    const value = readTerm(false);
    if (value === undefined || (i < q.length && !/\s/.test(q[i]))) return undefined;
    pairs.push([key, value]);
  }
  return pairs;
}
