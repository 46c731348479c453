// The history of a fault run (issue 32): every operation the test's clients performed, with the
// times they saw, as plain records a checker can judge afterwards (history-checker.ts). Times are
// the client's Date.now(): a send spans [start, end] (request out, answer in), a delivery and a
// rate-limit answer are points.

/** One SendMessage attempt and its answer. */
export interface SendOp {
  kind: 'send';
  start: number;
  end: number;
  messageId: string;
  /** Agent ids (the `from` a delivery carries is the sender's id). */
  sender: string;
  recipient: string;
  /** Position of this message in its sender → recipient sequence (1, 2, …). */
  seq: number;
  /** ack: a task id came back; refused: a final error (a queue limit); error: retryable or none. */
  outcome: 'ack' | 'refused' | 'error';
  taskId?: string;
  /** The hub the request went to. */
  via: string;
  detail?: string;
}

/** A message frame an agent received. */
export interface DeliveryOp {
  kind: 'deliver';
  at: number;
  /** The receiving agent's id. */
  recipient: string;
  messageId: string;
  taskId: string;
  /** The sender id the frame carries. */
  from: string;
  /** The hub whose socket carried it. */
  via: string;
}

/** A task state read (GetTask) and its answer. */
export interface TaskReadOp {
  kind: 'task';
  start: number;
  end: number;
  taskId: string;
  state: string;
  via: string;
}

/** A request that reached the rate limiter and what it answered (X-RateLimit-* headers). */
export interface RateOp {
  kind: 'rate';
  at: number;
  /** Whose allowance it counted against (the agent id of the API key). */
  key: string;
  /** x-ratelimit-reset: the end of the window the hub counted it in, Unix seconds. */
  windowEnd: number;
  limit: number;
  admitted: boolean;
}

export type Op = SendOp | DeliveryOp | TaskReadOp | RateOp;

/** Append-only, in the order the client saw the operations complete. */
export class History {
  readonly ops: Op[] = [];

  record(op: Op): void {
    this.ops.push(op);
  }

  /** Time 0 of the printed history: the first operation's start. */
  origin(): number {
    let t0 = Infinity;
    for (const op of this.ops) t0 = Math.min(t0, 'start' in op ? op.start : op.at);
    return Number.isFinite(t0) ? t0 : 0;
  }
}

/** One line per operation, times in seconds since `t0`: the evidence a failed check prints. */
export function formatOp(op: Op, t0: number): string {
  const s = (t: number) => `${((t - t0) / 1000).toFixed(3)}s`;
  switch (op.kind) {
    case 'send':
      return (
        `[${s(op.start)}–${s(op.end)}] send ${op.messageId} ${op.sender}→${op.recipient} #${op.seq} ` +
        `via ${op.via}: ${op.outcome}${op.taskId ? ` task ${op.taskId}` : ''}${op.detail ? ` (${op.detail})` : ''}`
      );
    case 'deliver':
      return `[${s(op.at)}] deliver ${op.messageId} task ${op.taskId} from ${op.from} to ${op.recipient} via ${op.via}`;
    case 'task':
      return `[${s(op.start)}–${s(op.end)}] read task ${op.taskId} via ${op.via}: ${op.state}`;
    case 'rate':
      return `[${s(op.at)}] rate ${op.key} window ending ${op.windowEnd}: ${op.admitted ? 'admitted' : 'refused'} (limit ${op.limit})`;
  }
}
