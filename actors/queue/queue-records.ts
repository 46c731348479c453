// How the queues sit in the partition log. A queued message: subject
// hubd.<pp>.q.<tenant>.<recipient>.<sender>, the delivery facts in headers (so the index is rebuilt
// from a headers-only replay), the message in the body (read once, when it is delivered). Its FIFO
// position is the stream sequence it was first stored at; a copy re-appended by a compaction carries
// that position in `Hub-Pos`. A done record (hubd.<pp>.q._done) lists, in `Hub-Done`, the positions
// removed (delivered, expired, purged) since the previous one: removal without a delete per message.
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';
import { subjects } from '../../runtime/bus/index.js';
import type { Message } from '../../runtime/protocol/index.js';
import type { QueueEntry, QueueRecord } from './queue-index.js';
import type { EnqueueRequest } from './queue-types.js';

const H = {
  task: 'Hub-Task',
  key: 'Hub-Key',
  enqueuedAt: 'Hub-Enqueued-At',
  expiresAt: 'Hub-Expires-At',
  acceptedAt: 'Hub-Accepted-At',
  pos: 'Hub-Pos',
  done: 'Hub-Done',
} as const;

export interface QueuedBody {
  message: Message;
}

export type NewEntry = Omit<QueueEntry, 'seq'>;

export function queueSubject(label: string, e: NewEntry): string {
  return subjects.queuedMessage(label, e.tenantId, e.recipientId, e.senderId);
}

export function doneSubject(label: string): string {
  return subjects.queueDone(label);
}

export function queueHeaders(e: NewEntry): Record<string, string> {
  const h: Record<string, string> = {
    [H.task]: e.taskId,
    [H.key]: e.key,
    [H.enqueuedAt]: String(e.enqueuedAt),
    [H.expiresAt]: String(e.expiresAt),
  };
  if (e.acceptedAt !== undefined) h[H.acceptedAt] = String(e.acceptedAt);
  return h;
}

/** The headers of a relocated copy: the original ones plus its FIFO position. */
export function relocatedHeaders(e: QueueEntry): Record<string, string> {
  return { ...queueHeaders(e), [H.pos]: String(e.seq) };
}

/**
 * The longest headers any copy of this message will carry (a relocated copy adds `Hub-Pos`):
 * measured at enqueue, so a message that is admitted can always be relocated.
 */
export function largestHeaders(e: NewEntry): Record<string, string> {
  return { ...queueHeaders(e), [H.pos]: String(Number.MAX_SAFE_INTEGER) };
}

/** Done record headers; positions ascending, as deltas in base 36 (about 3 bytes each). */
export function doneHeaders(positions: readonly number[]): Record<string, string> {
  return { [H.done]: encodePositions(positions) };
}

export function encodePositions(positions: readonly number[]): string {
  const sorted = [...positions].sort((a, b) => a - b);
  let prev = 0;
  const out: string[] = [];
  for (const p of sorted) {
    out.push((p - prev).toString(36));
    prev = p;
  }
  return out.join(',');
}

export function decodePositions(s: string): number[] | undefined {
  if (s === '') return [];
  const out: number[] = [];
  let prev = 0;
  for (const part of s.split(',')) {
    const d = parseInt(part, 36);
    if (!Number.isSafeInteger(d) || d < 0) return undefined;
    prev += d;
    out.push(prev);
  }
  return out;
}

/** A stored record of the queue namespace, or undefined when its subject or headers are not ours. */
export function recordOf(
  subject: string,
  seq: number,
  hdrs: MsgHdrs | undefined
): QueueRecord | undefined {
  // hubd.<pp>.q.<tenant>.<recipient>.<sender> or hubd.<pp>.q._done
  const t = subject.split('.');
  if (t[2] !== 'q' || !hdrs) return undefined;
  if (t.length === 4 && t[3] === '_done') {
    const positions = decodePositions(hdrs.get(H.done));
    return positions ? { kind: 'done', positions } : undefined;
  }
  const entry = entryOf(subject, seq, hdrs);
  return entry ? { kind: 'entry', entry, stored: seq } : undefined;
}

/**
 * The index entry of a stored message (its `seq` is the FIFO position: `Hub-Pos` on a relocated
 * copy, else the stored sequence), or undefined when its subject or headers are not ours.
 */
export function entryOf(
  subject: string,
  seq: number,
  hdrs: MsgHdrs | undefined
): QueueEntry | undefined {
  const t = subject.split('.');
  if (t.length !== 6 || t[2] !== 'q' || !hdrs) return undefined;
  const taskId = hdrs.get(H.task);
  const key = hdrs.get(H.key);
  // A missing header reads as '' (which Number() would take for 0).
  const enqueuedAt = Number(hdrs.get(H.enqueuedAt) || NaN);
  const expiresAt = Number(hdrs.get(H.expiresAt) || NaN);
  const pos = hdrs.has(H.pos) ? Number(hdrs.get(H.pos) || NaN) : seq;
  const acceptedAt = hdrs.has(H.acceptedAt) ? Number(hdrs.get(H.acceptedAt) || NaN) : undefined;
  if (
    !taskId ||
    !key ||
    !Number.isFinite(enqueuedAt) ||
    !Number.isFinite(expiresAt) ||
    !Number.isSafeInteger(pos) ||
    pos <= 0 ||
    pos > seq
  ) {
    return undefined;
  }
  const e: QueueEntry = {
    seq: pos,
    tenantId: t[3]!,
    recipientId: t[4]!,
    senderId: t[5]!,
    taskId,
    key,
    enqueuedAt,
    expiresAt,
  };
  // An unreadable acceptance time only loses the entry its place among its sender's: still queued.
  return acceptedAt !== undefined && Number.isFinite(acceptedAt) ? { ...e, acceptedAt } : e;
}

/** For tests and tools that write queue records directly. */
export function toMsgHdrs(h: Record<string, string>): MsgHdrs {
  const out = natsHeaders();
  for (const [k, v] of Object.entries(h)) out.set(k, v);
  return out;
}

/** The facts a queued message's headers carry, for a send the queue admitted. */
export function newEntry(r: EnqueueRequest, taskId: string, now: number): NewEntry {
  const e: NewEntry = {
    tenantId: r.tenantId,
    recipientId: r.recipientId,
    senderId: r.senderId,
    taskId,
    key: r.key,
    enqueuedAt: now,
    expiresAt: r.expiresAt,
  };
  return r.acceptedAt !== undefined ? { ...e, acceptedAt: r.acceptedAt } : e;
}
