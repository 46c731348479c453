import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { taskMachine } from './task.machine.js';
import type { TaskInput } from './task.events.js';

const A = 'agent-a'; // sender
const B = 'agent-b'; // recipient
const input: TaskInput = {
  id: 'task-1',
  contextId: 'ctx-1',
  senderId: A,
  recipientId: B,
  senderTenantId: 't1',
  recipientTenantId: 't2',
  message: { role: 'user', messageId: 'm1', parts: [{ kind: 'text', text: 'hi' }] },
  at: 1000,
};
const text = (t: string) => [{ kind: 'text' as const, text: t }];

function start() {
  return createActor(taskMachine, { input }).start();
}

describe('task machine', () => {
  it('has a stable definition (a changed graph shows up as a snapshot diff)', () => {
    expect(JSON.parse(JSON.stringify(taskMachine.toJSON()))).toMatchSnapshot();
  });

  it('starts submitted with the first message, the caller time and event rev 1', () => {
    const s = start().getSnapshot();
    expect(s.value).toBe('submitted');
    expect(s.context.status).toEqual({ state: 'submitted', timestamp: 1000 });
    expect(s.context.messages).toHaveLength(1);
    expect(s.context.events).toEqual([{ rev: 1, type: 'status', status: s.context.status }]);
  });

  it('goes submitted → working → completed, numbering every change', () => {
    const a = start();
    a.send({ type: 'task.start', at: 1100 });
    expect(a.getSnapshot().value).toBe('working');
    a.send({
      type: 'task.respond',
      at: 1200,
      by: B,
      state: 'completed',
      message: { role: 'agent', messageId: 'm2', parts: text('done') },
      artifact: { artifactId: 'a1', parts: text('out') },
    });
    const s = a.getSnapshot();
    expect(s.value).toBe('completed');
    expect(s.status).toBe('done');
    expect(s.context.status).toEqual({ state: 'completed', timestamp: 1200 });
    expect(s.context.artifacts).toEqual([{ artifactId: 'a1', parts: text('out') }]);
    expect(s.context.events.map((e) => [e.rev, e.type])).toEqual([
      [1, 'status'],
      [2, 'status'],
      [3, 'message'],
      [4, 'artifact'],
      [5, 'status'],
    ]);
    expect(s.context.rev).toBe(5);
  });

  it('appends artifact chunks with the same id until the last chunk', () => {
    const a = start();
    a.send({ type: 'task.start', at: 1 });
    a.send({
      type: 'task.respond',
      at: 2,
      by: B,
      state: 'working',
      artifact: { artifactId: 'x', parts: text('a') },
      lastChunk: false,
    });
    a.send({
      type: 'task.respond',
      at: 3,
      by: B,
      state: 'completed',
      artifact: { artifactId: 'x', parts: text('b') },
      lastChunk: true,
    });
    const s = a.getSnapshot().context;
    expect(s.artifacts).toEqual([{ artifactId: 'x', parts: [...text('a'), ...text('b')] }]);
    const chunks = s.events.filter((e) => e.type === 'artifact');
    expect(chunks).toMatchObject([
      { append: false, lastChunk: false },
      { append: true, lastChunk: true },
    ]);
  });

  it('ignores replies from anyone but the recipient, and input or cancel from anyone but the sender', () => {
    const a = start();
    a.send({ type: 'task.start', at: 1 });
    a.send({ type: 'task.respond', at: 2, by: 'agent-evil', state: 'completed' });
    expect(a.getSnapshot().value).toBe('working');
    a.send({ type: 'task.cancel', at: 3, by: B });
    expect(a.getSnapshot().value).toBe('working');
    a.send({
      type: 'task.respond',
      at: 4,
      by: B,
      state: 'input-required',
      statusText: 'which city?',
    });
    a.send({
      type: 'task.input',
      at: 5,
      by: B,
      message: { role: 'user', messageId: 'm3', parts: text('x') },
    });
    expect(a.getSnapshot().value).toBe('input-required');
  });

  it('asks for input and goes back to working on a continuation from the sender', () => {
    const a = start();
    a.send({ type: 'task.start', at: 1 });
    a.send({
      type: 'task.respond',
      at: 2,
      by: B,
      state: 'input-required',
      statusText: 'which city?',
    });
    expect(a.getSnapshot().value).toBe('input-required');
    expect(a.getSnapshot().context.status.message).toBe('which city?');
    a.send({
      type: 'task.input',
      at: 3,
      by: A,
      message: { role: 'user', messageId: 'm3', parts: text('Oslo') },
    });
    expect(a.getSnapshot().value).toBe('working');
    expect(a.getSnapshot().context.messages).toHaveLength(2);
  });

  it('cancels from every non-terminal state and then ignores replies', () => {
    for (const prep of [[], ['start'], ['start', 'ask']] as const) {
      const a = start();
      for (const step of prep) {
        if (step === 'start') a.send({ type: 'task.start', at: 1 });
        else a.send({ type: 'task.respond', at: 2, by: B, state: 'input-required' });
      }
      a.send({ type: 'task.cancel', at: 5, by: A });
      expect(a.getSnapshot().value).toBe('canceled');
    }
  });

  it('expires only while submitted, with a reason in the status', () => {
    const queued = start();
    queued.send({ type: 'task.expire', at: 9 });
    expect(queued.getSnapshot().value).toBe('failed');
    expect(queued.getSnapshot().context.status.message).toMatch(/expired/);
    const delivered = start();
    delivered.send({ type: 'task.start', at: 1 });
    delivered.send({ type: 'task.expire', at: 9 });
    expect(delivered.getSnapshot().value).toBe('working');
  });

  it('rejects and fails with the reason in the status', () => {
    const a = start();
    a.send({ type: 'task.respond', at: 2, by: B, state: 'rejected', statusText: 'not for me' });
    expect(a.getSnapshot().value).toBe('rejected');
    const b = start();
    b.send({ type: 'task.fail', at: 2, error: 'no WebSocket connection or HTTP endpoint' });
    expect(b.getSnapshot().context.status).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/WebSocket/),
    });
  });

  it('survives a persist/restore round trip (context is plain JSON)', () => {
    const a = start();
    a.send({ type: 'task.start', at: 1 });
    const persisted = JSON.parse(JSON.stringify(a.getPersistedSnapshot()));
    const b = createActor(taskMachine, { snapshot: persisted, input }).start();
    expect(b.getSnapshot().value).toBe('working');
    expect(b.getSnapshot().context).toEqual(a.getSnapshot().context);
    b.send({ type: 'task.respond', at: 2, by: B, state: 'completed' });
    expect(b.getSnapshot().value).toBe('completed');
  });

  describe('delivery bookkeeping (Task.delivery, never an observable change)', () => {
    it('a direct task starts pending, a queue-created one queued; delivery clears it', () => {
      expect(start().getSnapshot().context.delivery).toBe('pending');
      const q = createActor(taskMachine, { input: { ...input, queued: true } }).start();
      expect(q.getSnapshot().context.delivery).toBe('queued');
      const a = start();
      a.send({ type: 'task.start', at: 2, node: 'n1' });
      const c = a.getSnapshot().context;
      expect(c.delivery).toBeUndefined();
      expect(c.deliveredVia).toBe('n1');
    });

    it('task.queued marks a pending message queued without a new rev; ignored once delivered', () => {
      const a = start();
      a.send({ type: 'task.queued', at: 2 });
      expect(a.getSnapshot().context).toMatchObject({ delivery: 'queued', rev: 1 });
      a.send({ type: 'task.start', at: 3 });
      const before = a.getSnapshot();
      a.send({ type: 'task.queued', at: 4 });
      expect(a.getSnapshot()).toBe(before);
    });

    it('an answer clears deliveredVia, so a lost node no longer re-delivers', () => {
      const a = start();
      a.send({ type: 'task.start', at: 2, node: 'n1' });
      a.send({ type: 'task.respond', at: 3, by: B, state: 'working', statusText: 'on it' });
      expect(a.getSnapshot().context.deliveredVia).toBeUndefined();
      const before = a.getSnapshot();
      a.send({ type: 'task.redeliver', at: 4 });
      expect(a.getSnapshot()).toBe(before);
    });

    it('task.redeliver makes an unanswered push pending again; the next start clears it', () => {
      const a = start();
      a.send({ type: 'task.start', at: 2, node: 'n1' });
      a.send({ type: 'task.redeliver', at: 3 });
      expect(a.getSnapshot().context).toMatchObject({ delivery: 'pending', rev: 2 });
      expect(a.getSnapshot().context.deliveredVia).toBeUndefined();
      a.send({ type: 'task.start', at: 4, node: 'n2' });
      expect(a.getSnapshot().value).toBe('working');
      expect(a.getSnapshot().context).toMatchObject({ deliveredVia: 'n2', rev: 2 });
      expect(a.getSnapshot().context.delivery).toBeUndefined();
    });

    it('task.received from the recipient marks the push acknowledged, once; a redelivery clears it', () => {
      const a = start();
      // The acknowledgement may overtake the owner's own task.start.
      a.send({ type: 'task.received', at: 2, by: B });
      expect(a.getSnapshot().context).toMatchObject({ received: true, rev: 1 });
      a.send({ type: 'task.start', at: 3, node: 'n1' });
      expect(a.getSnapshot().context).toMatchObject({ received: true, deliveredVia: 'n1' });
      const before = a.getSnapshot();
      a.send({ type: 'task.received', at: 4, by: B });
      a.send({ type: 'task.received', at: 4, by: A });
      expect(a.getSnapshot()).toBe(before);
      a.send({ type: 'task.redeliver', at: 5 });
      expect(a.getSnapshot().context.received).toBeUndefined();
    });

    it('task.calling marks an HTTP call under way until the message is answered, queued or delivered', () => {
      const a = start();
      a.send({ type: 'task.calling', at: 2, node: 'n1', until: 40_000 });
      expect(a.getSnapshot().value).toBe('submitted');
      // Bookkeeping only: no observable change, no rev, the status keeps its time.
      expect(a.getSnapshot().context).toMatchObject({
        calling: { node: 'n1', until: 40_000 },
        delivery: 'pending',
        rev: 1,
        status: { state: 'submitted', timestamp: 1000 },
      });
      a.send({ type: 'task.respond', at: 3, by: B, state: 'completed', message: undefined });
      expect(a.getSnapshot().context.calling).toBeUndefined();

      const q = start();
      q.send({ type: 'task.calling', at: 2, node: 'n1', until: 40_000 });
      q.send({ type: 'task.queued', at: 3 });
      expect(q.getSnapshot().context.calling).toBeUndefined();
      // Once delivered, a late marker changes nothing.
      q.send({ type: 'task.start', at: 4 });
      const before = q.getSnapshot();
      q.send({ type: 'task.calling', at: 5, node: 'n2', until: 40_000 });
      expect(q.getSnapshot()).toBe(before);
    });

    it('task.received from anyone but the recipient changes nothing', () => {
      const a = start();
      a.send({ type: 'task.start', at: 2, node: 'n1' });
      const before = a.getSnapshot();
      a.send({ type: 'task.received', at: 3, by: A });
      expect(a.getSnapshot()).toBe(before);
    });

    it("a continuation's input is pending until delivered", () => {
      const a = start();
      a.send({ type: 'task.start', at: 2 });
      a.send({ type: 'task.respond', at: 3, by: B, state: 'input-required', statusText: 'which?' });
      expect(a.getSnapshot().context.delivery).toBeUndefined();
      a.send({
        type: 'task.input',
        at: 4,
        by: A,
        message: { role: 'user', messageId: 'm2', parts: text('this one') },
      });
      expect(a.getSnapshot().value).toBe('working');
      expect(a.getSnapshot().context.delivery).toBe('pending');
      a.send({ type: 'task.start', at: 5 });
      expect(a.getSnapshot().context.delivery).toBeUndefined();
    });
  });
});
