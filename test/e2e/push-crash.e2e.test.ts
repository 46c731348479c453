// Push notifications survive kill -9 of the hub (issue 27): a config acknowledged to an
// @a2a-js/sdk client, and the task updates acknowledged with it, reach the receiver after the hub
// that held them died, in order and each once at least. The receiver refuses while the first
// hub lives, so every push is still owed when it is killed; a fresh node pushes them.
import {
  ClientFactory as V1ClientFactory,
  DefaultAgentCardResolver as V1CardResolver,
  JsonRpcTransportFactory as V1JsonRpc,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrashRig, type CrashRig } from '../support/crash-rig.js';
import {
  startPushReceiver,
  verifyPushSignature,
  type PushReceiver,
} from '../support/push-receiver.js';
import { waitFor } from '../support/queue-helpers.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const PUBLIC_URL = 'http://hub.example.test';

let rig: CrashRig;
let receiver: PushReceiver;

beforeAll(async () => {
  rig = await startCrashRig({
    name: 'push-crash',
    partitions: 4,
    env: { PUBLIC_URL },
    // An HTTP agent answering every message with a string: a completed task with one artifact.
    agent: (rpc, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: (rpc as { id: unknown }).id, result: 'done' }));
    },
  });
  receiver = await startPushReceiver();
}, 60_000);

afterAll(async () => {
  await rig?.close();
  await receiver?.close();
}, 60_000);

describe('push notifications across kill -9 of the hub', () => {
  it('pushes every acknowledged update, in order, from the node that comes after', async () => {
    const first = await rig.startNode('push-a');
    const t = await createTenant(rig.sql, { name: 'Push Crash' });
    const caller = await createAgent(rig.sql, { tenantId: t.id, name: 'caller' });
    const http = await createAgent(rig.sql, {
      tenantId: t.id,
      name: 'http agent',
      url: rig.agentUrl,
    });

    let hubUrl = first.url;
    const fetchImpl: typeof fetch = (input, init) => {
      const raw = input instanceof Request ? input.url : String(input);
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${caller.apiKey}`);
      return fetch(raw.replace(PUBLIC_URL, hubUrl), { ...init, headers });
    };
    const card = await new V1CardResolver({ fetchImpl }).resolve(
      `${PUBLIC_URL}/agents/${http.agent.id}/`
    );
    const client = await new V1ClientFactory({
      transports: [new V1JsonRpc({ fetchImpl })],
    }).createFromAgentCard(card);

    receiver.refusing = true;
    // Blocking (the v1.0 default): the answer comes once the agent finished the task, so every
    // update and the config are acknowledged before the hub dies.
    const sent = await client.sendMessage({
      tenant: '',
      message: {
        messageId: `crash-${Date.now()}`,
        contextId: '',
        taskId: '',
        role: 1,
        parts: [
          {
            content: { $case: 'text', value: 'survive me' },
            metadata: undefined,
            filename: '',
            mediaType: '',
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: {
        acceptedOutputModes: [],
        returnImmediately: false,
        taskPushNotificationConfig: {
          tenant: '',
          id: 'crash',
          taskId: '',
          url: `${receiver.url}/crash`,
          token: 'tok-crash',
          authentication: undefined,
        },
      },
      metadata: undefined,
    } as never);
    const taskId = (sent as { id: string }).id;
    await waitFor('a refused push attempt', () => receiver.refused >= 1, 15_000);

    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(receiver.received).toEqual([]);
    receiver.refusing = false;

    const second = await rig.startNode('push-b');
    hubUrl = second.url;
    await waitFor(
      'the completed update, pushed by the new node',
      () => receiver.received.some((p) => JSON.stringify(p.body).includes('TASK_STATE_COMPLETED')),
      60_000
    );
    const revs = receiver.received.map((p) =>
      Number(String(p.headers['x-hub-delivery']).split(':').pop())
    );
    // In order from the first update; a push the dead node had under way may come twice.
    expect([...new Set(revs)]).toEqual([...new Set(revs)].map((_, i) => i + 1));
    expect([...revs].sort((a, b) => a - b)).toEqual(revs);
    const firstPush = receiver.received[0]!;
    expect(firstPush.body).toMatchObject({
      statusUpdate: { taskId, status: { state: 'TASK_STATE_SUBMITTED' } },
    });
    expect(firstPush.headers['x-a2a-notification-token']).toBe('tok-crash');
    const jwks = (await (await fetch(`${second.url}/.well-known/hub-keys.json`)).json()) as {
      keys: unknown[];
    };
    await verifyPushSignature(firstPush, jwks, `${receiver.url}/crash`);
  }, 150_000);
});
