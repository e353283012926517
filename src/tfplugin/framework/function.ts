/**
 * The contract of a provider-defined function (Terraform 1.8 and later): Terraform calls it as
 * `provider::<provider>::<name>(arguments…)` in any expression, before and without configuring
 * the provider, so a function computes its result from its arguments alone (no remote calls) and
 * must give the same result for the same arguments in plan and apply.
 *
 * Errors go to the user as Terraform's function errors: {@link FunctionErrors.argument} names the
 * argument at fault, which Terraform shows as `Invalid value for "<parameter>" parameter: <text>.`
 * under the call's source line; other errors show as `Call to function "<name>" failed: <text>.`.
 * Terraform adds the final period, so texts end without one (the framework drops a trailing one).
 */
import type { AttributeType, Value } from './types';

/** One parameter of a function. */
export interface FunctionParameter {
  /** Lower snake case; shown in documentation and in Terraform's argument errors. */
  readonly name: string;
  /** Terraform type of the argument (Terraform converts the given value to it first). */
  readonly type: AttributeType;
  /** What the argument is, in Markdown. */
  readonly description: string;
  /**
   * The argument may be null. Without it, Terraform refuses a null argument itself (`argument
   * "<name>" cannot be null`) and the function never sees one.
   */
  readonly allowNull?: boolean;
  /**
   * The argument may be unknown (during plan). Without it, Terraform does not call the function
   * while the argument is unknown and makes the result unknown itself.
   */
  readonly allowUnknown?: boolean;
}

/** Collects the errors of one call; any error fails the call. */
export interface FunctionErrors {
  /**
   * The argument at `position` (0-based, counting every argument of the call, variadic ones
   * included) is at fault. `text` says why and what is accepted.
   */
  argument(position: number, text: string): void;
  /** The call failed for a reason no single argument explains. */
  error(text: string): void;
  /** True once an error was added. */
  hasErrors(): boolean;
}

/** A provider-defined function. */
export interface ProviderFunction {
  /** Lower snake case name: `provider::<provider>::<name>`. */
  readonly name: string;
  /** One line, for listings and the page title. */
  readonly summary: string;
  /** What the function does, in Markdown. */
  readonly description: string;
  /** Positional parameters. */
  readonly parameters: readonly FunctionParameter[];
  /** Zero or more further arguments of one type, after the positional ones. Optional. */
  readonly variadicParameter?: FunctionParameter;
  /** Terraform type of the result. */
  readonly returnType: AttributeType;
  /** Set when the function is deprecated: what to use instead. Optional. */
  readonly deprecationMessage?: string;
  /**
   * Computes the result. `args` holds one value per positional parameter, then (with a
   * {@link variadicParameter}) one array of the variadic arguments. The result must be fully
   * known and of {@link returnType}; with an error reported, the returned value is ignored.
   */
  run(args: readonly Value[], errors: FunctionErrors): Value | Promise<Value>;
}
