// A fault run that records a history (pause and partition tests): the load it puts on the hubs
// while the faults happen (startCheckedLoad), and its end (finishCheckedRun): everything
// delivered, the checker's verdict, with the known failures (schedule.ts) printed always and
// failed on only under BURROW_FAULT_STRICT=1, and what every such run must show besides. Both
// tests run the same load so their reports and thresholds compare.
import { expect } from 'vitest';
import type { Db } from '../../../infra/db/index.js';
import { AgentFleet } from './agent-fleet.js';
import { report, verdict, waitAllDelivered, type Verdict } from './fleet-verdict.js';
import { History } from './history.js';
import { checkHistory, formatViolations } from './history-checker.js';
import { startRateProber, startTaskReader, type Observer } from './observers.js';
import { KNOWN_FAILURES, type Schedule } from './schedule.js';

/** The rate probe's limit per minute, the same in every checked run. */
const RATE_PROBE_PER_MINUTE = 30;

export interface CheckedLoad {
  history: History;
  /** 40 WebSocket agents in 4 tenants sending over HTTP, every fifth offline at times. */
  fleet: AgentFleet;
  /** Reads tasks back while the faults happen (their states must only move forward). */
  reader: Observer;
  /** Probes a rate limit (no window may admit more than its limit). */
  prober: Observer;
}

/** The history, the fleet and the observers, not started yet (fleet.connectAll, startLoad). */
export async function startCheckedLoad(sql: Db, urls: () => string[]): Promise<CheckedLoad> {
  const history = new History();
  const fleet = await AgentFleet.create(sql, urls, {
    tenants: 4,
    perTenant: 10,
    offlineEvery: 5,
    history,
  });
  const reader = startTaskReader(fleet, urls, history);
  const prober = await startRateProber(sql, urls, history, { perMinute: RATE_PROBE_PER_MINUTE });
  return { history, fleet, reader, prober };
}

export interface FinishOptions {
  /** The test's name in printed lines: `[fault:<name>]`. */
  name: string;
  sql: Db;
  urls: () => string[];
  schedule: Schedule;
  log: (line: string) => void;
  /** More for the report, read once the verdict is in. */
  extra?: () => Record<string, unknown>;
}

/**
 * After the faults: the load stops, the offline agents come back for what was queued for them,
 * and once everything is delivered (or stalls) the run is judged and reported.
 */
export async function finishCheckedRun(load: CheckedLoad, o: FinishOptions): Promise<void> {
  const { fleet, reader, prober, history } = load;
  await fleet.stopLoad();
  await Promise.all([reader.stop(), prober.stop()]);
  await fleet.goOnline(fleet.offline.filter((a) => !a.connectedTo));
  await waitAllDelivered(fleet, 60_000);
  const v = await verdict(o.sql, fleet, o.urls()[0]!, { terminalWithinMs: 30_000 });
  o.log(
    report(o.name, v, {
      seed: o.schedule.seed,
      taskReads: reader.counts,
      rateProbe: prober.counts,
      ...o.extra?.(),
    })
  );
  expectCheckedHistory({
    name: o.name,
    history,
    schedule: o.schedule,
    verdict: v,
    reader,
    prober,
    rateProbePerMinute: RATE_PROBE_PER_MINUTE,
    log: o.log,
  });
}

/** In the test's `finally`: sockets closed and observers stopped, whatever happened. */
export async function closeCheckedLoad(load: CheckedLoad): Promise<void> {
  load.fleet.close();
  await Promise.all([load.reader.stop(), load.prober.stop()]);
}

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
