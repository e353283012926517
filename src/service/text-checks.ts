/**
 * Checks on text that reaches the store. C0 control characters (U+0000–U+001F) are never part of
 * a legitimate name, id, attribute, domain, URL or username, and PostgreSQL text cannot hold
 * U+0000 at all, so the service refuses them at the edge with a 400 instead of failing in the
 * database with a 500.
 */
import type { FastifyError, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { hasControlCharacter } from '../api/validation';
import { ServiceError } from './errors';

export { hasControlCharacter };

/**
 * preValidation hook of every route: a query value with a control character is 400
 * `invalid_query` (search terms and lookups reach the store as text). A callback hook: it never
 * waits, and most requests have no query at all.
 */
export function refuseControlCharactersInQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const name in query) {
    const value = query[name];
    const values = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === 'string' && hasControlCharacter(item))) {
      done(
        new ServiceError(400, 'invalid_query', `Query parameter ${name} must not contain control characters (U+0000 to U+001F).`) as unknown as FastifyError,
      );
      return;
    }
  }
  done();
}
