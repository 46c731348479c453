import { describe, expect, it } from 'vitest';
import { entryOf, queueHeaders, queueSubject, toMsgHdrs, type NewEntry } from './queue-records.js';

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
});
