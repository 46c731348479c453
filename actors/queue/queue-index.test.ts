import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import {
  QueueIndex,
  isExpired,
  type AdmitRequest,
  type QueueEntry,
  type QueueRecord,
} from './queue-index.js';

const T = 'tenant-1';
const DAY = 86_400_000;
let nextSeq = 1;

function entry(over: Partial<QueueEntry> = {}): QueueEntry {
  const seq = over.seq ?? nextSeq++;
  return {
    seq,
    tenantId: T,
    recipientId: 'agent-r',
    senderId: 'agent-s',
    taskId: `task-${seq}`,
    key: `agent-s:m${seq}`,
    enqueuedAt: 1_000,
    expiresAt: 1_000 + DAY,
    ...over,
  };
}

/** An entry as the replay reads its first stored copy. */
const rec = (entry: QueueEntry, stored = entry.seq): QueueRecord => ({
  kind: 'entry',
  entry,
  stored,
});

function req(e: QueueEntry, now = e.enqueuedAt): AdmitRequest {
  return {
    tenantId: e.tenantId,
    recipientId: e.recipientId,
    senderId: e.senderId,
    key: e.key,
    now,
  };
}

/** admit + add, as the owner does after the durable write. */
function enqueue(ix: QueueIndex, e: QueueEntry, max = 500): void {
  const got = ix.admit(req(e), { recipientMaxPending: max }).kind;
  if (got !== 'admitted') throw new Error(`expected admitted, got ${got}`);
  ix.add(e);
}

function refusal(fn: () => unknown): HubError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HubError) return err;
    throw err;
  }
  throw new Error('expected a HubError');
}

describe('QueueIndex limits', () => {
  it('refuses the recipient limit exactly at queue_max_pending, naming limit and count', () => {
    const ix = new QueueIndex();
    for (let i = 0; i < 3; i++) {
      enqueue(ix, entry({ senderId: `agent-s${i}`, key: `agent-s${i}:m` }), 3);
    }
    const err = refusal(() =>
      ix.admit(req(entry({ senderId: 'agent-x' })), { recipientMaxPending: 3 })
    );
    expect(err.code).toBe('QUEUE_FULL');
    expect(err.rpcCode).toBe(-32012);
    expect(err.data).toEqual({ limit: 'queue_max_pending', max: 3, pending: 3 });
    // The refusal left no trace: still 3, and one removal makes room for exactly one.
    expect(ix.pendingFor('agent-r')).toBe(3);
    ix.remove(ix.head('agent-r')!.seq);
    enqueue(ix, entry({ senderId: 'agent-y', key: 'agent-y:m' }), 3);
  });

  it('refuses the 51st pending message from one sender to one recipient', () => {
    const ix = new QueueIndex();
    for (let i = 0; i < 50; i++) enqueue(ix, entry());
    const err = refusal(() => ix.admit(req(entry()), { recipientMaxPending: 500 }));
    expect(err.code).toBe('SENDER_THROTTLED');
    expect(err.rpcCode).toBe(-32013);
    expect(err.data).toEqual({ limit: 'pending_per_sender_per_recipient', max: 50, pending: 50 });
    // Another sender, or the same sender to another recipient, is not throttled.
    enqueue(ix, entry({ senderId: 'agent-other', key: 'agent-other:1' }));
    enqueue(ix, entry({ recipientId: 'agent-r2' }));
  });

  it('refuses the tenant limit across recipients at 10,000 by default', () => {
    const ix = new QueueIndex();
    for (let r = 0; r < 20; r++) {
      for (let s = 0; s < 10; s++) {
        for (let i = 0; i < 50; i++) {
          enqueue(ix, entry({ recipientId: `agent-r${r}`, senderId: `agent-s${s}` }));
        }
      }
    }
    expect(ix.pendingForTenant(T)).toBe(10_000);
    const err = refusal(() =>
      ix.admit(req(entry({ recipientId: 'agent-new' })), { recipientMaxPending: 500 })
    );
    expect(err.code).toBe('TENANT_QUEUE_FULL');
    expect(err.rpcCode).toBe(-32014);
    expect(err.data).toEqual({ limit: 'pending_per_tenant', max: 10_000, pending: 10_000 });
    // Another tenant is unaffected.
    enqueue(ix, entry({ tenantId: 'tenant-2', recipientId: 'agent-new' }));
  });

  it('checks recipient, then sender, then tenant when several are exhausted', () => {
    const ix = new QueueIndex();
    for (let i = 0; i < 2; i++) enqueue(ix, entry(), 2);
    const limits = { recipientMaxPending: 2, senderMaxPending: 2, tenantMaxPending: 2 };
    expect(refusal(() => ix.admit(req(entry()), limits)).code).toBe('QUEUE_FULL');
    const limits2 = { ...limits, recipientMaxPending: 10 };
    expect(refusal(() => ix.admit(req(entry()), limits2)).code).toBe('SENDER_THROTTLED');
    const limits3 = { ...limits2, senderMaxPending: 10 };
    expect(refusal(() => ix.admit(req(entry()), limits3)).code).toBe('TENANT_QUEUE_FULL');
  });

  it('holds slots for in-flight writes so concurrent admits stay exact; release gives them back', () => {
    const ix = new QueueIndex();
    const a = entry();
    const b = entry();
    expect(ix.admit(req(a), { recipientMaxPending: 2 }).kind).toBe('admitted');
    expect(ix.admit(req(b), { recipientMaxPending: 2 }).kind).toBe('admitted');
    expect(refusal(() => ix.admit(req(entry()), { recipientMaxPending: 2 })).code).toBe(
      'QUEUE_FULL'
    );
    expect(ix.admit(req(a), { recipientMaxPending: 2 }).kind).toBe('in-flight');
    ix.add(a);
    ix.release(b.key); // b's write failed
    expect(ix.pendingFor('agent-r')).toBe(1);
    expect(ix.queuedFor('agent-r')).toBe(1);
    expect(ix.admit(req(entry()), { recipientMaxPending: 2 }).kind).toBe('admitted');
  });
});

describe('QueueIndex idempotency', () => {
  it('answers a repeated key within 2 minutes with the first entry, and admits it again after', () => {
    const ix = new QueueIndex();
    const e = entry({ enqueuedAt: 10_000 });
    enqueue(ix, e);
    const again = ix.admit(req(e, 10_000 + 119_999), { recipientMaxPending: 500 });
    expect(again).toEqual({ kind: 'duplicate', entry: e });
    expect(ix.size).toBe(1);
    // Even when the queue is full, a retry is answered, not refused.
    expect(ix.admit(req(e, 10_001), { recipientMaxPending: 1 }).kind).toBe('duplicate');
    // Delivered meanwhile: still the same task within the window.
    ix.remove(e.seq);
    expect(ix.admit(req(e, 10_002), { recipientMaxPending: 500 }).kind).toBe('duplicate');
    expect(ix.admit(req(e, 10_000 + 120_000), { recipientMaxPending: 500 }).kind).toBe('admitted');
  });
});

describe('QueueIndex FIFO, purge, expiry', () => {
  it('keeps each recipient in seq order, also when a lower seq arrives late', () => {
    const ix = new QueueIndex();
    for (const seq of [10, 12, 11, 15, 13]) ix.add(entry({ seq }));
    ix.add(entry({ seq: 14, recipientId: 'agent-other' }));
    expect(ix.entriesOf('agent-r').map((e) => e.seq)).toEqual([10, 11, 12, 13, 15]);
    const order: number[] = [];
    for (let h = ix.head('agent-r'); h; h = ix.head('agent-r')) order.push(ix.remove(h.seq)!.seq);
    expect(order).toEqual([10, 11, 12, 13, 15]);
    expect(ix.recipients()).toEqual(['agent-other']);
    expect(ix.remove(10)).toBeUndefined();
  });

  it("puts a message queued after its delivery attempt before its sender's later messages", () => {
    // #3 waited out an attempt (or its partition's move) while #4 and #5 of the same sender were
    // queued as they were accepted; another sender's message stays where it is.
    const ix = new QueueIndex();
    ix.add(entry({ seq: 1, senderId: 'agent-s', enqueuedAt: 100 }));
    ix.add(entry({ seq: 2, senderId: 'agent-s', enqueuedAt: 400 }));
    ix.add(entry({ seq: 3, senderId: 'agent-t', enqueuedAt: 450 }));
    ix.add(entry({ seq: 4, senderId: 'agent-s', enqueuedAt: 500 }));
    ix.add(entry({ seq: 5, senderId: 'agent-s', enqueuedAt: 600, acceptedAt: 300 }));
    ix.add(entry({ seq: 6, senderId: 'agent-t', enqueuedAt: 700, acceptedAt: 50 }));
    expect(ix.entriesOf('agent-r').map((e) => e.seq)).toEqual([1, 5, 2, 6, 3, 4]);
    // A replay of the log rebuilds the same order.
    const rebuilt = new QueueIndex();
    rebuilt.rebuild(
      [1, 2, 3, 4, 5, 6].map((seq) => ({
        kind: 'entry' as const,
        entry: ix.get(seq)!,
        stored: seq,
      }))
    );
    expect(rebuilt.entriesOf('agent-r').map((e) => e.seq)).toEqual([1, 5, 2, 6, 3, 4]);
  });

  it('purges every entry of a task and nothing else', () => {
    const ix = new QueueIndex();
    ix.add(entry({ seq: 1, taskId: 'task-a' }));
    ix.add(entry({ seq: 2, taskId: 'task-b' }));
    ix.add(entry({ seq: 3, taskId: 'task-a', recipientId: 'agent-r2' }));
    ix.add(entry({ seq: 4, taskId: 'task-a' }));
    expect(ix.purgeTask('task-a').map((e) => e.seq)).toEqual([1, 3, 4]);
    expect(ix.purgeTask('task-a')).toEqual([]);
    expect(ix.entriesOf('agent-r').map((e) => e.seq)).toEqual([2]);
    expect(ix.pendingFor('agent-r')).toBe(1);
    expect(ix.pendingFor('agent-r2')).toBe(0);
    expect(ix.pendingForTenant(T)).toBe(1);
  });

  it('lists entries whose expiresAt has come, and reports the oldest age', () => {
    const ix = new QueueIndex();
    ix.add(entry({ seq: 1, enqueuedAt: 100, expiresAt: 5_000 }));
    ix.add(entry({ seq: 2, enqueuedAt: 200, expiresAt: 4_000 }));
    ix.add(entry({ seq: 3, enqueuedAt: 300, expiresAt: 9_000 }));
    expect(ix.expired(3_999)).toEqual([]);
    expect(ix.expired(4_000).map((e) => e.seq)).toEqual([2]);
    expect(ix.expired(5_000).map((e) => e.seq)).toEqual([1, 2]);
    expect(isExpired(ix.head('agent-r')!, 5_000)).toBe(true);
    expect(ix.oldestAge('agent-r', 1_100)).toBe(1_000);
    expect(ix.oldestAge('agent-nobody', 1_100)).toBe(0);
  });

  it('rebuilds from a log replay in any order to the same index', () => {
    const live = new QueueIndex();
    const all: QueueEntry[] = [];
    for (let i = 1; i <= 60; i++) {
      const e = entry({
        seq: i,
        recipientId: `agent-r${i % 3}`,
        senderId: `agent-s${i % 4}`,
        taskId: `task-${i % 7}`,
        tenantId: `tenant-${i % 2}`,
      });
      all.push(e);
      live.add(e);
    }
    for (const seq of [5, 17, 33]) live.remove(seq);
    const rebuilt = new QueueIndex();
    // Copies in any order; the done record after them, as in the log.
    rebuilt.rebuild([...all.map(rec).reverse(), { kind: 'done', positions: [5, 17, 33] }]);
    expect(snapshot(rebuilt)).toEqual(snapshot(live));
  });
});

/** Everything observable, for comparisons. */
function snapshot(ix: QueueIndex) {
  const recipients = ix.recipients().sort();
  return {
    size: ix.size,
    fifos: recipients.map((r) => [r, ix.entriesOf(r).map((e) => e.seq), ix.pendingFor(r)]),
    tenants: [...ix.tenantCounts()].sort(),
  };
}

describe('QueueIndex against a naive model (seeded random operations)', () => {
  it('agrees on every operation for 20,000 steps', () => {
    let state = 0x2545f491;
    const rand = (n: number) => {
      // xorshift32: deterministic across runs.
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % n;
    };
    const limits = { recipientMaxPending: 12, senderMaxPending: 5, tenantMaxPending: 30 };
    const ix = new QueueIndex({ dedupeWindowMs: 50 });
    let model: QueueEntry[] = [];
    const inflight: QueueEntry[] = [];
    const keySeen = new Map<string, QueueEntry>();
    let seq = 0;
    let now = 0;
    const count = (p: (e: QueueEntry) => boolean) =>
      model.filter(p).length + inflight.filter(p).length;

    for (let step = 0; step < 20_000; step++) {
      now += rand(3);
      const op = rand(10);
      if (op < 5) {
        const e: QueueEntry = {
          seq: ++seq,
          tenantId: `t${rand(2)}`,
          recipientId: `r${rand(4)}`,
          senderId: `s${rand(3)}`,
          taskId: `k${rand(40)}`,
          key: `m${rand(400)}`,
          enqueuedAt: now,
          expiresAt: now + rand(200),
        };
        const seen = keySeen.get(e.key);
        let expected: string;
        if (seen && now - seen.enqueuedAt < 50) expected = 'duplicate';
        else if (inflight.some((x) => x.key === e.key)) expected = 'in-flight';
        else if (count((x) => x.recipientId === e.recipientId) >= 12) expected = 'QUEUE_FULL';
        else if (count((x) => x.recipientId === e.recipientId && x.senderId === e.senderId) >= 5)
          expected = 'SENDER_THROTTLED';
        else if (count((x) => x.tenantId === e.tenantId) >= 30) expected = 'TENANT_QUEUE_FULL';
        else expected = 'admitted';
        let got: string;
        try {
          got = ix.admit(req(e, now), limits).kind;
        } catch (err) {
          got = (err as HubError).code;
        }
        expect(got, `step ${step}`).toBe(expected);
        if (got === 'admitted') inflight.push(e);
      } else if (op < 6 && inflight.length > 0) {
        // A durable write completes (or, one time in four, fails).
        const e = inflight.splice(rand(inflight.length), 1)[0]!;
        if (rand(4) === 0) ix.release(e.key);
        else {
          ix.add(e);
          model.push(e);
          keySeen.set(e.key, e);
        }
      } else if (op < 8) {
        const r = `r${rand(4)}`;
        const head = model.filter((e) => e.recipientId === r).sort((a, b) => a.seq - b.seq)[0];
        expect(ix.head(r)).toEqual(head);
        if (head) {
          expect(ix.remove(head.seq)).toEqual(head);
          model = model.filter((e) => e !== head);
        }
      } else if (op < 9) {
        const task = `k${rand(40)}`;
        const gone = model.filter((e) => e.taskId === task).sort((a, b) => a.seq - b.seq);
        expect(ix.purgeTask(task)).toEqual(gone);
        model = model.filter((e) => e.taskId !== task);
      } else {
        const exp = model.filter((e) => e.expiresAt <= now).sort((a, b) => a.seq - b.seq);
        expect(ix.expired(now)).toEqual(exp);
        for (const e of exp) ix.remove(e.seq);
        model = model.filter((e) => e.expiresAt > now);
      }
      if (step % 500 === 0) {
        for (const r of ['r0', 'r1', 'r2', 'r3']) {
          expect(ix.queuedFor(r)).toBe(model.filter((e) => e.recipientId === r).length);
        }
        expect(ix.size).toBe(model.length);
      }
    }
    // A rebuild from the surviving entries gives the same queues (in-flight slots aside).
    for (const e of inflight) ix.release(e.key);
    const rebuilt = new QueueIndex();
    rebuilt.rebuild(model.map(rec));
    expect(snapshot(rebuilt)).toEqual(snapshot(ix));
  });
});

describe('QueueIndex: done records and relocated copies', () => {
  const mk = (seq: number, over: Partial<QueueEntry> = {}) =>
    entry({ seq, key: `agent-s:d${seq}`, taskId: `task-d${seq}`, ...over });

  it('a position listed in a done record is not pending after a rebuild', () => {
    const ix = new QueueIndex();
    ix.rebuild([
      rec(mk(1)),
      rec(mk(2)),
      rec(mk(3)),
      { kind: 'done', positions: [1, 3] },
      rec(mk(4)),
    ]);
    expect(ix.entriesOf('agent-r').map((e) => e.seq)).toEqual([2, 4]);
    expect(ix.pendingFor('agent-r')).toBe(2);
    expect(ix.pendingFromSender('agent-s', 'agent-r')).toBe(2);
    expect(ix.pendingForTenant(T)).toBe(2);
    // Its key is gone with it: a done message does not answer as a duplicate after a takeover.
    expect(ix.admit(req(mk(1)), { recipientMaxPending: 10 }).kind).toBe('admitted');
  });

  it('orders by position, not by where a copy is stored', () => {
    const ix = new QueueIndex();
    // 1 and 2 were relocated past 3 and 4 (stored at 10 and 11, Hub-Pos 1 and 2).
    ix.rebuild([rec(mk(3)), rec(mk(4)), rec(mk(1), 10), rec(mk(2), 11)]);
    expect(ix.entriesOf('agent-r').map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(ix.head('agent-r')?.seq).toBe(1);
    expect(ix.storedAt(1)).toBe(10);
    expect(ix.storedAt(3)).toBe(3);
  });

  it('dedupes copies of one position, keeping the highest stored sequence', () => {
    const ix = new QueueIndex();
    // A compaction relocated 1 and 2 and then failed before its purge: both copies remain.
    ix.rebuild([rec(mk(1)), rec(mk(2)), rec(mk(1), 7), rec(mk(2), 8), rec(mk(2), 9)]);
    expect(ix.size).toBe(2);
    expect(ix.pendingFor('agent-r')).toBe(2);
    expect(ix.storedAt(1)).toBe(7);
    expect(ix.storedAt(2)).toBe(9);
    // A done record removes every copy of a position.
    ix.rebuild([rec(mk(1)), rec(mk(1), 7), { kind: 'done', positions: [1] }]);
    expect(ix.size).toBe(0);
  });

  it('storedBelow lists what a compaction must relocate, in position order', () => {
    const ix = new QueueIndex();
    for (const s of [2, 5, 9]) ix.add(mk(s, { recipientId: s === 5 ? 'agent-x' : 'agent-r' }));
    expect(ix.storedBelow(6).map((e) => e.seq)).toEqual([2, 5]);
    ix.relocated(2, 20);
    ix.relocated(2, 15); // an older copy never wins
    expect(ix.storedAt(2)).toBe(20);
    expect(ix.storedBelow(6).map((e) => e.seq)).toEqual([5]);
    // The FIFO is unchanged by the relocation.
    expect(ix.entriesOf('agent-r').map((e) => e.seq)).toEqual([2, 9]);
  });

  it('a new message after relocated ones queues behind them (its position is its own sequence)', () => {
    const ix = new QueueIndex();
    ix.rebuild([rec(mk(1), 50), rec(mk(2), 51)]);
    const e = mk(52);
    expect(ix.admit(req(e), { recipientMaxPending: 10 }).kind).toBe('admitted');
    ix.add(e);
    expect(ix.entriesOf('agent-r').map((x) => x.seq)).toEqual([1, 2, 52]);
  });
});
