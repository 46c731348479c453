// Issue 19's targets beside the figures of a run: each benchmark adds its rows, run.ts prints the
// table at the end and saves it with the figures. A row whose target is relative to a figure this
// run cannot have (the code before a change) has no verdict.
import { cpus, loadavg } from 'node:os';

export interface TargetRow {
  measure: string;
  figure: string;
  target: string;
  /** undefined: nothing to judge in this run alone. */
  pass?: boolean;
}

export const fmt = (n: number, d = 1) =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

const rows: TargetRow[] = [];

export function addTarget(row: TargetRow): void {
  rows.push(row);
}

export function targetRows(): readonly TargetRow[] {
  return rows;
}

export function printTargets(): void {
  if (rows.length === 0) return;
  const verdict = (r: TargetRow) => (r.pass === undefined ? '–' : r.pass ? 'PASS' : 'MISS');
  const table = [
    ['measure', 'figure', 'target', ''],
    ...rows.map((r) => [r.measure, r.figure, r.target, verdict(r)]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  const [l1, l5, l15] = loadavg();
  process.stdout.write(
    `\nIssue 19's targets (${cpus().length} cores, load average at the end ${fmt(l1!, 2)} ${fmt(l5!, 2)} ${fmt(l15!, 2)})\n` +
      [line(table[0]!), line(widths.map((w) => '-'.repeat(w))), ...table.slice(1).map(line)].join(
        '\n'
      ) +
      '\n'
  );
}
