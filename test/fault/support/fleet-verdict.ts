// What the fault tests assert after recovery, computed from the fleet's records, the tasks table
// and GetTask: every acknowledged task delivered to its recipient and terminal, no messageId with
// two tasks, FIFO per (sender → recipient) in the order the recipient first saw each task.
import type { Db } from '../../../infra/db/index.js';
import type { AgentFleet, Ack } from './agent-fleet.js';

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Verdict {
  sent: number;
  acknowledged: number;
  notAcknowledged: Record<string, number>;
  retriedAttempts: Record<string, number>;
  delivered: number;
  /** Acknowledged tasks their recipient never received. */
  lost: string[];
  /** messageIds answered with, or delivered as, more than one task id. */
  duplicates: string[];
  /** Task ids delivered more than once (at-least-once redelivery after a crash; not a new task). */
  redelivered: number;
  /** Deliveries that arrived after a later message of the same sender → recipient pair. */
  reordered: string[];
  /** Acknowledged tasks not terminal at the end (GetTask). */
  stuck: string[];
  states: Record<string, number>;
  reconnects: number;
  /** task_response frames the agents sent again after a retryable error frame. */
  answersRetried: number;
  closeCodes: Record<number, number>;
}

function deliveredTaskIds(fleet: AgentFleet): Set<string> {
  const s = new Set<string>();
  for (const a of fleet.agents) for (const r of a.received) s.add(r.taskId);
  return s;
}

/**
 * Wait until every acknowledged task has reached its recipient: up to `ms`, or until nothing new
 * arrived for `stallMs` (what is missing then stays missing; the verdict names it).
 */
export async function waitAllDelivered(
  fleet: AgentFleet,
  ms: number,
  stallMs = 20_000
): Promise<number> {
  const started = Date.now();
  let lastCount = -1;
  let lastChange = started;
  for (;;) {
    const got = deliveredTaskIds(fleet);
    const missing = [...fleet.acks.values()].filter((a) => !got.has(a.taskId)).length;
    if (got.size !== lastCount) {
      lastCount = got.size;
      lastChange = Date.now();
    }
    const now = Date.now();
    if (missing === 0 || now - started > ms || now - lastChange > stallMs) return now - started;
    await sleep(500);
  }
}

async function taskStates(
  sql: Db,
  fleet: AgentFleet,
  hubUrl: string,
  acks: readonly Ack[],
  ms: number
): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  const deadline = Date.now() + ms;
  for (;;) {
    const open = acks.filter((a) => !TERMINAL.has(states.get(a.taskId) ?? ''));
    if (open.length === 0) return states;
    // The tasks table first (one query), then GetTask, the truth, for what it does not show done.
    const ids = open.map((a) => a.taskId);
    const rows = await sql.unsafe<Array<{ id: string; state: string }>>(
      'select id, state from tasks where id = any($1::text[])',
      [ids]
    );
    for (const r of rows) states.set(r.id, r.state);
    const still = open.filter((a) => !TERMINAL.has(states.get(a.taskId) ?? ''));
    for (let i = 0; i < still.length; i += 20) {
      await Promise.all(
        still.slice(i, i + 20).map(async (a) => {
          const key = fleet.agents[a.sender]!.key;
          try {
            const res = await fetch(`${hubUrl}/a2a`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'GetTask',
                params: { id: a.taskId, historyLength: 0 },
              }),
              signal: AbortSignal.timeout(10_000),
            });
            const j = (await res.json()) as { result?: { status: { state: string } } };
            if (j.result) states.set(a.taskId, j.result.status.state);
          } catch {
            // asked again on the next round
          }
        })
      );
    }
    if (Date.now() > deadline) return states;
    await sleep(1000);
  }
}

export async function verdict(
  sql: Db,
  fleet: AgentFleet,
  hubUrl: string,
  opts: { terminalWithinMs: number }
): Promise<Verdict> {
  // GetTask answers from the task's owner; the tasks table may lag it by a moment.
  const acks = [...fleet.acks.values()];
  const got = deliveredTaskIds(fleet);
  const byId = new Map(fleet.agents.map((a) => [a.id, a.index]));
  // Times are printed as seconds since the first acknowledgement (the fault's time is printed too).
  const t0 = Math.min(...acks.map((a) => a.ackAt));
  const when = (t: number | undefined) =>
    t === undefined ? '?' : `${((t - t0) / 1000).toFixed(1)}s`;

  const duplicates = new Set<string>();
  for (const a of acks) if (a.taskIds.size > 1) duplicates.add(a.messageId);
  const tasksOfMessage = new Map<string, Set<string>>();
  let redelivered = 0;
  const reordered: string[] = [];
  for (const agent of fleet.agents) {
    const seen = new Set<string>();
    const lastSeq = new Map<number, number>();
    const arrivedAt = new Map<string, number>();
    for (const r of agent.received)
      if (!arrivedAt.has(r.messageId)) arrivedAt.set(r.messageId, r.at);
    for (const r of agent.received) {
      const tasks = tasksOfMessage.get(r.messageId) ?? new Set<string>();
      tasks.add(r.taskId);
      tasksOfMessage.set(r.messageId, tasks);
      if (seen.has(r.taskId)) {
        redelivered++;
        continue;
      }
      seen.add(r.taskId);
      const [, senderIdx, , seqText] = r.body.split('|');
      const sender = Number(senderIdx);
      if (byId.get(r.from) !== sender) duplicates.add(`${r.messageId} (from ${r.from})`);
      const seq = Number(seqText);
      const prev = lastSeq.get(sender) ?? 0;
      if (seq < prev) {
        // With when each was acknowledged and arrived (seconds into the load): the evidence.
        const late = fleet.acks.get(r.messageId);
        const early = [...fleet.acks.values()].find(
          (a) => a.sender === sender && a.recipient === agent.index && a.seq === prev
        );
        reordered.push(
          `${sender}>${agent.index}: #${seq} (acked ${when(late?.ackAt)}, arrived ${when(r.at)}) ` +
            `after #${prev} (acked ${when(early?.ackAt)}, arrived ${when(early && arrivedAt.get(early.messageId))})`
        );
      } else lastSeq.set(sender, seq);
    }
  }
  for (const [m, tasks] of tasksOfMessage) if (tasks.size > 1) duplicates.add(m);

  const states = await taskStates(sql, fleet, hubUrl, acks, opts.terminalWithinMs);
  const tally: Record<string, number> = {};
  for (const a of acks) {
    const s = states.get(a.taskId) ?? 'unknown';
    tally[s] = (tally[s] ?? 0) + 1;
  }
  return {
    sent: fleet.sent,
    acknowledged: acks.length,
    notAcknowledged: fleet.notAcked,
    retriedAttempts: fleet.retried,
    delivered: acks.filter((a) => got.has(a.taskId)).length,
    lost: acks
      .filter((a) => !got.has(a.taskId))
      .map(
        (a) =>
          `${a.messageId} task ${a.taskId} acked ${when(a.ackAt)} by ${a.via} after ${a.attempts} attempt(s)`
      ),
    duplicates: [...duplicates],
    redelivered,
    reordered,
    stuck: acks
      .filter((a) => !TERMINAL.has(states.get(a.taskId) ?? ''))
      .map((a) => `${a.taskId} (${states.get(a.taskId) ?? 'unknown'})`),
    states: tally,
    reconnects: fleet.agents.reduce((n, a) => n + a.reconnects, 0),
    answersRetried: fleet.answersRetried,
    closeCodes: fleet.closeCodes,
  };
}

/** One line per count, for the test output (the figures the assertions rest on). */
export function report(name: string, v: Verdict, extra: Record<string, unknown> = {}): string {
  const lines = [
    `[fault:${name}] sent ${v.sent}, acknowledged ${v.acknowledged}, delivered ${v.delivered}, ` +
      `lost ${v.lost.length}, duplicates ${v.duplicates.length}, reordered ${v.reordered.length}, ` +
      `stuck ${v.stuck.length}, redelivered ${v.redelivered}, reconnects ${v.reconnects}, ` +
      `answers retried ${v.answersRetried}`,
    `[fault:${name}] task states ${JSON.stringify(v.states)}; socket closes ${JSON.stringify(v.closeCodes)}; not acknowledged ${JSON.stringify(v.notAcknowledged)}; retried attempts ${JSON.stringify(v.retriedAttempts)}`,
  ];
  if (Object.keys(extra).length) lines.push(`[fault:${name}] ${JSON.stringify(extra)}`);
  for (const [what, list] of [
    ['lost', v.lost],
    ['duplicates', v.duplicates],
    ['reordered', v.reordered],
    ['stuck', v.stuck],
  ] as const) {
    if (list.length)
      lines.push(`[fault:${name}] ${what} (first 10): ${list.slice(0, 10).join('; ')}`);
  }
  return lines.join('\n');
}
