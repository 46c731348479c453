// Issue 27 through a real hub with the official @a2a-js/sdk clients (1.x and 0.3.x) and a real
// receiver on loopback: push notification configs on both JSON-RPC endpoints, every update of a
// task POSTed in order, signed (token header and a JWS checked against the hub's JWKS); the
// extended card; signed agent cards that verify, and fail once tampered with.
import { verifyAgentCardSignature, type AgentCard as V1Card } from '@a2a-js/sdk';
import {
  ClientFactory as V1ClientFactory,
  DefaultAgentCardResolver as V1CardResolver,
  JsonRpcTransportFactory as V1JsonRpc,
  type Client as V1Client,
} from '@a2a-js/sdk/client';
import {
  ClientFactory as V03ClientFactory,
  DefaultAgentCardResolver as V03CardResolver,
  JsonRpcTransportFactory as V03JsonRpc,
  type Client as V03Client,
} from 'a2a-sdk-v03/client';
import { FlattenedSign, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import {
  startPushReceiver,
  verifyPushSignature,
  type PushReceiver,
} from '../support/push-receiver.js';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';
import { canonicalCardPayload, verifyAgentCard } from '../../sdk/index.js';

const PUBLIC_URL = 'http://hub.example.test';
const HOLD = 'hold:';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let receiver: PushReceiver;
let callerKey: string;
let strangerKey: string;
let worker: { id: string; ws: TestWsAgent; release: () => void };
let jwks: { keys: unknown[] };

function hubFetch(key: string): typeof fetch {
  return (input, init) => {
    const raw = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(raw.replace(PUBLIC_URL, hub.url), { ...init, headers });
  };
}

const baseUrl = (agent: string) => `${PUBLIC_URL}/agents/${agent}/`;

async function v1Client(agent: string, key = callerKey): Promise<V1Client> {
  const fetchImpl = hubFetch(key);
  const card = await new V1CardResolver({ fetchImpl }).resolve(baseUrl(agent));
  return new V1ClientFactory({ transports: [new V1JsonRpc({ fetchImpl })] }).createFromAgentCard(
    card
  );
}

async function v03Client(agent: string): Promise<V03Client> {
  const fetchImpl = hubFetch(callerKey);
  const card = await new V03CardResolver({ fetchImpl }).resolve(baseUrl(agent));
  return new V03ClientFactory({ transports: [new V03JsonRpc({ fetchImpl })] }).createFromAgentCard(
    card
  );
}

/** A WebSocket agent: HOLD messages get a first chunk and `working`, finished by release(). */
function answer(agent: TestWsAgent): () => void {
  const held = new Set<string>();
  agent.ws.on('message', (data) => {
    const f = JSON.parse((data as Buffer).toString()) as {
      type?: string;
      taskId?: string;
      payload?: { parts?: Array<{ text?: string }> };
    };
    if (f.type !== 'message' || f.taskId === undefined) return;
    const text = (f.payload?.parts ?? []).map((p) => p.text ?? '').join('');
    const hold = text.startsWith(HOLD);
    if (hold) held.add(f.taskId);
    agent.send({
      type: 'task_response',
      taskId: f.taskId,
      status: { state: hold ? 'working' : 'completed' },
      artifact: { artifactId: 'reply', parts: [{ kind: 'text', text: `echo: ${text}` }] },
      lastChunk: !hold,
    });
  });
  return () => {
    for (const taskId of held) {
      agent.send({
        type: 'task_response',
        taskId,
        status: { state: 'completed' },
        artifact: { artifactId: 'reply', parts: [{ kind: 'text', text: ' done' }] },
        lastChunk: true,
      });
    }
    held.clear();
  };
}

async function rpc(
  path: string,
  method: string,
  params: unknown,
  key = callerKey,
  version = '1.0'
) {
  const res = await fetch(`${hub.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      'a2a-version': version,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as {
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  };
}

/** The notifications that reached `path`, by the rev in X-Hub-Delivery (<task>:<config>:<rev>). */
function pushesTo(path: string) {
  return receiver.received
    .filter((p) => p.path === path)
    .map((p) => ({ ...p, rev: Number(String(p.headers['x-hub-delivery']).split(':').pop()) }));
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PUBLIC_URL }), silentLogger);
  await partitionsSettled([hub], 8);
  receiver = await startPushReceiver();
  const tenant = await createTenant(hub.sql, { name: 'Push' });
  callerKey = (await createAgent(hub.sql, { tenantId: tenant.id, name: 'caller' })).apiKey;
  const other = await createTenant(hub.sql, { name: 'Elsewhere' });
  strangerKey = (await createAgent(hub.sql, { tenantId: other.id, name: 'stranger' })).apiKey;
  const created = await createAgent(hub.sql, {
    tenantId: tenant.id,
    name: 'worker',
    visibility: 'public',
  });
  const ws = await connectWsAgent(hub.url, created.apiKey);
  worker = { id: created.agent.id, ws, release: answer(ws) };
  jwks = (await (await fetch(`${hub.url}/.well-known/hub-keys.json`)).json()) as {
    keys: unknown[];
  };
}, 60_000);

afterAll(async () => {
  await worker?.ws.close();
  await receiver?.close();
  await hub?.stop();
  await nats?.close();
  await db?.drop();
}, 60_000);

describe('push notifications with @a2a-js/sdk 1.x', () => {
  it('pushes every update of a task in order, signed, from a config set on SendMessage', async () => {
    const client = await v1Client(worker.id);
    const card = await client.getAgentCard();
    expect(card.capabilities?.pushNotifications).toBe(true);
    const sent = await client.sendMessage({
      tenant: '',
      message: {
        messageId: `m-${Date.now()}`,
        contextId: '',
        taskId: '',
        role: 1,
        parts: [
          {
            content: { $case: 'text', value: `${HOLD}push me` },
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
        returnImmediately: true,
        taskPushNotificationConfig: {
          tenant: '',
          id: 'on-send',
          taskId: '',
          url: `${receiver.url}/v1`,
          token: 'tok-v1',
          authentication: { scheme: 'Bearer', credentials: 'receiver-secret' },
        },
      },
      metadata: undefined,
    } as never);
    const taskId = (sent as { id: string }).id;
    await until(() => pushesTo('/v1').some((p) => JSON.stringify(p.body).includes('WORKING')));
    worker.release();
    await until(() =>
      pushesTo('/v1').some((p) => JSON.stringify(p.body).includes('TASK_STATE_COMPLETED'))
    );
    const pushes = pushesTo('/v1');
    // Every update once, in rev order, from the first (submitted) to the last (completed).
    expect(pushes.map((p) => p.rev)).toEqual(pushes.map((_, i) => i + 1));
    const first = pushes[0]!.body as { statusUpdate?: { status?: { state?: string } } };
    expect(first.statusUpdate?.status?.state).toBe('TASK_STATE_SUBMITTED');
    const kinds = pushes.map((p) => Object.keys(p.body)[0]);
    expect(kinds).toContain('artifactUpdate');
    expect(kinds.at(-1)).toBe('statusUpdate');
    for (const p of pushes) {
      expect(p.headers['x-a2a-notification-token']).toBe('tok-v1');
      expect(p.headers.authorization).toBe('Bearer receiver-secret');
      const claims = await verifyPushSignature(p, jwks, `${receiver.url}/v1`);
      expect(claims.taskId).toBe(taskId);
      expect(claims.iss).toBe(PUBLIC_URL);
    }
    // A body changed in transit no longer matches the signed hash.
    await expect(
      verifyPushSignature(
        { ...pushes[0]!, raw: pushes[0]!.raw.replace('SUBMITTED', 'FAILED') },
        jwks,
        `${receiver.url}/v1`
      )
    ).rejects.toThrow(/hash/);

    // The SDK's config methods on the same task.
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      taskId,
      id: 'later',
      url: `${receiver.url}/later`,
      token: '',
      authentication: undefined,
    });
    expect(created).toMatchObject({ taskId, id: 'later', url: `${receiver.url}/later` });
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'on-send' });
    expect(got).toMatchObject({ id: 'on-send', token: 'tok-v1', url: `${receiver.url}/v1` });
    const listed = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId,
      pageSize: 0,
      pageToken: '',
    });
    expect(listed.configs.map((c) => c.id).sort()).toEqual(['later', 'on-send']);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: 'later' });
    const after = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId,
      pageSize: 0,
      pageToken: '',
    });
    expect(after.configs.map((c) => c.id)).toEqual(['on-send']);
    // The task was finished before 'later' was set: nothing was pushed to it.
    expect(pushesTo('/later')).toEqual([]);
  });
});

describe('push notifications with @a2a-js/sdk 0.3.x', () => {
  it('sets, reads, lists and deletes configs; the task is pushed as it changes', async () => {
    const client = await v03Client(worker.id);
    const sent = await client.sendMessage({
      message: {
        kind: 'message',
        messageId: `m03-${Date.now()}`,
        role: 'user',
        parts: [{ kind: 'text', text: `${HOLD}push v0.3` }],
      },
      configuration: { blocking: false, acceptedOutputModes: [] },
    });
    const taskId = (sent as { id: string }).id;
    const set = await client.setTaskPushNotificationConfig({
      taskId,
      pushNotificationConfig: { id: 'c03', url: `${receiver.url}/v03`, token: 'tok-03' },
    });
    expect(set).toMatchObject({ taskId, pushNotificationConfig: { id: 'c03', token: 'tok-03' } });
    expect(
      await client.getTaskPushNotificationConfig({
        id: taskId,
        pushNotificationConfigId: 'c03',
      } as never)
    ).toMatchObject({ taskId, pushNotificationConfig: { url: `${receiver.url}/v03` } });
    expect(await client.listTaskPushNotificationConfig({ id: taskId })).toHaveLength(1);
    worker.release();
    await until(() =>
      pushesTo('/v03').some((p) => (p.body.status as { state?: string })?.state === 'completed')
    );
    const pushes = pushesTo('/v03');
    expect(pushes[0]!.body).toMatchObject({ kind: 'task', id: taskId });
    expect(pushes[0]!.headers['x-a2a-notification-token']).toBe('tok-03');
    const revs = pushes.map((p) => p.rev);
    expect([...revs].sort((a, b) => a - b)).toEqual(revs);
    await verifyPushSignature(pushes[0]!, jwks, `${receiver.url}/v03`);
    await client.deleteTaskPushNotificationConfig({ id: taskId, pushNotificationConfigId: 'c03' });
    expect(await client.listTaskPushNotificationConfig({ id: taskId })).toEqual([]);
  });
});

describe('push notification methods on both endpoints', () => {
  it('answers the same on /a2a and /agents/:id/a2a, never -32003 or -32601', async () => {
    const path = `/agents/${worker.id}/a2a`;
    const sent = await rpc(path, 'SendMessage', {
      message: { messageId: `m-both-${Date.now()}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] },
    });
    const taskId = (sent.result as { task: { id: string } }).task.id;
    for (const endpoint of ['/a2a', path]) {
      const created = await rpc(endpoint, 'CreateTaskPushNotificationConfig', {
        taskId,
        id: `cfg${endpoint.length}`,
        url: `${receiver.url}/both`,
      });
      expect(created.error).toBeUndefined();
      const unknown = await rpc(endpoint, 'GetTaskPushNotificationConfig', {
        taskId: 'task-00000000-0000-4000-8000-000000000000',
        id: 'x',
      });
      expect(unknown.error?.code).toBe(-32001);
      const listed = await rpc(endpoint, 'tasks/pushNotificationConfig/list', { id: taskId });
      expect(listed.error).toBeUndefined();
      // Bad input names the field and stores nothing.
      const bad = await rpc(endpoint, 'CreateTaskPushNotificationConfig', {
        taskId,
        url: 'ftp://example.test/x',
      });
      expect(bad.error?.code).toBe(-32602);
      expect(JSON.stringify(bad.error)).toContain('url');
    }
    const listed = await rpc(path, 'ListTaskPushNotificationConfigs', { taskId });
    expect((listed.result as { configs: unknown[] }).configs).toHaveLength(2);
    // A stranger to the task sees neither the task nor its configs.
    const stranger = await rpc('/a2a', 'ListTaskPushNotificationConfigs', { taskId }, strangerKey);
    expect(stranger.error?.code).toBe(-32001);
    const badSend = await rpc(path, 'SendMessage', {
      message: { messageId: `m-bad-${Date.now()}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      configuration: { taskPushNotificationConfig: { url: 'not a url' } },
    });
    expect(badSend.error?.code).toBe(-32602);
    expect(JSON.stringify(badSend.error)).toContain('configuration.taskPushNotificationConfig.url');
  });
});

describe('extended agent card', () => {
  it('serves the extended card to a caller who may message the agent', async () => {
    worker.ws.send({
      type: 'update_card',
      agentCard: {
        name: 'worker',
        description: 'does work',
        url: 'http://worker.example.test',
        version: '1.0.0',
        skills: [
          { id: 'public-skill', name: 'Public', description: 'for all', tags: [] },
          {
            id: 'secret-skill',
            name: 'Secret',
            description: 'members only',
            tags: [],
            extended: true,
          },
        ],
      },
    });
    await worker.ws.next('card_updated');
    const card = await new V1CardResolver({ fetchImpl: hubFetch(callerKey) }).resolve(
      baseUrl(worker.id)
    );
    expect(card.skills.map((s) => s.id)).toEqual(['public-skill']);
    expect(card.capabilities?.extendedAgentCard).toBe(true);
    // The client fetches the extended card itself when the public one says there is one.
    const client = await v1Client(worker.id);
    const extended = await client.getAgentCard();
    expect(extended.skills.map((s) => s.id)).toEqual(['public-skill', 'secret-skill']);
    const v03 = await rpc(
      `/agents/${worker.id}/a2a`,
      'agent/getAuthenticatedExtendedCard',
      {},
      callerKey,
      ''
    );
    expect((v03.result as { skills: Array<{ id: string }> }).skills).toHaveLength(2);
    // An agent without extended skills has no extended card.
    const none = await rpc('/agents/echo/a2a', 'GetExtendedAgentCard', {});
    expect(none.error?.code).toBe(-32007);
  });
});

describe('signed agent cards', () => {
  it("verifies an official agent's card with the SDK and @a2a-js/sdk; a tampered card fails", async () => {
    const res = await fetch(`${hub.url}/agents/echo/.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0' },
    });
    const card = (await res.json()) as V1Card & { signatures: unknown[] };
    expect(card.signatures).toHaveLength(1);
    expect(await verifyAgentCard(card, { hubUrl: hub.url })).toMatchObject({ verified: true });
    const byKid = (kid: string) => {
      const jwk = (jwks.keys as Array<{ kid: string }>).find((k) => k.kid === kid);
      if (!jwk) return Promise.reject(new Error(`no key ${kid}`));
      return Promise.resolve(jwk as never);
    };
    await verifyAgentCardSignature(byKid)(card);

    const tampered = { ...card, description: `${card.description} (and more)` };
    expect(await verifyAgentCard(tampered, { jwks })).toMatchObject({ verified: false });
    await expect(verifyAgentCardSignature(byKid)(tampered)).rejects.toThrow();
    // The v0.3 card is signed too.
    const v03 = await (await fetch(`${hub.url}/agents/echo/.well-known/agent-card.json`)).json();
    expect(await verifyAgentCard(v03 as object, { jwks })).toMatchObject({ verified: true });
  });

  it('verifies the signatures of a card an agent registers, and discovery shows them', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = await exportJWK(publicKey);
    const unsigned = {
      name: 'worker',
      description: 'signed by its owner',
      url: 'http://worker.example.test',
      version: '1.0.0',
      capabilities: { streaming: false },
      skills: [{ id: 'work', name: 'Work', description: 'works', tags: ['w'] }],
    };
    const jws = await new FlattenedSign(canonicalCardPayload(unsigned))
      .setProtectedHeader({ alg: 'ES256', kid: 'owner-1', jwk })
      .sign(privateKey);
    const signed = {
      ...unsigned,
      signatures: [{ protected: jws.protected!, signature: jws.signature }],
    };
    // Tampered after signing: refused, naming the signature; the stored card is unchanged.
    worker.ws.send({
      type: 'update_card',
      id: 'tampered',
      agentCard: { ...signed, description: 'not what was signed' },
    });
    const refused = await worker.ws.next('error');
    expect(JSON.stringify(refused)).toContain('card.signatures[0]');
    worker.ws.send({ type: 'update_card', id: 'signed', agentCard: signed });
    await worker.ws.next('card_updated');
    const detail = (await (
      await fetch(`${hub.url}/api/discover/agents/${worker.id}`, {
        headers: { authorization: `Bearer ${callerKey}` },
      })
    ).json()) as { agent: { agentCard: Record<string, unknown> } };
    expect(detail.agent.agentCard['x-hub-signatures']).toEqual([
      expect.objectContaining({ kid: 'owner-1', alg: 'ES256', verified: true }),
    ]);
    // The hub's own trust in it: with the owner's key, the SDK verifies the registered card too.
    expect(
      await verifyAgentCard(signed, { jwks: { keys: [{ ...jwk, kid: 'owner-1' }] } })
    ).toMatchObject({ verified: true });
  });
});
