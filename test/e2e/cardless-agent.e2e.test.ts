// An agent without a stored card (made without --url, or a plain WebSocket agent) has the default
// card of decisions.md §11: acceptedOutputModes, which every standard A2A client sends, is checked
// against text/plain instead of failing the request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { partitionsSettled, testHubConfig } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let sender: string;
let agent: TestWsAgent;
let agentId: string;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db), silentLogger);
  await partitionsSettled([hub], 8);
  const tenant = await createTenant(hub.sql, { name: 'Cardless' });
  sender = (await createAgent(hub.sql, { tenantId: tenant.id, name: 'sender' })).apiKey;
  const bare = await createAgent(hub.sql, { tenantId: tenant.id, name: 'bare' });
  agentId = bare.agent.id;
  agent = await connectWsAgent(hub.url, bare.apiKey);
  // Answer every message at once, so blocking sends complete.
  agent.ws.on('message', (data) => {
    const f = JSON.parse((data as Buffer).toString()) as { type?: string; taskId?: string };
    if (f.type !== 'message') return;
    agent.send({
      type: 'task_response',
      taskId: f.taskId,
      status: { state: 'completed' },
      artifact: { parts: [{ kind: 'text', text: 'done' }] },
      lastChunk: true,
    });
  });
});

afterAll(async () => {
  await agent?.close();
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('an agent with no stored card', () => {
  it('accepts acceptedOutputModes it can produce on /a2a (text/plain)', async () => {
    const r = await rpc(hub.url, sender, 'SendMessage', {
      message: text('hi'),
      configuration: { agentId, blocking: true, acceptedOutputModes: ['text/plain'] },
    });
    expect(r.error).toBeUndefined();
    expect((r.result as { status: { state: string } }).status.state).toBe('completed');
  });

  it('refuses modes it cannot produce with -32005, not an internal error', async () => {
    const r = await rpc(hub.url, sender, 'SendMessage', {
      message: text('hi'),
      configuration: { agentId, blocking: true, acceptedOutputModes: ['image/png'] },
    });
    expect(r.error?.code).toBe(-32005);
  });

  it('accepts acceptedOutputModes on the standard endpoint, as A2A clients send it', async () => {
    const res = await fetch(`${hub.url}/agents/${agentId}/a2a`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'a2a-version': '1.0',
        authorization: `Bearer ${sender}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: { messageId: 'm-cardless-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
          configuration: { acceptedOutputModes: ['text/plain', 'application/json'] },
        },
      }),
    });
    const body = (await res.json()) as {
      error?: unknown;
      result?: { task?: { status: { state: string } } };
    };
    expect(body.error).toBeUndefined();
    expect(body.result?.task?.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
