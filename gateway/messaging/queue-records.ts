// How a queued message sits in the partition log: subject hubd.<pp>.q.<tenant>.<recipient>.<sender>,
// the delivery facts in headers (so the index is rebuilt from a headers-only replay), the message in
// the body (read once, when it is delivered). The stream sequence is the message's identity.
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';
import { subjects } from '../../runtime/bus/index.js';
import type { Message } from '../../runtime/protocol/index.js';
import type { QueueEntry } from '../../actors/index.js';

const H = {
  task: 'Hub-Task',
  key: 'Hub-Key',
  enqueuedAt: 'Hub-Enqueued-At',
  expiresAt: 'Hub-Expires-At',
} as const;

export interface QueuedBody {
  message: Message;
}

export type NewEntry = Omit<QueueEntry, 'seq'>;

export function queueSubject(label: string, e: NewEntry): string {
  return subjects.queuedMessage(label, e.tenantId, e.recipientId, e.senderId);
}

export function queueHeaders(e: NewEntry): Record<string, string> {
  return {
    [H.task]: e.taskId,
    [H.key]: e.key,
    [H.enqueuedAt]: String(e.enqueuedAt),
    [H.expiresAt]: String(e.expiresAt),
  };
}

/** The index entry of a stored message, or undefined when its subject or headers are not ours. */
export function entryOf(
  subject: string,
  seq: number,
  hdrs: MsgHdrs | undefined
): QueueEntry | undefined {
  // hubd.<pp>.q.<tenant>.<recipient>.<sender>
  const t = subject.split('.');
  if (t.length !== 6 || t[2] !== 'q' || !hdrs) return undefined;
  const taskId = hdrs.get(H.task);
  const key = hdrs.get(H.key);
  // A missing header reads as '' (which Number() would take for 0).
  const enqueuedAt = Number(hdrs.get(H.enqueuedAt) || NaN);
  const expiresAt = Number(hdrs.get(H.expiresAt) || NaN);
  if (!taskId || !key || !Number.isFinite(enqueuedAt) || !Number.isFinite(expiresAt)) {
    return undefined;
  }
  return {
    seq,
    tenantId: t[3]!,
    recipientId: t[4]!,
    senderId: t[5]!,
    taskId,
    key,
    enqueuedAt,
    expiresAt,
  };
}

/** For tests and tools that write queue records directly. */
export function toMsgHdrs(h: Record<string, string>): MsgHdrs {
  const out = natsHeaders();
  for (const [k, v] of Object.entries(h)) out.set(k, v);
  return out;
}
