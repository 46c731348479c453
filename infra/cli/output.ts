// Printing helpers shared by the command groups: `--json` prints one JSON document, otherwise text.
import type { CliIo } from './context.js';

export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** Rows as aligned columns under a header; "(none)" when empty. */
export function printTable(io: CliIo, header: readonly string[], rows: readonly string[][]): void {
  if (rows.length === 0) {
    io.out('(none)');
    return;
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  io.out(line(header));
  for (const r of rows) io.out(line(r));
}
