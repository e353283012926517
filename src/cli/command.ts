/**
 * The building blocks of the command tree: a leaf command defined by its argument spec, and a
 * group (`realms`, `keys`, `users`) that dispatches on its next word.
 */
import { formatHelp, parseArgs, type ArgsSpec, type FlagSpecs, type ParsedFlags } from './args';
import { EXIT, UsageError } from './errors';
import type { CliIO, Command } from './io';

/** A leaf command: its spec (for help and listings) and its runner. */
export interface LeafCommand {
  /** The command words and summary, as shown by the group's help. */
  readonly spec: { readonly command: string; readonly summary: string };
  /** Runs the command on the arguments after its words. */
  readonly run: Command;
}

/** What a leaf command's body receives once its arguments are valid. */
export interface ParsedCommandLine<F extends FlagSpecs> {
  flags: ParsedFlags<F>;
  positionals: string[];
}

/**
 * Makes a leaf command from a spec and a body. The body runs only on a valid command line;
 * `--help` prints the help generated from the spec and exits 0.
 */
export function defineCommand<F extends FlagSpecs>(
  spec: ArgsSpec<F>,
  body: (args: ParsedCommandLine<F>, io: CliIO) => Promise<number>,
): LeafCommand {
  return {
    spec,
    run: async (argv, io) => {
      const parsed = parseArgs(argv, spec);
      if (parsed.help) {
        io.stdout(formatHelp(spec));
        return EXIT.ok;
      }
      return body({ flags: parsed.flags, positionals: parsed.positionals }, io);
    },
  };
}

/**
 * Makes a command group (`orgadmin keys ...`) that dispatches on its first argument. Without a
 * subcommand, or with `--help`, it prints the list of subcommands.
 */
export function defineGroup(name: string, summary: string, subcommands: Readonly<Record<string, LeafCommand>>): Command {
  const help = (): string => {
    const width = Math.max(...Object.keys(subcommands).map((word) => word.length));
    const lines = Object.entries(subcommands).map(([word, sub]) => `  ${word.padEnd(width)}  ${sub.spec.summary}`);
    return `${summary}\n\nUsage: orgadmin ${name} <command> [flags]\n\nCommands:\n${lines.join('\n')}\n\nRun "orgadmin ${name} <command> --help" for the flags of a command.\n`;
  };
  return async (argv, io) => {
    const [word, ...rest] = argv;
    if (word === '--help' || word === '-h' || word === 'help') {
      io.stdout(help());
      return EXIT.ok;
    }
    if (word === undefined) {
      throw new UsageError(`"orgadmin ${name}" needs a command (${Object.keys(subcommands).join(', ')}); see "orgadmin ${name} --help".`);
    }
    const sub = Object.prototype.hasOwnProperty.call(subcommands, word) ? subcommands[word] : undefined;
    if (sub === undefined) {
      throw new UsageError(`unknown command "orgadmin ${name} ${word}"; see "orgadmin ${name} --help".`);
    }
    return sub.run(rest, io);
  };
}
