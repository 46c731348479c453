// An HTTP agent is called once per message when the task's partition moves to another node while
// the call is under way (issue 32, "HTTP tasks delivered twice after a pause"; docs/OPERATIONS.md
// "Partitions and pauses"). The old owner stores which node calls and until when (Task.calling)
// before it calls; the new owner, restoring the task still `pending`, waits for that call's
// answer (written to it, routed) instead of calling the agent again. Before, the new owner called
// at once when the task was older than its 3 s handover grace, and the agent saw the message
// twice. Here a second node joins while the agent holds every request open, so part of the
// partitions move gracefully mid-call; the requests are answered only once the move is done.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrashRig, type CrashRig } from '../support/crash-rig.js';
import { ownedPartitions, sendText, taskState, waitFor } from '../support/queue-helpers.js';
import { createAgent, createTenant } from '../../infra/db/index.js';
import { taskPartition, taskPartitionForSender } from '../../actors/task/ids.js';

const PARTITIONS = 4;
/** Senders: at least this many, and one in every partition (a task lives in its sender's). */
const SENDERS = 8;

let rig: CrashRig;

interface Received {
  taskId: string;
  messageId: string;
  text: string;
  at: number;
}
const received: Received[] = [];
/** Requests held open until the test lets them go. */
const held: Array<() => void> = [];
let holdRequests = true;

function onRequest(body: unknown, res: ServerResponse): void {
  const rpc = body as {
    id: unknown;
    params: {
      message: { messageId: string; taskId?: string; parts: Array<{ text?: string }> };
      metadata?: { 'x-hub'?: { taskId?: string } };
    };
  };
  const m = rpc.params.message;
  const taskId = rpc.params.metadata?.['x-hub']?.taskId ?? m.taskId ?? '';
  const text = m.parts[0]?.text ?? '';
  received.push({ taskId, messageId: m.messageId, text, at: Date.now() });
  const answer = () => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: `done: ${text}` }));
  };
  if (holdRequests) held.push(answer);
  else answer();
}

beforeAll(async () => {
  rig = await startCrashRig({ name: 'http-handover', partitions: PARTITIONS, agent: onRequest });
}, 60_000);

afterAll(async () => {
  await rig?.close();
}, 60_000);

describe('an HTTP call under way while its task partition moves', () => {
  it('is answered through the new owner; the agent is not called a second time', async () => {
    const a = await rig.startNode('handover-a');
    const t = await createTenant(rig.sql, { name: 'HTTP Handover' });
    const http = await createAgent(rig.sql, {
      tenantId: t.id,
      name: 'held http',
      url: rig.agentUrl,
    });
    // Whichever partitions the second node takes, each holds a task whose call is under way.
    const senders: Array<{ apiKey: string }> = [];
    const covered = new Set<number>();
    while (senders.length < SENDERS || covered.size < PARTITIONS) {
      const s = await createAgent(rig.sql, { tenantId: t.id, name: `sender ${senders.length}` });
      senders.push(s);
      covered.add(taskPartitionForSender(s.agent.id, PARTITIONS));
      if (senders.length > 64) throw new Error('senders do not cover every partition');
    }
    const tasks: Array<{ id: string; senderKey: string }> = [];
    for (const [i, s] of senders.entries()) {
      const sent = await sendText(a.url, s.apiKey, http.agent.id, `m${i}`);
      expect(sent.error).toBeUndefined();
      tasks.push({ id: sent.result!.id, senderKey: s.apiKey });
    }
    await waitFor(
      'every message called, held open',
      () => received.length === senders.length,
      15_000
    );

    // A second node joins: the partitions it takes move while their calls are under way on `a`.
    const b = await rig.startNode('handover-b', [a]);
    let moved = new Set<number>();
    await waitFor('the second node to name its partitions', async () => {
      moved = new Set(await ownedPartitions(b.url));
      return moved.size > 0;
    });
    const movedTasks = tasks.filter((x) => moved.has(taskPartition(x.id, PARTITIONS)!));
    expect(movedTasks.length, 'tasks whose partition moved mid-call').toBeGreaterThan(0);
    // Past the new owner's handover grace (3 s from the task's last change, long gone) and its
    // restore: before the fix it had called the agent again by now.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(received.length, 'calls while the first ones are held').toBe(senders.length);

    holdRequests = false;
    for (const answer of held.splice(0)) answer();
    for (const x of tasks) {
      await waitFor(
        `task ${x.id} to complete`,
        async () => (await taskState(b.url, x.senderKey, x.id)) === 'completed',
        20_000
      );
    }
    // Late second calls would show here (the call's deadline is 30 s; none is due).
    await new Promise((r) => setTimeout(r, 1_000));
    const perMessage = new Map<string, number>();
    for (const r of received) perMessage.set(r.messageId, (perMessage.get(r.messageId) ?? 0) + 1);
    expect([...perMessage.values()].filter((n) => n > 1)).toEqual([]);
    expect(received).toHaveLength(senders.length);
  });
});
