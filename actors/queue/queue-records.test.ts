import { describe, expect, it } from 'vitest';
import {
  decodePositions,
  doneHeaders,
  doneSubject,
  encodePositions,
  entryOf,
  queueHeaders,
  queueSubject,
  recordOf,
  relocatedHeaders,
  toMsgHdrs,
  type NewEntry,
} from './queue-records.js';

const e: NewEntry = {
  tenantId: 'ten-1',
  recipientId: 'agent-aaaaaaaaaaaa',
  senderId: 'agent-bbbbbbbbbbbb',
  taskId: 'task-0001abcd-0000-4000-8000-000000000000',
  key: 'agent-bbbbbbbbbbbb:msg-1',
  enqueuedAt: 1_700_000_000_000,
  expiresAt: 1_700_000_060_000,
};

describe('queue records', () => {
  it('round-trips an entry through subject and headers (the headers-only replay)', () => {
    const subject = queueSubject('07', e);
    expect(subject).toBe('hubd.07.q.ten-1.agent-aaaaaaaaaaaa.agent-bbbbbbbbbbbb');
    expect(entryOf(subject, 42, toMsgHdrs(queueHeaders(e)))).toEqual({ ...e, seq: 42 });
    // Queued after a delivery attempt: when it was accepted rides along, also on a relocated copy.
    const late = { ...e, acceptedAt: 1_699_999_990_000 };
    expect(entryOf(subject, 42, toMsgHdrs(queueHeaders(late)))).toEqual({ ...late, seq: 42 });
    expect(recordOf(subject, 90, toMsgHdrs(relocatedHeaders({ ...late, seq: 42 })))).toEqual({
      kind: 'entry',
      entry: { ...late, seq: 42 },
      stored: 90,
    });
  });

  it('ignores records that are not queued messages or miss a header', () => {
    const h = toMsgHdrs(queueHeaders(e));
    expect(entryOf('hubd.07.s.task.task-1', 1, h)).toBeUndefined();
    expect(entryOf(queueSubject('07', e), 1, undefined)).toBeUndefined();
    const partial = queueHeaders(e);
    delete partial['Hub-Expires-At'];
    expect(entryOf(queueSubject('07', e), 1, toMsgHdrs(partial))).toBeUndefined();
  });

  it('refuses ids that are not subject tokens', () => {
    expect(() => queueSubject('07', { ...e, recipientId: 'a.b' })).toThrow(
      /not a NATS subject token/
    );
  });

  it('a relocated copy keeps its position (Hub-Pos) and tells where it is stored', () => {
    const subject = queueSubject('07', e);
    const h = toMsgHdrs(relocatedHeaders({ ...e, seq: 42 }));
    expect(recordOf(subject, 900, h)).toEqual({
      kind: 'entry',
      entry: { ...e, seq: 42 },
      stored: 900,
    });
    // A position after its own copy cannot be.
    expect(entryOf(subject, 41, h)).toBeUndefined();
  });

  it('done records list positions compactly and do not look like a queued message', () => {
    const positions = [1_000_007, 3, 1_000_000, 999_999_999_999];
    const enc = encodePositions(positions);
    expect(decodePositions(enc)).toEqual([...positions].sort((a, b) => a - b));
    expect(decodePositions('')).toEqual([]);
    expect(decodePositions('1,-2')).toBeUndefined();
    const subject = doneSubject('07');
    expect(subject).toBe('hubd.07.q._done');
    expect(recordOf(subject, 5, toMsgHdrs(doneHeaders([3, 1])))).toEqual({
      kind: 'done',
      positions: [1, 3],
    });
    expect(entryOf(subject, 5, toMsgHdrs(queueHeaders(e)))).toBeUndefined();
    // 4,096 consecutive positions fit in a few kilobytes of header.
    const many = Array.from({ length: 4096 }, (_, i) => 5_000_000 + i * 3);
    expect(doneHeaders(many)['Hub-Done']!.length).toBeLessThan(12_000);
  });
});
