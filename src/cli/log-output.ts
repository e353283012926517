/**
 * Where `orgadmin serve` writes its log and in which format: one JSON object per line (the
 * default, for log collectors) or pino-pretty's readable lines (`--log-format pretty`, for a
 * terminal), at `--log-level`. Lines go to the command's standard output, synchronously, so a line
 * written before the process exits is never lost and nothing needs flushing.
 */
import { UsageError } from './errors';
import type { CliIO } from './io';

/** The log formats of `--log-format`. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The levels of `--log-level`, most to least severe (pino's names); `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Parses `--log-format`.
 * @throws UsageError for anything but json or pretty.
 */
export function parseLogFormat(value: string): LogFormat {
  if (!(LOG_FORMATS as readonly string[]).includes(value)) throw new UsageError(`--log-format must be one of ${LOG_FORMATS.join(', ')}, not "${value}".`);
  return value as LogFormat;
}

/**
 * Parses `--log-level`.
 * @throws UsageError for a name pino does not know.
 */
export function parseLogLevel(value: string): LogLevel {
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not "${value}".`);
  return value as LogLevel;
}

/**
 * The log of `orgadmin serve`: fastify logger settings writing to `io`'s standard output in `format`
 * at `level`. Lines logged before {@link ServeLog.open} (fastify's "Server listening" line) are
 * held and written after it, so that the command's ready line stays the first line of its output.
 */
export class ServeLog {
  private held: string[] | undefined = [];
  private readonly write: (line: string) => void;

  constructor(
    io: CliIO,
    format: LogFormat,
    readonly level: LogLevel,
  ) {
    if (format === 'json') {
      this.write = (line) => io.stdout(line);
    } else {
      // Loaded only for this format, so a JSON log never pays for it.
      const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
      const pretty = prettyFactory({ colorize: false, translateTime: 'SYS:standard', ignore: 'pid,hostname' });
      this.write = (line) => io.stdout(pretty(line));
    }
  }

  /** The stream fastify's logger writes to. */
  readonly stream = {
    write: (line: string): void => {
      if (this.held === undefined) this.write(line);
      else this.held.push(line);
    },
  };

  /** Writes the held lines and every later line at once. */
  open(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const line of held) this.write(line);
  }
}
