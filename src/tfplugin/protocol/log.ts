/**
 * hclog-style JSON logging on stderr. go-plugin's client parses each JSON line on the plugin's
 * stderr and re-logs it under Terraform's own logger with its level, so `TF_LOG=debug` shows
 * provider logs interleaved with Terraform's.
 *
 * Level: `TF_LOG_PROVIDER`, else `TF_LOG` (trace, debug, info, warn, error, off; `json` means
 * trace), else warn. Never log secrets: callers pass only non-sensitive fields.
 */

/** Log levels, most verbose first. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<LogLevel | 'off', number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

/** A structured logger writing hclog JSON lines. */
export interface JsonLogger {
  /** True when messages of `level` are written (avoid building expensive fields otherwise). */
  enabled(level: LogLevel): boolean;
  /** Writes one line at `level`. */
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  /** Writes at trace level. */
  trace(message: string, fields?: Record<string, unknown>): void;
  /** Writes at debug level. */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Writes at info level. */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Writes at warn level. */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Writes at error level. */
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger with another `@module`. */
  named(module: string): JsonLogger;
}

/** Reads the level from Terraform's environment variables. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv): LogLevel | 'off' {
  const raw = (env.TF_LOG_PROVIDER || env.TF_LOG || '').trim().toLowerCase();
  if (raw === 'json') return 'trace';
  if (raw in RANK) return raw as LogLevel | 'off';
  return 'warn';
}

/** hclog's timestamp layout: `2006-01-02T15:04:05.000000Z07:00` (microseconds, UTC). */
export function hclogTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** Creates a logger writing to `write` (default: stderr). */
export function createJsonLogger(options: {
  module: string;
  level: LogLevel | 'off';
  write?: (line: string) => void;
}): JsonLogger {
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const threshold = RANK[options.level];
  const make = (module: string): JsonLogger => {
    const log = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
      if (RANK[level] < threshold) return;
      const entry: Record<string, unknown> = {
        '@level': level,
        '@message': message,
        '@module': module,
        '@timestamp': hclogTimestamp(new Date()),
      };
      for (const [key, value] of Object.entries(fields ?? {})) {
        if (!key.startsWith('@')) entry[key] = value instanceof Error ? value.stack ?? value.message : value;
      }
      let line: string;
      try {
        line = JSON.stringify(entry);
      } catch {
        line = JSON.stringify({ ...entry, fields: '[unserializable]' });
      }
      write(`${line}\n`);
    };
    return {
      enabled: (level) => RANK[level] >= threshold,
      log,
      trace: (m, f) => log('trace', m, f),
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      named: (child) => make(`${module}.${child}`),
    };
  };
  return make(options.module);
}
