// Judges a recorded history (history.ts) after a fault run, issue 32 Must 3. Each check returns the
// violations it found, each with the smallest set of operations that shows it: a lost message is
// its acknowledged send; a reorder is the two sends and the two deliveries; a task going backwards
// is the two reads; a rate limit exceeded is the limit + 1 admissions of one window.
import {
  formatOp,
  type DeliveryOp,
  type Op,
  type RateOp,
  type SendOp,
  type TaskReadOp,
} from './history.js';

export type CheckName = 'lost' | 'ids' | 'order' | 'redelivered' | 'task-states' | 'rate';

export interface Violation {
  check: CheckName;
  message: string;
  evidence: Op[];
}

export interface CheckOptions {
  /**
   * May one task reach its recipient more than once (at-least-once redelivery after a crash)?
   * Default true; a run that promises "no message delivered by both owners" sets false.
   */
  allowRedelivery?: boolean;
  /** Checks not to run (known failures of a scenario, run only where a schedule asks for them). */
  skip?: readonly CheckName[];
}

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
/** Where a state stands in a task's life: a read may never see a task go back. */
const RANK: Record<string, number> = {
  submitted: 0,
  working: 1,
  'input-required': 1,
  'auth-required': 1,
  completed: 2,
  failed: 2,
  canceled: 2,
  rejected: 2,
};

export function checkHistory(ops: readonly Op[], opts: CheckOptions = {}): Violation[] {
  const sends = ops.filter((o): o is SendOp => o.kind === 'send');
  const deliveries = ops.filter((o): o is DeliveryOp => o.kind === 'deliver');
  const skip = new Set(opts.skip ?? []);
  return [
    ...checkLost(sends, deliveries),
    ...checkIds(sends, deliveries),
    ...checkOrder(sends, deliveries),
    ...(opts.allowRedelivery === false ? checkRedelivered(deliveries) : []),
    ...checkTaskStates(ops.filter((o): o is TaskReadOp => o.kind === 'task')),
    ...checkRate(ops.filter((o): o is RateOp => o.kind === 'rate')),
  ].filter((v) => !skip.has(v.check));
}

/** Every acknowledged send's task reached its recipient. */
export function checkLost(
  sends: readonly SendOp[],
  deliveries: readonly DeliveryOp[]
): Violation[] {
  const delivered = new Set(deliveries.map((d) => `${d.recipient}|${d.taskId}`));
  const out: Violation[] = [];
  const judged = new Set<string>();
  for (const s of sends) {
    if (s.outcome !== 'ack' || !s.taskId) continue;
    const k = `${s.recipient}|${s.taskId}`;
    if (delivered.has(k) || judged.has(k)) continue;
    judged.add(k);
    out.push({
      check: 'lost',
      message: `${s.messageId} acknowledged as task ${s.taskId} but never delivered to ${s.recipient}`,
      evidence: [s],
    });
  }
  return out;
}

/**
 * One message, one set of ids: every acknowledgement of a messageId names the same task, and every
 * delivery of it carries that task, the sender as `from`, and goes to the recipient it was sent to.
 */
export function checkIds(sends: readonly SendOp[], deliveries: readonly DeliveryOp[]): Violation[] {
  const out: Violation[] = [];
  const firstSend = new Map<string, SendOp>();
  const firstAck = new Map<string, SendOp>();
  for (const s of sends) {
    if (!firstSend.has(s.messageId)) firstSend.set(s.messageId, s);
    if (s.outcome !== 'ack' || !s.taskId) continue;
    const a = firstAck.get(s.messageId);
    if (!a) firstAck.set(s.messageId, s);
    else if (a.taskId !== s.taskId) {
      out.push({
        check: 'ids',
        message: `${s.messageId} acknowledged as two tasks: ${a.taskId} and ${s.taskId}`,
        evidence: [a, s],
      });
    }
  }
  const firstDelivery = new Map<string, DeliveryOp>();
  for (const d of deliveries) {
    const sent = firstSend.get(d.messageId);
    if (!sent) {
      out.push({
        check: 'ids',
        message: `${d.messageId} delivered to ${d.recipient} but never sent`,
        evidence: [d],
      });
      continue;
    }
    const ack = firstAck.get(d.messageId);
    const wrong: string[] = [];
    if (d.from !== sent.sender) wrong.push(`from ${d.from}, sent by ${sent.sender}`);
    if (d.recipient !== sent.recipient) wrong.push(`to ${d.recipient}, sent to ${sent.recipient}`);
    if (ack && d.taskId !== ack.taskId)
      wrong.push(`task ${d.taskId}, acknowledged as ${ack.taskId}`);
    const prev = firstDelivery.get(d.messageId);
    if (!prev) firstDelivery.set(d.messageId, d);
    else if (!ack && prev.taskId !== d.taskId)
      wrong.push(`task ${d.taskId}, delivered before as ${prev.taskId}`);
    if (wrong.length) {
      out.push({
        check: 'ids',
        message: `${d.messageId} delivered with other ids: ${wrong.join('; ')}`,
        evidence: [...(ack ? [ack] : [sent]), ...(prev && prev !== d ? [prev] : []), d],
      });
    }
  }
  return out;
}

/**
 * FIFO per sender → recipient: among acknowledged messages, the order in which the recipient first
 * saw each is their send order. (A sender here sends the next only after the last was answered, so
 * seq is the send order.)
 */
export function checkOrder(
  sends: readonly SendOp[],
  deliveries: readonly DeliveryOp[]
): Violation[] {
  const acked = new Map<string, SendOp>();
  for (const s of sends)
    if (s.outcome === 'ack' && !acked.has(s.messageId)) acked.set(s.messageId, s);
  const out: Violation[] = [];
  const seen = new Set<string>();
  /** Per pair, the acknowledged message with the highest seq delivered so far, and its delivery. */
  const high = new Map<string, { send: SendOp; delivery: DeliveryOp }>();
  const byArrival = deliveries
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.at - b.d.at || a.i - b.i)
    .map((x) => x.d);
  for (const d of byArrival) {
    const s = acked.get(d.messageId);
    if (!s || d.recipient !== s.recipient || seen.has(`${d.recipient}|${d.messageId}`)) continue;
    seen.add(`${d.recipient}|${d.messageId}`);
    const pair = `${s.sender}>${s.recipient}`;
    const h = high.get(pair);
    if (h && s.seq < h.send.seq) {
      out.push({
        check: 'order',
        message: `${pair}: #${s.seq} delivered after #${h.send.seq}`,
        evidence: [s, h.send, h.delivery, d],
      });
    } else high.set(pair, { send: s, delivery: d });
  }
  return out;
}

/** No task reaches its recipient twice (used where the run promises exactly one delivery). */
export function checkRedelivered(deliveries: readonly DeliveryOp[]): Violation[] {
  const first = new Map<string, DeliveryOp>();
  const out: Violation[] = [];
  for (const d of deliveries) {
    const k = `${d.recipient}|${d.taskId}`;
    const f = first.get(k);
    if (!f) first.set(k, d);
    else {
      out.push({
        check: 'redelivered',
        message: `task ${d.taskId} delivered to ${d.recipient} twice (via ${f.via}, then via ${d.via})`,
        evidence: [f, d],
      });
    }
  }
  return out;
}

/**
 * A task's states only move forward and it reaches at most one terminal state. Reads overlap in
 * time, so a read is judged only against reads that had answered before it was sent.
 */
export function checkTaskStates(reads: readonly TaskReadOp[]): Violation[] {
  const byTask = new Map<string, TaskReadOp[]>();
  for (const r of reads) {
    if (RANK[r.state] === undefined) continue;
    const list = byTask.get(r.taskId) ?? [];
    list.push(r);
    byTask.set(r.taskId, list);
  }
  const out: Violation[] = [];
  for (const [taskId, list] of byTask) {
    const terminals = new Map<string, TaskReadOp>();
    for (const r of list)
      if (TERMINAL.has(r.state) && !terminals.has(r.state)) terminals.set(r.state, r);
    if (terminals.size > 1) {
      out.push({
        check: 'task-states',
        message: `task ${taskId} reached ${terminals.size} terminal states: ${[...terminals.keys()].join(', ')}`,
        evidence: [...terminals.values()].slice(0, 2),
      });
      continue;
    }
    const byEnd = [...list].sort((a, b) => a.end - b.end);
    const byStart = [...list].sort((a, b) => a.start - b.start);
    let k = 0;
    let furthest: TaskReadOp | undefined;
    for (const r of byStart) {
      while (k < byEnd.length && byEnd[k]!.end < r.start) {
        const a = byEnd[k++]!;
        if (!furthest || RANK[a.state]! > RANK[furthest.state]!) furthest = a;
      }
      if (furthest && RANK[r.state]! < RANK[furthest.state]!) {
        out.push({
          check: 'task-states',
          message: `task ${taskId} went back from ${furthest.state} to ${r.state}`,
          evidence: [furthest, r],
        });
        break;
      }
    }
  }
  return out;
}

/** No key was admitted more than its limit in one window (as the hub's own headers name it). */
export function checkRate(rates: readonly RateOp[]): Violation[] {
  const windows = new Map<string, RateOp[]>();
  for (const r of rates) {
    if (!r.admitted) continue;
    const k = `${r.key}@${r.windowEnd}`;
    const list = windows.get(k) ?? [];
    list.push(r);
    windows.set(k, list);
  }
  const out: Violation[] = [];
  for (const [k, list] of windows) {
    const limit = Math.min(...list.map((r) => r.limit));
    if (list.length <= limit) continue;
    out.push({
      check: 'rate',
      message: `${k}: ${list.length} requests admitted, limit ${limit}`,
      evidence: [...list].sort((a, b) => a.at - b.at).slice(0, limit + 1),
    });
  }
  return out;
}

/** The violations with their evidence, times relative to `t0`; at most `max` of them. */
export function formatViolations(violations: readonly Violation[], t0: number, max = 10): string {
  const lines: string[] = [];
  for (const v of violations.slice(0, max)) {
    lines.push(`✗ ${v.check}: ${v.message}`);
    for (const op of v.evidence) lines.push(`    ${formatOp(op, t0)}`);
  }
  if (violations.length > max) lines.push(`… and ${violations.length - max} more`);
  return lines.join('\n');
}
