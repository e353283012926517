/**
 * Checks the service's answers against the response schemas of `src/api` (the same schemas the
 * service declares on its routes), so a method returns what its type says or throws
 * {@link UnexpectedResponseError}, never an unchecked cast. Each schema is compiled with
 * TypeBox's compiler once per process, on first use (a client that never lists members never
 * compiles that schema, which keeps the provider's start-up short).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { UnexpectedResponseError } from './errors';

/** Compiled checkers by schema: one compilation per schema for the whole process. */
const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerOf<S extends TSchema>(schema: S): TypeCheck<S> {
  let checker = compiled.get(schema);
  if (!checker) {
    checker = TypeCompiler.Compile(schema);
    compiled.set(schema, checker);
  }
  return checker as TypeCheck<S>;
}

/** What went wrong where, without the offending value (an answer may carry personal data). */
function firstProblem(checker: TypeCheck<TSchema>, body: unknown): string {
  const error = checker.Errors(body).First();
  if (!error) return 'it does not match';
  const where = error.path === '' ? 'the body' : `at ${error.path}`;
  return `${where}: ${error.message}`;
}

/** Where an answer came from, for the error message. */
export interface AnswerSource {
  status: number;
  method: string;
  path: string;
}

/**
 * Returns `body` typed by `schema` when it matches, else throws {@link UnexpectedResponseError}
 * naming `what` the answer should have been and the first mismatch (path and expectation).
 */
export function checkAnswer<S extends TSchema>(schema: S, body: unknown, what: string, source: AnswerSource): Static<S> {
  const checker = checkerOf(schema);
  if (checker.Check(body)) return body;
  throw new UnexpectedResponseError({
    ...source,
    reason: `expected ${what} as the contract describes it, but ${firstProblem(checker, body)}`,
  });
}
