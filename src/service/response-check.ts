/**
 * Response serialization that checks: every route declares its answers' schemas (`response` in
 * the route schema, from `src/api`), and this serializer compiler checks each answer against its
 * schema (TypeBox's compiler, once per route and status) before writing it as JSON. So the service
 * cannot send what the contract does not allow: an answer that does not match is a bug, and
 * leaves as the generic 500 `internal_error` (the mismatch is logged) instead of reaching a client.
 *
 * fastify's default (fast-json-stringify) would instead coerce or silently drop what does not fit.
 */
import type { FastifySerializerCompiler } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** Thrown when a route's answer does not match its declared schema (a bug in the service). */
export class ResponseSchemaError extends Error {
  constructor(method: string, url: string, status: string | number | undefined, detail: string) {
    super(`The answer of ${method} ${url} (${status}) does not match its response schema: ${detail}`);
    this.name = 'ResponseSchemaError';
  }
}

/** fastify serializer compiler: check against the route's TypeBox schema, then `JSON.stringify`. */
export const checkedSerializerCompiler: FastifySerializerCompiler<TSchema> = ({ schema, method, url, httpStatus }) => {
  const checker = TypeCompiler.Compile(schema);
  return (data: unknown) => {
    if (!checker.Check(data)) {
      const first = checker.Errors(data).First();
      throw new ResponseSchemaError(method, url, httpStatus, first ? `${first.path || '/'} ${first.message}` : 'invalid value');
    }
    return JSON.stringify(data);
  };
};
