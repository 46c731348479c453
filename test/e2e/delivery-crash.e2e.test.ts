// An acknowledged message whose delivery was under way when the hub died is delivered after the
// restart (docs/ARCHITECTURE.md "Messaging": the task's owner delivers what its task still holds
// as `pending`, also after a crash or a partition move). The recipient is an HTTP agent that
// holds the first request open, so the hub is killed at a known point: the message acknowledged
// and durable, its delivery started, no answer yet. Before owner-side delivery such a task stayed
// `submitted` for ever.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import {
  QUEUE_ADMIN_TOKEN,
  keepHubLogs,
  sendText,
  taskState,
  waitFor,
  waitOwnership,
} from '../support/queue-helpers.js';
import { createAgent, createDb, createTenant, migrate, type Db } from '../../infra/db/index.js';

const P = 4;

let nats: NatsServerHandle;
let db: TestDatabase;
let sql: Db;
let agentServer: Server;
let agentUrl: string;
const started: HubProcess[] = [];

interface Received {
  taskId: string;
  messageId: string;
  text: string;
  res: ServerResponse;
}
const received: Received[] = [];
/** How the HTTP agent treats each request: hold it open (the hub dies waiting) or answer. */
let holdRequests = true;

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const rpc = JSON.parse(body) as {
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
  });
}

async function startNode(nodeId: string): Promise<HubProcess> {
  const p = await startHubProcess({
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      ADMIN_TOKEN: QUEUE_ADMIN_TOKEN,
      NODE_ID: nodeId,
      PARTITIONS: String(P),
      HEARTBEAT_MS: '300',
      NODE_TTL_MS: '2000',
      LOCK_INACTIVE_MS: '2000',
      LOG_LEVEL: process.env.BURROW_TEST_HUB_LOG_LEVEL ?? 'info',
    },
    readyTimeoutMs: 60_000,
  });
  started.push(p);
  await waitOwnership([p.url], P, { ms: 45_000 });
  return p;
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase('burrow_delivery_crash');
  sql = createDb(db.url, { max: 2 });
  await migrate(sql);
  agentServer = createServer(onRequest);
  await new Promise<void>((r) => agentServer.listen(0, '127.0.0.1', () => r()));
  agentUrl = `http://127.0.0.1:${(agentServer.address() as { port: number }).port}/a2a`;
}, 60_000);

afterAll(async () => {
  keepHubLogs('delivery-crash', started);
  await Promise.all(started.map((p) => p.close()));
  for (const r of received) r.res.destroy();
  await new Promise<void>((r) => agentServer?.close(() => r()));
  await sql?.end({ timeout: 5 });
  await nats?.close();
  await db?.drop();
}, 60_000);

describe('delivery across kill -9 of the hub', () => {
  it('delivers an acknowledged message again after a crash mid-delivery, once more and the same task', async () => {
    const first = await startNode('deliver-a');
    const t = await createTenant(sql, { name: 'Delivery Crash' });
    const sender = await createAgent(sql, { tenantId: t.id, name: 'sender' });
    const http = await createAgent(sql, { tenantId: t.id, name: 'slow http', url: agentUrl });

    const sent = await sendText(first.url, sender.apiKey, http.agent.id, 'survive me');
    expect(sent.error).toBeUndefined();
    expect(sent.result?.status.state).toBe('submitted');
    const taskId = sent.result!.id;
    await waitFor('the first delivery attempt', () => received.length === 1);

    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    holdRequests = false;

    // A different node takes the partitions over: it finds the task still pending and delivers.
    const second = await startNode('deliver-b');
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
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(2);
  });
});
