/**
 * The JSON body parser of the service. Beyond `JSON.parse` it refuses, with 400 `invalid_body`,
 * bodies that would otherwise lose or break data:
 * - keys `__proto__`, `constructor` and `prototype` at any depth (they can reach prototypes once
 *   the object is copied or merged; dropping them silently would lose an attribute the caller sent);
 * - strings (keys or values) with C0 control characters, which no field of the representations
 *   may hold and PostgreSQL cannot store, or that are not valid Unicode (an unpaired surrogate
 *   would be stored as U+FFFD, so the answer would differ from what was sent);
 * - bodies nested deeper than {@link MAX_JSON_DEPTH} arrays/objects, refused before `JSON.parse`
 *   (no representation is deeper than 4, and every later walk over the value, ours and the
 *   validator's, would otherwise recurse as deep as the attacker likes).
 *
 * The checks walk the value with an explicit stack, never by recursion, so no body can overflow
 * the call stack whatever its shape.
 */
import type { FastifyInstance } from 'fastify';
import { RESERVED_KEYS, textProblem } from '../api/validation';
import { ServiceError } from './errors';

/**
 * Deepest nesting of arrays and objects a JSON body may have. The deepest representation the
 * service reads (an organization's `attributes` values) is 3 levels; 32 leaves room for clients
 * that wrap bodies, and keeps every walk over the value short.
 */
export const MAX_JSON_DEPTH = 32;

/** Keys refused anywhere in a JSON body (the rule: `RESERVED_KEYS` in src/api/validation.ts). */
export const FORBIDDEN_JSON_KEYS: readonly string[] = RESERVED_KEYS;

const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);
const tooDeep = (): ServiceError => invalidBody(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`);

/** `attributes.tier[0]`: where a value sits in the body, for error sentences. */
function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The deepest nesting of `[`/`{` in a JSON text, counted outside strings; stops counting (and
 * returns) as soon as it passes `limit`. Linear, no recursion, no allocation.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return deepest;
}

/**
 * Walks a parsed body and throws 400 `invalid_body` at the first forbidden key, control character
 * or nesting deeper than {@link MAX_JSON_DEPTH}. `JSON.parse` defines `__proto__` as an own
 * property (it never sets a prototype), so the walk sees it with `Object.keys`. Iterative (an
 * explicit stack), so the shape of the value cannot overflow the call stack.
 */
export function checkJsonValue(root: unknown, rootPath = ''): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) throw invalidBody(`${path === '' ? 'The body' : path} ${problem}.`);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) throw tooDeep();
    // Children are pushed in reverse so the first offending one (in document order) is reported.
    const children: Array<{ value: unknown; path: string; depth: number }> = [];
    if (Array.isArray(value)) {
      value.forEach((item, index) => children.push({ value: item, path: childPath(path, index), depth: depth + 1 }));
    } else {
      for (const key of Object.keys(value)) {
        if (FORBIDDEN_JSON_KEYS.includes(key)) {
          throw invalidBody(`The request body must not contain the key "${key}" (at ${childPath(path, key)}).`);
        }
        const keyProblem = textProblem(key);
        if (keyProblem) throw invalidBody(`The key ${JSON.stringify(key)} at ${path === '' ? 'the top level' : path} ${keyProblem}.`);
        children.push({ value: (value as Record<string, unknown>)[key], path: childPath(path, key), depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]);
  }
}

/** Parses and checks one JSON body; an empty body counts as no body. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  // Before parsing: a deep text is refused without building (and later walking) its value.
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw tooDeep();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidBody('The request body is not valid JSON.');
  }
  checkJsonValue(parsed);
  return parsed;
}

/**
 * Replaces fastify's JSON parser with {@link parseJsonBody}, and drops the text parser: bodies are
 * JSON (or forms where documented), so plain text is a wrong content type, not a string body.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
