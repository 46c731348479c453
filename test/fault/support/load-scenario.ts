// One fault scenario under load: 200 WebSocket agents in 10 tenants (homes alternate between two
// hub nodes, every message crosses nodes), 20 of them offline while others send to them. Warm up,
// inject the fault, keep the load on, resend a few messageIds on purpose, stop the load, bring the
// offline agents online so their queues drain, then compute the verdict (fleet-verdict.ts).
import { expect } from 'vitest';
import { AgentFleet, type Ack } from './agent-fleet.js';
import type { FaultCluster } from './fault-cluster.js';
import { report, verdict, waitAllDelivered, type Verdict } from './fleet-verdict.js';

export const FLEET = { tenants: 10, perTenant: 20, offlineEvery: 10 } as const;
const WARMUP_MS = 20_000;
const AFTER_FAULT_MS = 30_000;
const RESENDS = 10;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (line: string) => process.stdout.write(`${line}\n`);

export interface ScenarioResult {
  verdict: Verdict;
  resends: { resent: number; sameTask: number; different: string[] };
}

/**
 * Run the load around `fault` (which injects the fault and resolves once the test may expect
 * recovery to be under way; what it returns is printed with the counts).
 */
export async function runLoadScenario(
  name: string,
  cluster: FaultCluster,
  fault: (fleet: AgentFleet) => Promise<Record<string, unknown>>
): Promise<ScenarioResult> {
  const fleet = await AgentFleet.create(cluster.sql, () => cluster.live().map((h) => h.url), FLEET);
  try {
    await fleet.connectAll();
    log(`[fault:${name}] ${fleet.connectedCount()} agents online, ${fleet.offline.length} offline`);
    fleet.startLoad();
    await sleep(WARMUP_MS);
    const faultAt = Date.now();
    const beforeFault = [...fleet.acks.values()].filter((a) => a.ackAt > faultAt - 20_000);
    log(`[fault:${name}] injecting the fault after ${fleet.acks.size} acknowledged messages`);
    const firstAck = Math.min(...[...fleet.acks.values()].map((a) => a.ackAt));
    const info = await fault(fleet);
    info.faultAt = `${((faultAt - firstAck) / 1000).toFixed(1)}s`;
    await sleep(AFTER_FAULT_MS);

    // Resend messageIds on purpose: some acknowledged just before the fault (their task may have
    // moved to another node since), some just now. Each must answer with its first task.
    const recent = [...fleet.acks.values()].slice(-RESENDS);
    const sample: Ack[] = [...pick(beforeFault, RESENDS), ...recent];
    const via = cluster.live().map((h) => h.url);
    const different: string[] = [];
    let sameTask = 0;
    for (const [i, ack] of sample.entries()) {
      const t = await fleet.resend(ack, via[i % via.length]!);
      if (t === ack.taskId) sameTask++;
      else different.push(`${ack.messageId}: first ${ack.taskId}, again ${t}`);
    }

    await fleet.stopLoad();
    const stoppedAt = Date.now();
    await fleet.goOnline(fleet.offline.filter((a) => !a.connectedTo));
    const drainMs = await waitAllDelivered(fleet, 90_000);
    const v = await verdict(cluster.sql, fleet, via[0]!, { terminalWithinMs: 30_000 });
    log(
      report(name, v, {
        ...info,
        loadMs: stoppedAt - faultAt + WARMUP_MS,
        allDeliveredMsAfterLoad: drainMs,
        resends: `${sameTask}/${sample.length} same task`,
      })
    );
    return { verdict: v, resends: { resent: sample.length, sameTask, different } };
  } finally {
    fleet.close();
  }
}

function pick<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  const step = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * step)]!);
}

/** The assertions every load scenario makes, after printing the counts they rest on. */
export function expectNoLossNoDuplicates(r: ScenarioResult, minAcknowledged: number): void {
  const v = r.verdict;
  expect(v.acknowledged, 'acknowledged messages').toBeGreaterThanOrEqual(minAcknowledged);
  expect(v.lost, 'acknowledged but never delivered').toEqual([]);
  expect(v.delivered).toBe(v.acknowledged);
  expect(v.duplicates, 'messageIds with more than one task').toEqual([]);
  expect(r.resends.different, 'resent messageIds answered with another task').toEqual([]);
  expect(r.resends.sameTask).toBe(r.resends.resent);
  expect(v.reordered, 'FIFO per sender → recipient').toEqual([]);
  expect(v.stuck, 'acknowledged tasks not terminal').toEqual([]);
}
