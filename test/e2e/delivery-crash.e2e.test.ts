// An acknowledged message whose delivery was under way when the hub died is delivered after the
// restart (docs/ARCHITECTURE.md "Messaging": the task's owner delivers what its task still holds
// as `pending`, also after a crash or a partition move). The recipient is an HTTP agent that
// holds the first request open, so the hub is killed at a known point: the message acknowledged
// and durable, its delivery started, no answer yet. Before owner-side delivery such a task stayed
// `submitted` for ever.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrashRig, type CrashRig } from '../support/crash-rig.js';
import { sendText, taskState, waitFor } from '../support/queue-helpers.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

let rig: CrashRig;

interface Received {
  taskId: string;
  messageId: string;
  text: string;
  res: ServerResponse;
}
const received: Received[] = [];
/** How the HTTP agent treats each request: hold it open (the hub dies waiting) or answer. */
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
  received.push({ taskId, messageId: m.messageId, text: m.parts[0]?.text ?? '', res });
  if (holdRequests) return; // never answered: the hub is killed while it waits
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: `done: ${m.parts[0]?.text}` }));
}

beforeAll(async () => {
  // The first call is marked as under way until its deadline (the timeout + 5 s, Task.calling):
  // the new owner calls again only then, so a short timeout keeps the test short.
  rig = await startCrashRig({
    name: 'delivery-crash',
    partitions: 4,
    agent: onRequest,
    env: { HTTP_AGENT_TIMEOUT_MS: '8000' },
  });
}, 60_000);

afterAll(async () => {
  await rig?.close();
}, 60_000);

describe('delivery across kill -9 of the hub', () => {
  it('delivers an acknowledged message again after a crash mid-delivery, once more and the same task', async () => {
    const first = await rig.startNode('deliver-a');
    const t = await createTenant(rig.sql, { name: 'Delivery Crash' });
    const sender = await createAgent(rig.sql, { tenantId: t.id, name: 'sender' });
    const http = await createAgent(rig.sql, {
      tenantId: t.id,
      name: 'slow http',
      url: rig.agentUrl,
    });

    const sent = await sendText(first.url, sender.apiKey, http.agent.id, 'survive me');
    expect(sent.error).toBeUndefined();
    expect(sent.result?.status.state).toBe('submitted');
    const taskId = sent.result!.id;
    await waitFor('the first delivery attempt', () => received.length === 1);

    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    holdRequests = false;

    // A different node takes the partitions over: it finds the task still pending and delivers,
    // once the dead node's call is past its deadline (13 s after it began).
    const second = await rig.startNode('deliver-b');
    await waitFor('the delivery by the new owner', () => received.length >= 2, 30_000);
    await waitFor(
      'the task to complete',
      async () => (await taskState(second.url, sender.apiKey, taskId)) === 'completed',
      15_000
    );
    expect(received.map((r) => [r.taskId, r.text])).toEqual([
      [taskId, 'survive me'],
      [taskId, 'survive me'],
    ]);
    // The same message: an agent that saw it before can tell by its messageId.
    expect(received[1]!.messageId).toBe(received[0]!.messageId);
    // A fence for "no third delivery": one more message from the same sender, awaited at the
    // agent. A copy of the first still in the recipient's queue would come before it (a message
    // that finds a backlog queues behind it), and the first's task is already completed.
    const fence = await sendText(second.url, sender.apiKey, http.agent.id, 'fence');
    expect(fence.error).toBeUndefined();
    await waitFor('the fence message', () => received.some((r) => r.text === 'fence'));
    expect(received.map((r) => r.text)).toEqual(['survive me', 'survive me', 'fence']);
  });
});
