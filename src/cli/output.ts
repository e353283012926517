/**
 * How commands print results: human-readable tables by default, one JSON document with `--json`.
 */
import type { CliIO } from './io';

/** Prints `value` as one pretty-printed JSON document followed by a newline. */
export function printJson(io: CliIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Prints rows as an aligned table with a header line. Prints `empty` instead when there are no
 * rows, so that an empty listing says so rather than showing a bare header.
 */
export function printTable(io: CliIO, headers: readonly string[], rows: ReadonlyArray<readonly string[]>, empty: string): void {
  if (rows.length === 0) {
    io.stdout(`${empty}\n`);
    return;
  }
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  io.stdout(`${[line(headers), ...rows.map(line)].join('\n')}\n`);
}

/** An ISO 8601 timestamp for a millisecond epoch value, as tables show it. */
export function formatTimestamp(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}
