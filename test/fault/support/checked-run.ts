// The end of a fault run that recorded a history (pause and partition tests): the checker's
// verdict, with the known failures (schedule.ts) printed always and failed on only under
// BURROW_FAULT_STRICT=1, and what every such run must show besides.
import { expect } from 'vitest';
import type { Verdict } from './fleet-verdict.js';
import type { History } from './history.js';
import { checkHistory, formatViolations } from './history-checker.js';
import type { Observer } from './observers.js';
import { KNOWN_FAILURES, type Schedule } from './schedule.js';

export interface CheckedRun {
  /** The test's name in printed lines: `[fault:<name>]`. */
  name: string;
  history: History;
  schedule: Schedule;
  verdict: Verdict;
  reader: Observer;
  prober: Observer;
  /** The rate probe's limit per minute: more answers than that prove it kept probing. */
  rateProbePerMinute: number;
  log: (line: string) => void;
}

export function expectCheckedHistory(run: CheckedRun): void {
  const { name, history, schedule, log } = run;
  const known = KNOWN_FAILURES.flatMap((c) =>
    checkHistory(history.ops, { allowRedelivery: false }).filter((x) => x.check === c)
  );
  if (known.length)
    log(
      `[fault:${name}] known failure, seed ${schedule.seed}: ${known.length} violation(s), e.g.\n` +
        formatViolations(known, history.origin(), 3)
    );
  const violations = checkHistory(history.ops, {
    allowRedelivery: false,
    skip: schedule.strict ? [] : KNOWN_FAILURES,
  });
  if (violations.length)
    log(`[fault:${name}] seed ${schedule.seed}\n${formatViolations(violations, history.origin())}`);
  expect(run.verdict.acknowledged).toBeGreaterThanOrEqual(200);
  expect(run.reader.counts.answered, 'task reads answered').toBeGreaterThan(50);
  expect(run.prober.counts.answered, 'rate probes answered').toBeGreaterThan(
    run.rateProbePerMinute
  );
  expect(violations.map((x) => `${x.check}: ${x.message}`)).toEqual([]);
  expect(run.verdict.stuck, 'acknowledged tasks not terminal').toEqual([]);
}
