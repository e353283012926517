/**
 * A small, strict argument parser for the `orgadmin` commands.
 *
 * Accepts `--flag value`, `--flag=value` and boolean `--flag`; `--` ends the flags. Everything it
 * does not understand is a {@link UsageError}: an unknown flag, a value for a boolean, a missing
 * value, a flag given twice, a missing required flag or argument, an extra argument. Being strict
 * matters for an admin tool: a typo such as `--permision` must not silently create a key with no
 * permissions.
 */
import { UsageError } from './errors';

/** A flag that takes a value (`--realm acme` or `--realm=acme`). */
export interface StringFlagSpec {
  readonly type: 'string';
  /** One line for `--help`. */
  readonly description: string;
  /** The placeholder shown in `--help` (default `VALUE`). */
  readonly valueName?: string;
  /** When true, leaving the flag out is a usage error. */
  readonly required?: boolean;
}

/** A flag that is either present or not (`--json`). */
export interface BooleanFlagSpec {
  readonly type: 'boolean';
  /** One line for `--help`. */
  readonly description: string;
}

/** One flag of a command. */
export type FlagSpec = StringFlagSpec | BooleanFlagSpec;

/** The flags of a command, keyed by their long name without dashes (`'token-lifetime'`). */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** One positional argument of a command. */
export interface PositionalSpec {
  /** The placeholder shown in usage lines and errors (`NAME`). */
  readonly name: string;
  /** One line for `--help`. */
  readonly description: string;
  /** When true, leaving it out is a usage error. */
  readonly required: boolean;
}

/** What a command accepts; also the source of its `--help` text. */
export interface ArgsSpec<F extends FlagSpecs> {
  /** The command words, for usage and error messages (`'keys create'`). */
  readonly command: string;
  /** One sentence saying what the command does. */
  readonly summary: string;
  /** Positional arguments, in order. */
  readonly positionals?: readonly PositionalSpec[];
  /** The flags. `--help`/`-h` is always accepted and need not be listed. */
  readonly flags: F;
}

/** The value type a flag spec parses to. */
export type FlagValue<S extends FlagSpec> = S extends BooleanFlagSpec
  ? boolean
  : S extends { readonly required: true }
    ? string
    : string | undefined;

/** Parsed flags, typed from their specs. */
export type ParsedFlags<F extends FlagSpecs> = { -readonly [K in keyof F]: FlagValue<F[K]> };

/** The result of {@link parseArgs}. */
export type ParsedArgs<F extends FlagSpecs> =
  | { readonly help: true }
  | { readonly help: false; readonly flags: ParsedFlags<F>; readonly positionals: string[] };

/** How the user asks for help on any command. */
const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * Parses `argv` (the arguments after the command words) against `spec`.
 *
 * When `--help` or `-h` appears before `--`, returns `{ help: true }` without validating anything
 * else, so that help works even on an incomplete command line.
 *
 * @throws UsageError for anything the spec does not allow.
 */
export function parseArgs<F extends FlagSpecs>(argv: readonly string[], spec: ArgsSpec<F>): ParsedArgs<F> {
  const endOfFlags = argv.indexOf('--');
  const flagPart = endOfFlags === -1 ? argv : argv.slice(0, endOfFlags);
  if (flagPart.some((arg) => HELP_FLAGS.has(arg))) return { help: true };

  const seeHelp = `see "orgadmin ${spec.command} --help"`;
  const values = new Map<string, string | boolean>();
  const positionals: string[] = [];

  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (i === endOfFlags) {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) {
      throw new UsageError(`unknown flag ${arg} for "orgadmin ${spec.command}"; ${seeHelp}.`);
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const flag = Object.prototype.hasOwnProperty.call(spec.flags, name) ? spec.flags[name] : undefined;
    if (flag === undefined) {
      throw new UsageError(`unknown flag --${name} for "orgadmin ${spec.command}"; ${seeHelp}.`);
    }
    if (values.has(name)) {
      throw new UsageError(`flag --${name} was given more than once.`);
    }
    if (flag.type === 'boolean') {
      if (eq !== -1) throw new UsageError(`flag --${name} does not take a value.`);
      values.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      // A following `--something` is another flag, not this flag's value: treating it as the value
      // would hide the mistake (`--realm --json`).
      if (next !== undefined && i + 1 !== endOfFlags && !next.startsWith('--')) {
        value = next;
        i += 1;
      }
    }
    if (value === undefined || value === '') {
      throw new UsageError(`flag --${name} needs a value (--${name} ${flag.valueName ?? 'VALUE'}).`);
    }
    values.set(name, value);
  }

  const flags: Record<string, string | boolean | undefined> = {};
  for (const [name, flag] of Object.entries(spec.flags)) {
    const value = values.get(name);
    if (flag.type === 'boolean') {
      flags[name] = value === true;
    } else {
      if (value === undefined && flag.required) {
        throw new UsageError(`missing required flag --${name} for "orgadmin ${spec.command}"; ${seeHelp}.`);
      }
      flags[name] = value;
    }
  }

  const expected = spec.positionals ?? [];
  if (positionals.length > expected.length) {
    const extra = positionals[expected.length]!;
    throw new UsageError(`unexpected argument "${extra}" for "orgadmin ${spec.command}"; ${seeHelp}.`);
  }
  expected.forEach((positional, index) => {
    if (positional.required && positionals[index] === undefined) {
      throw new UsageError(`missing ${positional.name} for "orgadmin ${spec.command}"; ${seeHelp}.`);
    }
  });

  return { help: false, flags: flags as ParsedFlags<F>, positionals };
}

/** Renders the `--help` text of a command from its spec. */
export function formatHelp<F extends FlagSpecs>(spec: ArgsSpec<F>): string {
  const positionals = (spec.positionals ?? []).map((p) => (p.required ? p.name : `[${p.name}]`));
  const requiredFlags = Object.entries(spec.flags)
    .filter(([, flag]) => flag.type === 'string' && flag.required)
    .map(([name, flag]) => `--${name} ${(flag as StringFlagSpec).valueName ?? 'VALUE'}`);
  const usage = ['orgadmin', spec.command, ...positionals, ...requiredFlags, '[flags]'].join(' ');

  const rows: Array<[string, string]> = [];
  for (const positional of spec.positionals ?? []) rows.push([positional.name, positional.description]);
  for (const [name, flag] of Object.entries(spec.flags)) {
    const left = flag.type === 'string' ? `--${name} ${flag.valueName ?? 'VALUE'}` : `--${name}`;
    const required = flag.type === 'string' && flag.required ? ' (required)' : '';
    rows.push([left, flag.description + required]);
  }
  rows.push(['-h, --help', 'Show this help.']);
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
  return `${spec.summary}\n\nUsage: ${usage}\n\n${lines.join('\n')}\n`;
}
