// A2A messaging through the running hub in the hub dialect: real `ws` agents, a real HTTP agent
// (node:http), plain fetch for JSON-RPC, the official echo agent, envelopes verified against
// /.well-known/hub-keys.json.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgedEnvelope } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { loadConfig } from '../../runtime/config/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { verifyEnvelope, type JwksInput } from '../../runtime/envelope/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let url: string;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};
let httpAgent: Server;
let httpSecret = '';
const httpSeen: Array<{ auth: string | undefined; body: Record<string, unknown> }> = [];
let httpMode: 'string' | 'working' | 'task' = 'string';

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  httpAgent = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            name: 'Http Agent',
            description: 'answers',
            url: 'x',
            version: '1.0.0',
            capabilities: { streaming: false, pushNotifications: false },
            skills: [],
          })
        );
        return;
      }
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      httpSeen.push({ auth: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      const params = body.params as {
        message: { parts: Array<{ text?: string }> };
        configuration: { taskId: string };
      };
      const result =
        httpMode === 'string'
          ? `http agent got: ${params.message.parts[0]?.text ?? ''}`
          : httpMode === 'working'
            ? { id: params.configuration.taskId, status: { state: 'working' } }
            : {
                status: { state: 'completed' },
                artifacts: [
                  { parts: [{ kind: 'text', text: 'a1' }] },
                  { parts: [{ kind: 'text', text: 'a2' }] },
                ],
              };
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
    })();
  });
  await new Promise<void>((r) => httpAgent.listen(0, '127.0.0.1', () => r()));
  const httpUrl = `http://127.0.0.1:${(httpAgent.address() as { port: number }).port}/a2a`;

  const config = loadConfig({
    SMTP_LISTEN_PORT: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    PORT: '0',
    PARTITIONS: '8',
    HEARTBEAT_MS: '300',
    NODE_TTL_MS: '2000',
    LOCK_INACTIVE_MS: '2000',
    LOG_LEVEL: 'silent',
  });
  hub = await startHub(
    config,
    silentLogger.child({}, { level: process.env.TEST_LOG_LEVEL ?? 'silent' })
  );
  url = hub.url;
  await until(
    () => Promise.resolve(hub.partitions.ownedPartitions().length),
    (n) => n === 8
  );

  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const other = await createTenant(hub.sql, { name: 'Other Org' });
  for (const [name, tenant, extra] of [
    ['alice', acme.id, {}],
    ['bob', acme.id, {}],
    ['carol', other.id, {}],
    ['dave', other.id, { visibility: 'public' as const }],
    [
      'hermes',
      acme.id,
      {
        url: httpUrl,
        card: {
          name: 'Http Agent',
          description: 'answers',
          url: httpUrl,
          version: '1.0.0',
          capabilities: { streaming: false, pushNotifications: false },
          skills: [],
        },
      },
    ],
  ] as const) {
    const created = await createAgent(hub.sql, { tenantId: tenant, name, ...extra });
    keys[name] = created.apiKey;
    ids[name] = created.agent.id;
    if (created.webhookSecret) httpSecret = created.webhookSecret;
  }
});

afterAll(async () => {
  await hub?.stop();
  httpAgent?.close();
  await nats?.close();
  await db?.drop();
});

describe('authentication', () => {
  it('refuses a missing or unknown key with HTTP 401 and -32010', async () => {
    const none = await rpc(url, undefined, 'SendMessage', {
      message: text('x'),
      configuration: { agentId: 'echo' },
    });
    expect(none.status).toBe(401);
    expect(none.error?.code).toBe(-32010);
    const bad = await rpc(url, 'bk_' + 'x'.repeat(43), 'GetTask', { id: 'task-1' });
    expect(bad.status).toBe(401);
    expect(bad.error?.code).toBe(-32010);
  });
});

describe('the official echo agent', () => {
  it('answers a blocking SendMessage by alias, with the canonical id on the task', async () => {
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('hello hub'),
      configuration: { agentId: 'echo', blocking: true },
    });
    expect(r.error).toBeUndefined();
    const task = r.result as {
      id: string;
      status: { state: string };
      artifacts: Array<{ parts: Array<{ text: string }> }>;
      metadata: { agentId: string };
    };
    expect(task.id).toMatch(/^task-[0-9a-f-]{36}$/);
    expect(task.status.state).toBe('completed');
    expect(task.artifacts[0]?.parts[0]?.text).toContain('hello hub');
    expect(task.metadata.agentId).toBe('agent-echo-official');
  });

  it('answers ping with a pong carrying a timestamp and latency', async () => {
    const r = await rpc(url, keys.alice, 'message/send', {
      message: text('ping'),
      configuration: { agentId: 'agent-echo-official', blocking: true },
    });
    const out = (r.result as { artifacts: Array<{ parts: Array<{ text: string }> }> }).artifacts[0]!
      .parts[0]!.text;
    expect(out).toMatch(/pong/);
    expect(out).toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(out).toMatch(/latency: \d+ ms/);
  });

  it('returns submitted at once without blocking, and GetTask shows completion', async () => {
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('later'),
      configuration: { agentId: 'echo' },
    });
    const task = r.result as { id: string; status: { state: string } };
    expect(task.status.state).toBe('submitted');
    const done = await until(
      () => rpc(url, keys.alice, 'GetTask', { id: task.id }),
      (g) => (g.result as { status: { state: string } } | undefined)?.status.state === 'completed'
    );
    expect((done.result as { status: { state: string } }).status.state).toBe('completed');
    const noHistory = await rpc(url, keys.alice, 'tasks/get', { id: task.id, historyLength: 0 });
    expect((noHistory.result as { messages: unknown[] }).messages).toEqual([]);
  });
});

describe('WebSocket agents', () => {
  let bob: TestWsAgent;
  let alice: TestWsAgent;
  beforeAll(async () => {
    bob = await connectWsAgent(url, keys.bob);
    alice = await connectWsAgent(url, keys.alice);
  });
  afterAll(async () => {
    await bob?.close();
    await alice?.close();
  });

  it('greets with welcome first, naming the agent', () => {
    expect(bob.frames[0]).toEqual({ type: 'welcome', agentId: ids.bob });
  });

  it('delivers a message frame with a verifiable envelope and returns the reply to a blocking sender', async () => {
    const pending = rpc(url, keys.alice, 'SendMessage', {
      message: text('hi bob'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bob.next('message');
    expect(m).toMatchObject({
      from: ids.alice,
      payload: { role: 'user', parts: [{ kind: 'text', text: 'hi bob' }] },
    });
    const envelope = (m.metadata as { 'x-hub': unknown })['x-hub'];
    const jwks = (await (await fetch(`${url}/.well-known/hub-keys.json`)).json()) as JwksInput;
    const v = verifyEnvelope(envelope, jwks, { now: Date.now() });
    expect(v).toMatchObject({ ok: true });
    expect(v.ok && v.envelope.sender).toEqual({ agentId: ids.alice, tenantId: expect.any(String) });
    bob.send({
      type: 'task_response',
      taskId: m.taskId,
      status: { state: 'completed', message: 'done' },
      artifact: { artifactId: 'a1', parts: [{ kind: 'text', text: 'hello alice' }] },
      lastChunk: true,
    });
    const r = await pending;
    expect(r.result).toMatchObject({ id: m.taskId, status: { state: 'completed' } });
    expect((r.result as { artifacts: unknown[] }).artifacts).toMatchObject([
      { artifactId: 'a1', parts: [{ kind: 'text', text: 'hello alice' }] },
    ]);
    const update = await until(
      () =>
        Promise.resolve(
          alice.frames
            .filter((f) => f.type === 'task_update')
            .map((f) => (f.task as { status: { state: string } }).status.state)
        ),
      (s) => s.includes('completed')
    );
    expect(update).toContain('completed');
  });

  it('streams artifact chunks and continues an input-required task', async () => {
    const first = rpc(url, keys.alice, 'SendMessage', {
      message: text('book a table'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m1 = await bob.next('message');
    bob.send({
      type: 'task_response',
      taskId: m1.taskId,
      status: { state: 'input-required', message: 'for how many?' },
    });
    const r1 = await first;
    expect(r1.result).toMatchObject({ status: { state: 'input-required' } });
    const second = rpc(url, keys.alice, 'SendMessage', {
      message: { ...text('four'), taskId: m1.taskId },
      configuration: { blocking: true },
    });
    const m2 = await bob.next('message');
    expect(m2.taskId).toBe(m1.taskId);
    bob.send({
      type: 'task_response',
      taskId: m1.taskId,
      status: { state: 'working' },
      artifact: { artifactId: 'x', parts: [{ kind: 'text', text: 'part 1, ' }] },
      lastChunk: false,
    });
    bob.send({
      type: 'task_response',
      taskId: m1.taskId,
      status: { state: 'completed' },
      artifact: { artifactId: 'x', parts: [{ kind: 'text', text: 'part 2' }] },
      lastChunk: true,
    });
    const r2 = await second;
    expect(r2.result).toMatchObject({
      status: { state: 'completed' },
      artifacts: [{ artifactId: 'x', parts: [{ text: 'part 1, ' }, { text: 'part 2' }] }],
    });
    // A terminal task cannot be continued.
    const again = await rpc(url, keys.alice, 'SendMessage', {
      message: { ...text('more'), taskId: m1.taskId },
      configuration: {},
    });
    expect(again.error?.code).toBe(-32602);
  });

  it('cancels a working task, tells the recipient, and refuses its late reply', async () => {
    const sent = await rpc(url, keys.alice, 'SendMessage', {
      message: text('long job'),
      configuration: { agentId: ids.bob },
    });
    const taskId = (sent.result as { id: string }).id;
    await bob.next('message');
    await until(
      () => rpc(url, keys.alice, 'GetTask', { id: taskId }),
      (g) => (g.result as { status: { state: string } }).status.state === 'working'
    );
    const c = await rpc(url, keys.alice, 'CancelTask', { id: taskId });
    expect(c.result).toMatchObject({ status: { state: 'canceled' } });
    const upd = await bob.next('task_update');
    expect(upd.task).toMatchObject({ id: taskId, status: { state: 'canceled' } });
    bob.send({ type: 'task_response', taskId, status: { state: 'completed' } });
    const err = await bob.next('error');
    expect(err).toMatchObject({ taskId });
    const again = await rpc(url, keys.alice, 'CancelTask', { id: taskId });
    expect(again.error?.code).toBe(-32002);
  });

  it('refuses a task_response from anyone but the recipient', async () => {
    const sent = await rpc(url, keys.alice, 'SendMessage', {
      message: text('for bob only'),
      configuration: { agentId: ids.bob },
    });
    const taskId = (sent.result as { id: string }).id;
    await bob.next('message');
    alice.send({ type: 'task_response', taskId, status: { state: 'completed' } });
    const err = await alice.next('error');
    expect(err).toMatchObject({ error: 'FORBIDDEN', taskId });
    bob.send({ type: 'task_response', taskId, status: { state: 'completed' } });
  });

  it('delivers once for the same messageId within the window', async () => {
    const message = { ...text('exactly once'), messageId: 'm-dup-1' };
    const a = await rpc(url, keys.alice, 'SendMessage', {
      message,
      configuration: { agentId: ids.bob },
    });
    const b = await rpc(url, keys.alice, 'SendMessage', {
      message,
      configuration: { agentId: ids.bob },
    });
    expect((b.result as { id: string }).id).toBe((a.result as { id: string }).id);
    await bob.next('message');
    // A fence: a later message from the same sender (FIFO per pair); a second delivery of the
    // first would have arrived before it.
    const fence = await rpc(url, keys.alice, 'SendMessage', {
      message: text('fence'),
      configuration: { agentId: ids.bob },
    });
    const fenceId = (fence.result as { id: string }).id;
    while ((await bob.next('message')).taskId !== fenceId);
    bob.send({ type: 'task_response', taskId: fenceId, status: { state: 'completed' } });
    expect(
      bob.frames.filter((f) => f.type === 'message' && f.taskId === (a.result as { id: string }).id)
    ).toHaveLength(1);
  });

  it('discards an x-hub a caller puts in its own request', async () => {
    const forged = forgedEnvelope(ids.bob!);
    const pending = rpc(url, keys.alice, 'SendMessage', {
      message: text('who am I'),
      configuration: { agentId: ids.bob, blocking: true },
      'x-hub': forged,
    });
    const m = await bob.next('message');
    const env = (m.metadata as { 'x-hub': { sender: { agentId: string }; kid: string } })['x-hub'];
    expect(env.sender.agentId).toBe(ids.alice);
    expect(env.kid).not.toBe('fake');
    bob.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
    expect((await pending).result).toMatchObject({ status: { state: 'completed' } });
  });

  it('answers ping frames and JSON-RPC frames on the socket', async () => {
    bob.send({ type: 'ping' });
    await bob.next('pong');
    bob.ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'q1',
        method: 'SendMessage',
        params: { message: text('via socket'), configuration: { agentId: 'echo', blocking: true } },
      })
    );
    const reply = await new Promise<Record<string, unknown>>((resolve) => {
      const on = (data: Buffer) => {
        const f = JSON.parse(String(data)) as Record<string, unknown>;
        if (f.id === 'q1') {
          bob.ws.off('message', on);
          resolve(f);
        }
      };
      bob.ws.on('message', on);
    });
    expect(reply).toMatchObject({
      jsonrpc: '2.0',
      id: 'q1',
      result: { status: { state: 'completed' } },
    });
  });

  it('accepts the legacy first-frame auth and refuses a bad token with 4401', async () => {
    const legacy = await connectWsAgent(url, keys.carol, { legacyAuth: true });
    expect(legacy.frames[0]).toMatchObject({ type: 'welcome', agentId: ids.carol });
    await legacy.close();
    const bad = await connectWsAgent(url, 'bk_' + 'y'.repeat(43), {
      legacyAuth: true,
      waitWelcome: false,
    });
    const code = await new Promise<number>((r) => bad.ws.once('close', (c) => r(c)));
    expect(code).toBe(4401);
    expect(bad.frames[0]).toMatchObject({ type: 'auth_error' });
  });

  it('updates the card from the socket', async () => {
    const card = {
      name: 'Bob',
      description: 'books tables',
      url: 'ws://bob',
      version: '1.2.0',
      capabilities: { streaming: false, pushNotifications: false },
      skills: [],
    };
    bob.send({ type: 'update_card', agentCard: card });
    const ack = await bob.next('card_updated');
    expect(ack.agentCard).toMatchObject({ name: 'Bob', version: '1.2.0' });
  });
});

describe('visibility, look-ups and bad input', () => {
  it('answers a private agent of another tenant as an unknown one: -32016 (issue 18)', async () => {
    const priv = await rpc(url, keys.alice, 'SendMessage', {
      message: text('x'),
      configuration: { agentId: ids.carol },
    });
    expect(priv.error?.code).toBe(-32016);
    const unknown = await rpc(url, keys.alice, 'SendMessage', {
      message: text('x'),
      configuration: { agentId: 'agent-000000000000' },
    });
    expect(unknown.error?.code).toBe(-32016);
  });

  it('lets anyone message a public agent of another tenant', async () => {
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('hi dave'),
      configuration: { agentId: ids.dave, 'x-ttl': 60 },
    });
    expect(r.error).toBeUndefined();
  });

  it('hides a task from a third party (-32001) and from the sender of another task', async () => {
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('secret'),
      configuration: { agentId: 'echo', blocking: true },
    });
    const id = (r.result as { id: string }).id;
    expect((await rpc(url, keys.carol, 'GetTask', { id })).error?.code).toBe(-32001);
    expect((await rpc(url, keys.carol, 'CancelTask', { id })).error?.code).toBe(-32001);
    expect((await rpc(url, keys.alice, 'GetTask', { id: 'task-nope' })).error?.code).toBe(-32001);
  });

  it('fails at once with -32011 when x-ttl is 0 and the recipient is offline', async () => {
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('now or never'),
      configuration: { agentId: ids.dave, 'x-ttl': 0 },
    });
    expect(r.error?.code).toBe(-32011);
  });

  it('names the bad field and stores nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { message: { role: 'user', parts: [] }, configuration: { agentId: 'echo' } },
        /message\.parts/,
      ],
      [
        {
          message: { role: 'user', parts: [{ text: 'no kind', kind: 'bogus' }] },
          configuration: { agentId: 'echo' },
        },
        /message\.parts\.0/,
      ],
      [
        {
          message: { role: 'user', parts: [{ kind: 'file', data: 'aGk=' }] },
          configuration: { agentId: 'echo' },
        },
        /mimeType/,
      ],
      [
        {
          message: { role: 'user', parts: [{ kind: 'file', mimeType: 'text/plain' }] },
          configuration: { agentId: 'echo' },
        },
        /message\.parts\.0/,
      ],
      [{ message: text('x'), configuration: {} }, /configuration\.agentId/],
      [
        { message: text('x'), configuration: { agentId: 'echo', blocking: 'yes' } },
        /configuration\.blocking/,
      ],
    ];
    for (const [params, field] of cases) {
      const r = await rpc(url, keys.alice, 'SendMessage', params);
      expect(r.error?.code, JSON.stringify(params)).toBe(-32602);
      expect(JSON.stringify(r.error), JSON.stringify(params)).toMatch(field);
    }
  });

  it('refuses output modes the recipient cannot produce with -32005', async () => {
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('x'),
      configuration: { agentId: 'echo', acceptedOutputModes: ['image/png'] },
    });
    expect(r.error?.code).toBe(-32005);
  });

  it("lists the caller's tasks, filtered by context and state", async () => {
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('listed'),
      configuration: { agentId: 'echo', blocking: true },
    });
    const task = r.result as { id: string; contextId: string };
    const listed = await until(
      () => rpc(url, keys.alice, 'ListTasks', { contextId: task.contextId }),
      (l) =>
        (l.result as { tasks: Array<{ status: { state: string } }> } | undefined)?.tasks[0]?.status
          .state === 'completed'
    );
    expect(listed.result).toMatchObject({
      tasks: [{ id: task.id, status: { state: 'completed' } }],
      totalSize: 1,
    });
    const none = await rpc(url, keys.carol, 'tasks/list', { contextId: task.contextId });
    expect((none.result as { tasks: unknown[] }).tasks).toEqual([]);
  });

  it('continues a conversation by contextId right after its first message', async () => {
    // The task index trails the log; a reply by contextId alone must not depend on it.
    for (let i = 0; i < 5; i++) {
      const first = await rpc(url, keys.alice, 'SendMessage', {
        message: text(`first ${i}`),
        configuration: { agentId: 'echo', blocking: true },
      });
      const { contextId } = first.result as { contextId: string };
      const reply = await rpc(url, keys.alice, 'SendMessage', {
        message: text(`again ${i}`),
        configuration: { contextId, blocking: true },
      });
      expect(reply.error).toBeUndefined();
      expect(reply.result).toMatchObject({
        contextId,
        status: { state: 'completed' },
        metadata: { agentId: 'agent-echo-official' },
      });
    }
  });
});

describe('HTTP agents', () => {
  it('POSTs SendMessage with the webhook secret and envelope, and wraps a plain string answer', async () => {
    httpMode = 'string';
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('to http'),
      configuration: { agentId: ids.hermes, blocking: true },
    });
    expect(r.result).toMatchObject({
      status: { state: 'completed' },
      artifacts: [{ parts: [{ kind: 'text', text: 'http agent got: to http' }] }],
    });
    const seen = httpSeen.at(-1)!;
    expect(seen.auth).toBe(`Bearer ${httpSecret}`);
    expect(seen.body).toMatchObject({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { 'x-hub': { sender: { agentId: ids.alice } } },
    });
  });

  it('keeps several artifacts of a task answer', async () => {
    httpMode = 'task';
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('two please'),
      configuration: { agentId: ids.hermes, blocking: true },
    });
    expect((r.result as { artifacts: unknown[] }).artifacts).toHaveLength(2);
  });

  it('leaves a working task open until the agent finishes it with task/respond', async () => {
    httpMode = 'working';
    const r = await rpc(url, keys.alice, 'SendMessage', {
      message: text('slow one'),
      configuration: { agentId: ids.hermes },
    });
    const id = (r.result as { id: string }).id;
    await until(
      () => rpc(url, keys.alice, 'GetTask', { id }),
      (g) => (g.result as { status: { state: string } }).status.state === 'working'
    );
    const done = await rpc(url, keys.hermes, 'task/respond', {
      taskId: id,
      status: { state: 'completed' },
      artifact: { parts: [{ kind: 'text', text: 'finally' }] },
    });
    expect(done.result).toMatchObject({ status: { state: 'completed' } });
    const got = await rpc(url, keys.alice, 'GetTask', { id });
    expect(got.result).toMatchObject({
      status: { state: 'completed' },
      artifacts: [{ parts: [{ text: 'finally' }] }],
    });
    // Only the recipient may respond.
    const wrong = await rpc(url, keys.alice, 'task/respond', {
      taskId: id,
      status: { state: 'failed' },
    });
    expect(wrong.error).toBeDefined();
  });
});
