// A fault run that records a history (pause and partition tests): the load it puts on the hubs
// while the faults happen (startCheckedLoad), and its end (finishCheckedRun): everything
// delivered, the checker's verdict, with the known failures (schedule.ts) printed always and
// failed on only under BURROW_FAULT_STRICT=1, and what every such run must show besides. Both
// tests run the same load so their reports and thresholds compare.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Db } from '../../../infra/db/index.js';
import { AgentFleet } from './agent-fleet.js';
import { report, verdict, waitAllDelivered, type Verdict } from './fleet-verdict.js';
import { History, formatOp } from './history.js';
import { checkHistory, formatViolations, type Violation } from './history-checker.js';
import { startRateProber, startTaskReader, type Observer } from './observers.js';
import { KNOWN_FAILURES, type Schedule } from './schedule.js';

/** The rate probe's limit per minute, the same in every checked run. */
const RATE_PROBE_PER_MINUTE = 30;
/** Positions in each tenant of 10 that are HTTP agents: 8 of the 40, each with 3 senders. */
const HTTP_POSITIONS = [2, 7];

/**
 * Hub settings for the HTTP recipients of a checked run. The hub retries an unreachable HTTP agent
 * every 5 minutes by default and waits 30 s for its answer: a run lasts about two minutes, so a
 * delivery a fault made fail must come round again within it.
 */
export const CHECKED_HUB_ENV = {
  QUEUE_HTTP_RETRY_MS: '2000',
  HTTP_AGENT_TIMEOUT_MS: '10000',
} as const;

export interface CheckedLoad {
  history: History;
  /**
   * 40 agents in 4 tenants sending over HTTP: 32 WebSocket agents (every fifth offline at times)
   * and 8 HTTP agents whose endpoints the test process serves.
   */
  fleet: AgentFleet;
  /** Reads tasks back while the faults happen (their states must only move forward). */
  reader: Observer;
  /** Probes a rate limit (no window may admit more than its limit). */
  prober: Observer;
}

export interface StartOptions {
  /** Where the HTTP agents' server listens: an address every hub reaches. */
  httpHost: string;
  /** How long the load runs before the first fault. */
  warmupMs: number;
}

/**
 * The history, the fleet and the observers, started: the agents connected, the load running for
 * `warmupMs`. The caller closes it (closeCheckedLoad) in its `finally`.
 */
export async function startCheckedLoad(
  sql: Db,
  urls: () => string[],
  o: StartOptions
): Promise<CheckedLoad> {
  const history = new History();
  const fleet = await AgentFleet.create(sql, urls, {
    tenants: 4,
    perTenant: 10,
    offlineEvery: 5,
    history,
    http: { positions: HTTP_POSITIONS, host: o.httpHost },
  });
  const reader = startTaskReader(fleet, urls, history);
  const prober = await startRateProber(sql, urls, history, { perMinute: RATE_PROBE_PER_MINUTE });
  const load = { history, fleet, reader, prober };
  try {
    await fleet.connectAll();
    fleet.startLoad();
    await sleep(o.warmupMs);
  } catch (err) {
    await closeCheckedLoad(load);
    throw err;
  }
  return load;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

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
      httpRecipients: httpCounts(fleet),
      ...o.extra?.(),
    })
  );
  keepHistory(o.name, history);
  expectCheckedHistory({
    name: o.name,
    fleet,
    history,
    schedule: o.schedule,
    verdict: v,
    reader,
    prober,
    rateProbePerMinute: RATE_PROBE_PER_MINUTE,
    log: o.log,
  });
}

/** `t` in seconds since the history's time 0 (the times a failed check prints). */
export function secondsInto(load: CheckedLoad, t: number): number {
  return Math.round((t - load.history.origin()) / 100) / 10;
}

/**
 * The whole history, one operation a line on the printed clock, beside the hubs' logs in
 * $BURROW_TEST_LOG_DIR/<name>/ when that is set (keepHubLogs): a failed check prints only the
 * operations that show it, and the ones around them are the context.
 */
function keepHistory(name: string, history: History): void {
  const dir = process.env.BURROW_TEST_LOG_DIR;
  if (!dir) return;
  mkdirSync(join(dir, name), { recursive: true });
  const t0 = history.origin();
  writeFileSync(
    join(dir, name, 'history.txt'),
    history.ops.map((op) => formatOp(op, t0)).join('\n') + '\n'
  );
}

/** In the test's `finally`: sockets closed and observers stopped, whatever happened. */
export async function closeCheckedLoad(load: CheckedLoad): Promise<void> {
  load.fleet.close();
  await Promise.all([load.reader.stop(), load.prober.stop()]);
}

/** What reached the HTTP recipients: acknowledged to them, delivered, deliveries in all. */
function httpCounts(fleet: AgentFleet) {
  const http = new Set(fleet.ofTransport('http').map((a) => a.index));
  const acks = [...fleet.acks.values()].filter((a) => http.has(a.recipient));
  const got = new Set(fleet.ofTransport('http').flatMap((a) => a.received.map((r) => r.taskId)));
  return {
    agents: http.size,
    acknowledged: acks.length,
    delivered: acks.filter((a) => got.has(a.taskId)).length,
    deliveries: fleet.ofTransport('http').reduce((n, a) => n + a.received.length, 0),
    /** Refused (secret, envelope) or naming other ids: asserted empty after the checker. */
    problems: fleet.httpProblems.length,
  };
}

/** The kind of recipient a violation concerns (the agent in its evidence). */
function transportOf(fleet: AgentFleet, v: Violation): string {
  const op = v.evidence.find((e) => e.kind === 'send' || e.kind === 'deliver');
  const agent =
    op && 'recipient' in op ? fleet.agents.find((a) => a.id === op.recipient) : undefined;
  return agent?.transport ?? 'other';
}

/** Violations counted by check and kind of recipient. */
function byTransport(fleet: AgentFleet, vs: readonly Violation[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of vs) {
    const k = `${v.check} ${transportOf(fleet, v)}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** Up to `n` examples of each check and kind of recipient (the rarer kinds are not crowded out). */
function examples(fleet: AgentFleet, vs: readonly Violation[], n: number): Violation[] {
  const taken: Record<string, number> = {};
  return vs.filter((v) => {
    const k = `${v.check} ${transportOf(fleet, v)}`;
    taken[k] = (taken[k] ?? 0) + 1;
    return taken[k] <= n;
  });
}

export interface CheckedRun {
  /** The test's name in printed lines: `[fault:<name>]`. */
  name: string;
  fleet: AgentFleet;
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
      `[fault:${name}] known failure, seed ${schedule.seed}: ${known.length} violation(s) ` +
        `${JSON.stringify(byTransport(run.fleet, known))}, e.g.\n` +
        formatViolations(examples(run.fleet, known, 2), history.origin())
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
  // The HTTP recipients took part: each got deliveries, every one with a good secret and envelope.
  for (const a of run.fleet.ofTransport('http'))
    expect(a.received.length, `deliveries to HTTP agent ${a.id}`).toBeGreaterThan(0);
  expect(run.fleet.httpProblems, 'HTTP deliveries refused or with wrong ids').toEqual([]);
}
