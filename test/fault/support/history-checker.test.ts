// The checker must catch each kind of bad history (and pass a good one): a checker that cannot
// fail would make every fault run green.
import { describe, expect, it } from 'vitest';
import { checkHistory, formatViolations } from './history-checker.js';
import type { DeliveryOp, Op, RateOp, SendOp, TaskReadOp } from './history.js';

const send = (seq: number, at: number, o: Partial<SendOp> = {}): SendOp => ({
  kind: 'send',
  start: at,
  end: at + 5,
  messageId: `m${seq}`,
  sender: 'alice',
  recipient: 'bob',
  seq,
  outcome: 'ack',
  taskId: `t${seq}`,
  via: 'h1',
  ...o,
});
const deliver = (seq: number, at: number, o: Partial<DeliveryOp> = {}): DeliveryOp => ({
  kind: 'deliver',
  at,
  recipient: 'bob',
  messageId: `m${seq}`,
  taskId: `t${seq}`,
  from: 'alice',
  via: 'h1',
  ...o,
});
const read = (taskId: string, start: number, end: number, state: string): TaskReadOp => ({
  kind: 'task',
  start,
  end,
  taskId,
  state,
  via: 'h1',
});
const rate = (at: number, admitted: boolean, windowEnd = 60): RateOp => ({
  kind: 'rate',
  at,
  key: 'alice',
  windowEnd,
  limit: 3,
  admitted,
});

/** Three messages sent, acknowledged, delivered in order, their tasks read as they progress. */
const good = (): Op[] => [
  send(1, 0),
  send(2, 10),
  send(3, 20),
  deliver(1, 12),
  deliver(2, 15),
  deliver(3, 30),
  read('t1', 40, 45, 'submitted'),
  read('t1', 50, 55, 'working'),
  read('t1', 60, 65, 'completed'),
  read('t1', 70, 75, 'completed'),
  rate(1, true),
  rate(2, true),
  rate(3, true),
  rate(4, false),
  rate(5, true, 120),
];

const checks = (ops: Op[], o = {}) => checkHistory(ops, o).map((v) => v.check);

describe('history checker', () => {
  it('passes a good history', () => {
    expect(checkHistory(good())).toEqual([]);
    expect(checkHistory(good(), { allowRedelivery: false })).toEqual([]);
  });

  it('passes overlapping task reads that answer out of order', () => {
    // The second read was sent before the first answered: either order is possible.
    const ops = [read('t1', 0, 50, 'completed'), read('t1', 10, 60, 'working')];
    expect(checkHistory(ops)).toEqual([]);
  });

  it('passes a retried send answered with the same task, and an unacknowledged send never delivered', () => {
    const ops = [
      send(1, 0, { outcome: 'error', taskId: undefined, detail: 'timeout' }),
      send(1, 100),
      send(2, 200, { outcome: 'error', taskId: undefined }),
      deliver(1, 300),
    ];
    expect(checkHistory(ops)).toEqual([]);
  });

  it('catches an acknowledged message never delivered, with its send as the evidence', () => {
    const ops = good().filter((o) => !(o.kind === 'deliver' && o.messageId === 'm2'));
    const v = checkHistory(ops);
    expect(v.map((x) => x.check)).toEqual(['lost']);
    expect(v[0]!.evidence).toEqual([send(2, 10)]);
    expect(formatViolations(v, 0)).toMatch(/lost: m2 acknowledged as task t2 but never delivered/);
  });

  it('catches a messageId acknowledged as two tasks', () => {
    expect(checks([...good(), send(1, 80, { taskId: 't1b' })])).toContain('ids');
  });

  it('catches a delivery with another task id, another sender, or another recipient', () => {
    expect(checks([...good(), deliver(1, 90, { taskId: 'tX' })])).toContain('ids');
    expect(checks([...good(), deliver(1, 90, { from: 'mallory' })])).toContain('ids');
    expect(checks([...good(), deliver(1, 90, { recipient: 'carol' })])).toContain('ids');
  });

  it('catches a delivery of a message nobody sent', () => {
    expect(checks([...good(), deliver(9, 90)])).toEqual(['ids']);
  });

  it('catches a reorder per sender → recipient, with both sends and both deliveries', () => {
    const ops: Op[] = [send(1, 0), send(2, 10), deliver(2, 20), deliver(1, 25)];
    const v = checkHistory(ops);
    expect(v.map((x) => x.check)).toEqual(['order']);
    expect(v[0]!.evidence).toHaveLength(4);
    expect(v[0]!.message).toBe('alice>bob: #1 delivered after #2');
  });

  it('orders by arrival time, not by the order records were appended', () => {
    expect(checks([send(1, 0), send(2, 10), deliver(1, 25), deliver(2, 20)])).toEqual(['order']);
  });

  it('does not take a redelivery of an earlier message for a reorder', () => {
    const ops: Op[] = [send(1, 0), send(2, 10), deliver(1, 12), deliver(2, 20), deliver(1, 30)];
    expect(checkHistory(ops)).toEqual([]);
    expect(checks(ops, { allowRedelivery: false })).toEqual(['redelivered']);
  });

  it('leaves out the checks it is told to skip, and only those', () => {
    const ops: Op[] = [send(1, 0), send(2, 10), deliver(2, 20), deliver(1, 25), send(3, 30)];
    expect(checks(ops, { skip: ['order'] })).toEqual(['lost']);
  });

  it('catches a task going back, judged only against reads that had answered', () => {
    const ops = [read('t1', 0, 5, 'completed'), read('t1', 10, 15, 'working')];
    const v = checkHistory(ops);
    expect(v.map((x) => x.check)).toEqual(['task-states']);
    expect(v[0]!.message).toBe('task t1 went back from completed to working');
    expect(checks([read('t1', 0, 5, 'working'), read('t1', 10, 15, 'submitted')])).toEqual([
      'task-states',
    ]);
  });

  it('catches a task with two terminal states, even in overlapping reads', () => {
    const ops = [read('t1', 0, 50, 'completed'), read('t1', 10, 60, 'failed')];
    expect(checks(ops)).toEqual(['task-states']);
  });

  it('catches a window that admitted more than the limit, with limit + 1 admissions as evidence', () => {
    const ops = [...good(), rate(6, true)];
    const v = checkHistory(ops);
    expect(v.map((x) => x.check)).toEqual(['rate']);
    expect(v[0]!.evidence).toHaveLength(4);
    // Refusals and other windows do not count.
    expect(checks([...good(), rate(6, false), rate(7, true, 180)])).toEqual([]);
  });

  it('prints each violation with its evidence, times relative to the origin', () => {
    const out = formatViolations(checkHistory([send(1, 1000)]), 1000);
    expect(out).toContain('✗ lost');
    expect(out).toContain('[0.000s–0.005s] send m1 alice→bob #1 via h1: ack task t1');
  });
});
