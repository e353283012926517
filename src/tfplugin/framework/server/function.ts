/**
 * The function calls: GetFunctions and CallFunction. Terraform calls functions on a provider it
 * has not configured, so a function sees its arguments and nothing else. Failures are Terraform's
 * function errors (text and, when one argument is at fault, its position), not diagnostics; an
 * exception thrown by a function is a bug, reported as an internal error.
 */
import { containsUnknown } from '../../protocol/unknown';
import { decodeJsonValue, decodeMsgpackValue, encodeMsgpackValue, ValueCodecError } from '../../protocol/values';
import type { TerraformValue } from '../../protocol/terraform-type';
import type { FunctionErrors, FunctionParameter, ProviderFunction } from '../function';
import type { CallFunctionRequest, CallFunctionResponse, DynamicValue, FunctionCallError, FunctionSignature, GetFunctionsResponse } from '../provider-server';
import type { Value } from '../types';
import { STOPPING_SUMMARY } from '../stop';
import type { ServerScope } from './call';

const NAME = /^[a-z_][a-z0-9_]*$/;

/** Problems with a function definition (a bug of the provider, found at start-up). */
export function functionProblems(fn: ProviderFunction): string[] {
  const where = `function ${fn.name}`;
  const problems: string[] = [];
  if (!NAME.test(fn.name)) problems.push(`${where}: function names are lower snake case`);
  const parameters = [...fn.parameters, ...(fn.variadicParameter ? [fn.variadicParameter] : [])];
  const seen = new Set<string>();
  for (const parameter of parameters) {
    if (!NAME.test(parameter.name)) problems.push(`${where}: parameter ${JSON.stringify(parameter.name)} is not lower snake case`);
    if (seen.has(parameter.name)) problems.push(`${where}: two parameters are named ${parameter.name}`);
    seen.add(parameter.name);
  }
  return problems;
}

/** The signatures of the provider's functions, by name. */
export function functionSignatures<TContext>(scope: ServerScope<TContext>): { [name: string]: FunctionSignature } {
  const signatures: { [name: string]: FunctionSignature } = {};
  for (const [name, { run: _run, ...signature }] of scope.functions) signatures[name] = signature;
  return signatures;
}

/** GetFunctions: the signatures (Terraform also finds them in GetProviderSchema). */
export function getFunctions<TContext>(scope: ServerScope<TContext>): GetFunctionsResponse {
  return { functions: functionSignatures(scope), diagnostics: [] };
}

/** Terraform ends every function error with a period of its own. */
function withoutFinalPeriod(text: string): string {
  return text.replace(/\.$/, '');
}

/** Collects a call's errors as Terraform's one function error: texts joined, the first position kept. */
class FunctionErrorCollector implements FunctionErrors {
  private readonly texts: string[] = [];
  private position: number | undefined;

  /** {@inheritDoc FunctionErrors.argument} */
  argument(position: number, text: string): void {
    this.position ??= position;
    this.texts.push(text);
  }

  /** {@inheritDoc FunctionErrors.error} */
  error(text: string): void {
    this.texts.push(text);
  }

  /** {@inheritDoc FunctionErrors.hasErrors} */
  hasErrors(): boolean {
    return this.texts.length > 0;
  }

  /** The collected error, or undefined when there is none. */
  toError(): FunctionCallError | undefined {
    if (this.texts.length === 0) return undefined;
    return { text: withoutFinalPeriod(this.texts.join('\n')), ...(this.position !== undefined ? { argument: this.position } : {}) };
  }
}

function decodeArgument(value: DynamicValue | undefined, parameter: FunctionParameter): TerraformValue {
  if (value?.msgpack && value.msgpack.length > 0) return decodeMsgpackValue(value.msgpack, parameter.type);
  if (value?.json && value.json.length > 0) return decodeJsonValue(JSON.parse(value.json.toString('utf8')), parameter.type);
  return null;
}

/**
 * The arguments as the function receives them (positional ones, then one array of the variadic
 * ones), or the error that stops the call: a count or type Terraform should never have sent, or
 * a null or unknown the parameter does not allow.
 */
function readArguments(fn: ProviderFunction, given: readonly DynamicValue[]): Value[] | FunctionCallError {
  const fixed = fn.parameters.length;
  if (given.length < fixed || (!fn.variadicParameter && given.length > fixed)) {
    const expected = fn.variadicParameter ? `at least ${fixed}` : String(fixed);
    return { text: `${fn.name} takes ${expected} argument${expected === '1' ? '' : 's'}, but ${given.length} were given` };
  }
  const positional: Value[] = [];
  const variadic: Value[] = [];
  for (let position = 0; position < given.length; position++) {
    const parameter = position < fixed ? fn.parameters[position]! : fn.variadicParameter!;
    let value: TerraformValue;
    try {
      value = decodeArgument(given[position], parameter);
    } catch (error) {
      if (error instanceof ValueCodecError || error instanceof SyntaxError) {
        return { text: `the argument does not match the parameter "${parameter.name}": ${withoutFinalPeriod(error.message)}`, argument: position };
      }
      throw error;
    }
    if (value === null && !parameter.allowNull) return { text: `argument "${parameter.name}" must not be null`, argument: position };
    if (containsUnknown(value) && !parameter.allowUnknown) {
      return { text: `argument "${parameter.name}" must be known; the function cannot run on a value known only after apply`, argument: position };
    }
    (position < fixed ? positional : variadic).push(value as Value);
  }
  return fn.variadicParameter ? [...positional, variadic] : positional;
}

/**
 * CallFunction: decodes the arguments by the function's parameters, runs it, and encodes its
 * result by its return type. Refused once the provider stops.
 */
export async function callFunction<TContext>(scope: ServerScope<TContext>, req: CallFunctionRequest): Promise<CallFunctionResponse> {
  if (scope.stop.stopping) return { error: { text: `${STOPPING_SUMMARY}: the function was not called` } };
  const fn = scope.functions.get(req.name);
  if (!fn) return { error: { text: `this provider has no function ${JSON.stringify(req.name)}` } };
  const args = readArguments(fn, req.arguments);
  if (!Array.isArray(args)) return { error: args };
  const errors = new FunctionErrorCollector();
  let result: Value;
  try {
    result = await fn.run(args, errors);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    scope.logger.error(`internal error in function ${fn.name}`, { error: (error as Error)?.stack ?? message });
    return { error: { text: `internal error in function ${fn.name}: ${message}. This is a bug in the provider; please report it` } };
  }
  const failed = errors.toError();
  if (failed) return { error: failed };
  if (containsUnknown(result) && !containsUnknown(args)) {
    return { error: { text: `function ${fn.name} returned an unknown value for known arguments. This is a bug in the provider` } };
  }
  try {
    return { result: { msgpack: encodeMsgpackValue(result, fn.returnType) } };
  } catch (error) {
    if (error instanceof ValueCodecError) {
      return { error: { text: `function ${fn.name} returned a value that does not match its return type: ${error.message}. This is a bug in the provider` } };
    }
    throw error;
  }
}
