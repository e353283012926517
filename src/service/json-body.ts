/**
 * The JSON body parser of the service. Beyond `JSON.parse` it refuses, with 400 `invalid_body`,
 * two kinds of bodies that would otherwise lose or break data:
 * - keys `__proto__` and `constructor` at any depth (they can reach prototypes once the object is
 *   copied or merged; dropping them silently would lose an attribute the caller sent);
 * - strings (keys or values) with C0 control characters, which no field of the representations
 *   may hold and PostgreSQL cannot store.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from './errors';
import { hasControlCharacter } from './text-checks';

/** Keys refused anywhere in a JSON body. */
export const FORBIDDEN_JSON_KEYS: readonly string[] = ['__proto__', 'constructor'];

const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);

/** `attributes.tier[0]`: where a value sits in the body, for error sentences. */
function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * Walks a parsed body and throws 400 `invalid_body` at the first forbidden key or control
 * character. `JSON.parse` defines `__proto__` as an own property (it never sets a prototype), so
 * the walk sees it with `Object.keys`.
 */
export function checkJsonValue(value: unknown, path = ''): void {
  if (typeof value === 'string') {
    if (hasControlCharacter(value)) {
      throw invalidBody(`${path === '' ? 'The body' : path} must not contain control characters (U+0000 to U+001F).`);
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkJsonValue(item, childPath(path, index)));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_JSON_KEYS.includes(key)) {
      throw invalidBody(`The request body must not contain the key "${key}" (at ${childPath(path, key)}).`);
    }
    if (hasControlCharacter(key)) {
      throw invalidBody(`The key ${JSON.stringify(key)} at ${path === '' ? 'the top level' : path} must not contain control characters (U+0000 to U+001F).`);
    }
    checkJsonValue((value as Record<string, unknown>)[key], childPath(path, key));
  }
}

/** Parses and checks one JSON body; an empty body counts as no body. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
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
