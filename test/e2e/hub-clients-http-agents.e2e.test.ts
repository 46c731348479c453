// HTTP agents as existing hub clients build them (decisions.md §11), against a real hub with real
// node:http agents: an agent that knows only `message/send` (the hub retries a -32601 to
// SendMessage under that name, remembers it, and counts no failure); delivery order for an agent
// with a URL (its live WebSocket first, its URL when it has no socket); registration by the
// agent's `/a2a` URL finding the card at the origin; `message.metadata` in `params.message`.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliverPolicy } from '@nats-io/jetstream';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { freePorts } from '../support/nats-process.js';
import { rpc, text } from '../support/rpc.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { decodeHubEvent, streams, subjects, type HubEvent } from '../../runtime/bus/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, getAgent } from '../../infra/db/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = resolve(ROOT, 'infra/bin/burrow.js');

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const servers: Server[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  await partitionsSettled([hub], 4);
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

// ---- a node:http agent ---------------------------------------------------------------------------

interface Rpc {
  id: unknown;
  method: string;
  params: { message?: { parts?: Array<{ text?: string }>; metadata?: unknown } };
}

interface HttpAgent {
  base: string;
  /** JSON-RPC requests the agent received (POST). */
  posts: Rpc[];
  /** Paths of the GET requests it received. */
  gets: string[];
}

const CARD = {
  name: 'Legacy Agent',
  description: 'knows only message/send',
  url: 'http://agent.example/a2a',
  version: '1.0.0',
  capabilities: {},
  skills: [],
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => done(s));
  });
}

/**
 * An agent on loopback. `methods` are the JSON-RPC send methods it knows (others get -32601); its
 * card is served only at `cardPaths`.
 */
async function startAgent(
  methods: readonly string[],
  cardPaths: readonly string[] = ['/.well-known/agent.json']
): Promise<HttpAgent> {
  const agent: HttpAgent = { base: '', posts: [], gets: [] };
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET') {
        agent.gets.push(req.url ?? '');
        const found = cardPaths.includes(req.url ?? '');
        res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(found ? CARD : { error: 'not found' }));
        return;
      }
      const body = JSON.parse(await readBody(req)) as Rpc;
      agent.posts.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!methods.includes(body.method)) {
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            error: { code: -32601, message: `Method not found: ${body.method}` },
          })
        );
        return;
      }
      const said = body.params.message?.parts?.[0]?.text;
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: `got: ${said}` }));
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  agent.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return agent;
}

// ---- hub helpers --------------------------------------------------------------------------------

interface Team {
  tenantId: string;
  senderKey: string;
  agentId: string;
  agentKey: string;
}

let teams = 0;
async function team(url: string, transport?: 'websocket' | 'http'): Promise<Team> {
  const t = await createTenant(hub.sql, { name: `Http Clients ${++teams} ${randomUUID()}` });
  const sender = await createAgent(hub.sql, { tenantId: t.id, name: 'sender' });
  const agent = await createAgent(hub.sql, {
    tenantId: t.id,
    name: 'receiver',
    url,
    card: { ...CARD, url },
    ...(transport ? { transport } : {}),
  });
  return {
    tenantId: t.id,
    senderKey: sender.apiKey,
    agentId: agent.agent.id,
    agentKey: agent.apiKey,
  };
}

interface TaskView {
  id: string;
  status: { state: string; message?: unknown };
  artifacts?: Array<{ parts: Array<{ text?: string }> }>;
}

async function send(t: Team, body: string, metadata?: Record<string, unknown>) {
  const r = await rpc(hub.url, t.senderKey, 'SendMessage', {
    message: { ...text(body), messageId: randomUUID(), ...(metadata ? { metadata } : {}) },
    configuration: { agentId: t.agentId, blocking: true },
  });
  expect(r.error, `sending "${body}"`).toBeUndefined();
  return r.result as unknown as TaskView;
}

async function failedEvents(tenantId: string): Promise<HubEvent[]> {
  const consumer = await hub.bus.js.consumers.get(streams.events, {
    filter_subjects: subjects.hubEvent(tenantId, 'message.failed'),
    deliver_policy: DeliverPolicy.All,
  });
  const out: HubEvent[] = [];
  if ((await consumer.info()).num_pending === 0) return out;
  const msgs = await consumer.consume();
  for await (const m of msgs) {
    out.push(decodeHubEvent(m.data));
    if (m.info.pending === 0) break;
  }
  await msgs.close();
  return out;
}

/** Run the CLI; resolves with its exit code and output. */
function burrow(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url, NATS_URL: nats.url },
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        if (err === null) done({ code: 0, stdout, stderr });
        else if (typeof err.code === 'number') done({ code: err.code, stdout, stderr });
        else fail(new Error(`could not run burrow: ${err.message}`, { cause: err }));
      }
    );
  });
}

// ---- tests --------------------------------------------------------------------------------------

describe('an HTTP agent that knows only message/send', () => {
  it('completes its tasks: the -32601 to SendMessage is retried as message/send, then remembered', async () => {
    const agent = await startAgent(['message/send']);
    const t = await team(`${agent.base}/a2a`);

    const first = await send(t, 'one');
    expect(first.status.state).toBe('completed');
    expect(first.artifacts?.[0]?.parts[0]?.text).toBe('got: one');
    expect(agent.posts.map((p) => p.method)).toEqual(['SendMessage', 'message/send']);
    // The same delivery, under the other name.
    expect(agent.posts[1]!.params).toEqual(agent.posts[0]!.params);

    const second = await send(t, 'two');
    expect(second.status.state).toBe('completed');
    expect(second.artifacts?.[0]?.parts[0]?.text).toBe('got: two');
    expect(agent.posts.map((p) => p.method)).toEqual([
      'SendMessage',
      'message/send',
      'message/send',
    ]);

    expect(await failedEvents(t.tenantId)).toEqual([]);
    const q = await hub.queues.inspect(t.tenantId, t.agentId);
    expect(q.pending).toBe(0);
    expect(q.failed).toBe(0);
  });

  it('asks SendMessage first again once its card changes', async () => {
    const agent = await startAgent(['message/send']);
    const t = await team(`${agent.base}/a2a`);
    expect((await send(t, 'one')).status.state).toBe('completed');
    const before = (await getAgent(hub.sql, t.agentId))!.updatedAt.getTime();
    await hub.sql`update agents set card = card, updated_at = now() where id = ${t.agentId}`;
    await until(async () => (await getAgent(hub.sql, t.agentId))!.updatedAt.getTime() > before);
    // The directory's cached record expires within its TTL (5 s).
    await until(async () => {
      agent.posts.length = 0;
      expect((await send(t, 'again')).status.state).toBe('completed');
      return agent.posts[0]?.method === 'SendMessage';
    }, 10_000);
    expect(agent.posts.map((p) => p.method)).toEqual(['SendMessage', 'message/send']);
  });

  it('fails the task with the message when message/send is unknown too', async () => {
    const agent = await startAgent([]);
    const t = await team(`${agent.base}/a2a`);
    const task = await send(t, 'nobody home');
    expect(task.status.state).toBe('failed');
    expect(JSON.stringify(task.status.message)).toContain('Method not found: message/send');
    expect(agent.posts.map((p) => p.method)).toEqual(['SendMessage', 'message/send']);
  });
});

describe('delivery order for an agent with a URL', () => {
  it('goes over its live WebSocket, not its URL; over its URL once the socket is gone', async () => {
    const agent = await startAgent(['SendMessage']);
    const t = await team(`${agent.base}/a2a`);
    const ws = await connectWsAgent(hub.url, t.agentKey);
    await until(() => hub.presence.isOnline(t.agentId));

    const sent = rpc(hub.url, t.senderKey, 'SendMessage', {
      message: { ...text('over the socket'), messageId: randomUUID() },
      configuration: { agentId: t.agentId },
    });
    const frame = await ws.next('message');
    expect(frame).toMatchObject({ payload: { parts: [{ text: 'over the socket' }] } });
    ws.send({
      type: 'task_response',
      taskId: frame.taskId,
      status: { state: 'completed' },
      artifact: { artifactId: 'a1', parts: [{ kind: 'text', text: 'from the socket' }] },
      lastChunk: true,
    });
    expect((await sent).error).toBeUndefined();
    expect(agent.posts).toEqual([]);

    await ws.close();
    await until(() => !hub.presence.isOnline(t.agentId));
    const over = await send(t, 'over http');
    expect(over.status.state).toBe('completed');
    expect(over.artifacts?.[0]?.parts[0]?.text).toBe('got: over http');
    expect(agent.posts.map((p) => p.params.message?.parts?.[0]?.text)).toEqual(['over http']);
  });

  it('drains its queue over the WebSocket as soon as it connects, when its URL is down', async () => {
    const [port] = await freePorts(1);
    const t = await team(`http://127.0.0.1:${port}/a2a`);
    // Nothing listens: the message waits in the queue (the next HTTP retry is minutes away).
    const queued = await send(t, 'waiting for you');
    expect(queued.status.state).toBe('submitted');
    const ws = await connectWsAgent(hub.url, t.agentKey);
    const frame = await ws.next('message');
    expect(frame).toMatchObject({
      taskId: queued.id,
      payload: { parts: [{ text: 'waiting for you' }] },
    });
    ws.send({
      type: 'task_response',
      taskId: queued.id,
      status: { state: 'completed' },
      lastChunk: true,
    });
    await until(async () => {
      const g = await rpc(hub.url, t.senderKey, 'GetTask', { id: queued.id });
      return (g.result as unknown as TaskView | undefined)?.status.state === 'completed';
    });
    await ws.close();
  });

  it('reaches a WebSocket agent with a URL over HTTP while it has no socket', async () => {
    const agent = await startAgent(['SendMessage']);
    const t = await team(`${agent.base}/a2a`, 'websocket');
    const task = await send(t, 'you are offline');
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.[0]?.parts[0]?.text).toBe('got: you are offline');
    expect(agent.posts).toHaveLength(1);
  });
});

describe('message.metadata to an HTTP agent', () => {
  it('arrives in params.message', async () => {
    const agent = await startAgent(['SendMessage']);
    const t = await team(`${agent.base}/a2a`);
    const metadata = { traceId: 'trace-1', nested: { n: 1 } };
    expect((await send(t, 'with metadata', metadata)).status.state).toBe('completed');
    expect(agent.posts[0]!.params.message?.metadata).toMatchObject(metadata);
  });
});

describe('registration by the agent URL', () => {
  it('finds the card at the origin when the agent is registered by its /a2a URL', async () => {
    const agent = await startAgent(['SendMessage'], ['/.well-known/agent.json']);
    const t = await createTenant(hub.sql, { name: `Cli ${randomUUID()}` });
    const run = await burrow([
      'agents',
      'create',
      '--tenant',
      t.id,
      '--name',
      'By A2a Url',
      '--url',
      `${agent.base}/a2a`,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(agent.gets).toEqual(['/a2a/.well-known/agent.json', '/.well-known/agent.json']);
    const { agentId } = JSON.parse(run.stdout) as { agentId: string };
    expect((await getAgent(hub.sql, agentId))?.card).toMatchObject({ name: CARD.name });
  });

  it('then looks for agent-card.json at the URL and at the origin', async () => {
    const agent = await startAgent(['SendMessage'], ['/.well-known/agent-card.json']);
    const t = await createTenant(hub.sql, { name: `Cli ${randomUUID()}` });
    const run = await burrow([
      'agents',
      'create',
      '--tenant',
      t.id,
      '--name',
      'Card Json',
      '--url',
      `${agent.base}/a2a`,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(agent.gets).toEqual([
      '/a2a/.well-known/agent.json',
      '/.well-known/agent.json',
      '/a2a/.well-known/agent-card.json',
      '/.well-known/agent-card.json',
    ]);
  });
});
