// The per-agent standard A2A endpoint and agent cards through a running hub, driven by the official
// @a2a-js/sdk client (v1.0, and v0.3 through its compat layer) plus raw fetch for the wire details:
// send (blocking and not), get, cancel, errors as SDK error classes, streaming, cards and caching.
import { SendMessageRequest, TaskState, type StreamResponse } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { loadConfig } from '../../runtime/config/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

/** Cards name the hub by its public URL; the test fetch sends those requests to the real port. */
const PUBLIC_URL = 'http://hub.example.test';
const ECHO = 'agent-echo-official';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};
let seq = 0;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  const config = loadConfig({
    SMTP_LISTEN_PORT: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    PORT: '0',
    PUBLIC_URL,
    PARTITIONS: '8',
    HEARTBEAT_MS: '300',
    NODE_TTL_MS: '2000',
    LOCK_INACTIVE_MS: '2000',
    LOG_LEVEL: 'silent',
  });
  hub = await startHub(config, silentLogger);
  await until(
    () => Promise.resolve(hub.partitions.ownedPartitions().length),
    (n) => n === 8
  );
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const other = await createTenant(hub.sql, { name: 'Other Org' });
  for (const [name, tenantId] of [
    ['alice', acme.id],
    ['bob', acme.id],
    ['carol', other.id],
  ] as const) {
    const created = await createAgent(hub.sql, { tenantId, name, description: `${name}'s agent` });
    keys[name] = created.apiKey;
    ids[name] = created.agent.id;
  }
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** fetch to the hub: public URL → bound port, plus the caller's API key. */
function hubFetch(apiKey: string | undefined): typeof fetch {
  return (input, init) => {
    const raw = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers);
    if (apiKey !== undefined) headers.set('authorization', `Bearer ${apiKey}`);
    return fetch(raw.replace(PUBLIC_URL, hub.url), { ...init, headers });
  };
}

function factory(apiKey: string): ClientFactory {
  const fetchImpl = hubFetch(apiKey);
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } }),
  });
}

/** A v1.0 client from the agent's card at <base>/agents/<id>/.well-known/agent-card.json. */
function v1Client(apiKey: string, agent = ECHO): Promise<Client> {
  return factory(apiKey).createFromUrl(`${PUBLIC_URL}/agents/${agent}/`);
}

/** A v0.3 client: the v0.3 card (fetched without A2A-Version) selects the SDK's compat transport. */
async function v03Client(apiKey: string, agent = ECHO): Promise<Client> {
  const res = await hubFetch(apiKey)(`${PUBLIC_URL}/agents/${agent}/.well-known/agent-card.json`);
  return factory(apiKey).createFromAgentCard((await res.json()) as never);
}

function request(text: string, returnImmediately = false): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: `m-${++seq}-${Date.now()}`, role: 'ROLE_USER', parts: [{ text }] },
    configuration: { returnImmediately },
  });
}

function taskOf(result: Awaited<ReturnType<Client['sendMessage']>>) {
  if (!('status' in result)) throw new Error('expected a task, got a message');
  return result;
}

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

interface RpcReply {
  status: number;
  body: {
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
    id: unknown;
  };
}

/** A raw JSON-RPC call on the per-agent endpoint; `version` null sends no A2A-Version. */
async function call(
  agent: string,
  apiKey: string | undefined,
  method: string,
  params: unknown,
  version: string | null = '1.0',
  path = 'a2a'
): Promise<RpcReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (version !== null) headers['a2a-version'] = version;
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  const res = await fetch(`${hub.url}/agents/${agent}/${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++seq, method, params }),
  });
  return { status: res.status, body: (await res.json()) as RpcReply['body'] };
}

describe('@a2a-js/sdk v1.0 client on /agents/:agentId/a2a', () => {
  it('resolves the card and picks the 1.0 JSON-RPC interface of the hub endpoint', async () => {
    const c = await v1Client(keys.alice!);
    expect(c.protocolVersion).toBe('1.0');
    const card = await c.getAgentCard();
    expect(card.supportedInterfaces.map((i) => [i.url, i.protocolVersion])).toEqual([
      [`${PUBLIC_URL}/agents/${ECHO}/a2a`, '1.0'],
      [`${PUBLIC_URL}/agents/${ECHO}/a2a`, '0.3'],
    ]);
    expect(card.capabilities?.streaming).toBe(true);
  });

  it('sends a blocking message to the echo agent and gets the completed task', async () => {
    const c = await v1Client(keys.alice!);
    const task = taskOf(await c.sendMessage(request('hello standard')));
    expect(task.id).toMatch(/^task-/);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const text = task.artifacts[0]?.parts[0]?.content;
    expect(text?.$case === 'text' && text.value).toContain('hello standard');
  });

  it('returns at once without blocking, and GetTask shows completion', async () => {
    const c = await v1Client(keys.alice!);
    const task = taskOf(await c.sendMessage(request('later', true)));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const done = await until(
      () => c.getTask({ tenant: '', id: task.id }),
      (t) => t.status?.state === TaskState.TASK_STATE_COMPLETED
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.history.length).toBeGreaterThanOrEqual(1);
    const none = await c.getTask({ tenant: '', id: task.id, historyLength: 0 });
    expect(none.history).toEqual([]);
  });

  it('cancels a working task of a WebSocket agent that does not answer', async () => {
    let bob: TestWsAgent | undefined;
    try {
      bob = await connectWsAgent(hub.url, keys.bob);
      const c = await v1Client(keys.alice!, ids.bob);
      const task = taskOf(await c.sendMessage(request('take your time', true)));
      await bob.next('message');
      await until(
        () => c.getTask({ tenant: '', id: task.id }),
        (t) => t.status?.state === TaskState.TASK_STATE_WORKING
      );
      const canceled = await c.cancelTask({ tenant: '', id: task.id, metadata: undefined });
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    } finally {
      await bob?.close();
    }
  });

  it('surfaces -32001 and -32002 as the SDK error classes', async () => {
    const c = await v1Client(keys.alice!);
    await expect(c.getTask({ tenant: '', id: 'task-nope' })).rejects.toBeInstanceOf(
      TaskNotFoundError
    );
    const done = taskOf(await c.sendMessage(request('finish me')));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(
      c.cancelTask({ tenant: '', id: done.id, metadata: undefined })
    ).rejects.toBeInstanceOf(TaskNotCancelableError);
    // Another party's caller sees nothing, not even through its own client.
    const carol = await v1Client(keys.carol!);
    await expect(carol.getTask({ tenant: '', id: done.id })).rejects.toBeInstanceOf(
      TaskNotFoundError
    );
  });

  it('hides a task of another agent on this agent endpoint (-32001)', async () => {
    let bob: TestWsAgent | undefined;
    try {
      bob = await connectWsAgent(hub.url, keys.bob);
      const toBob = await v1Client(keys.alice!, ids.bob);
      const task = taskOf(await toBob.sendMessage(request('for bob', true)));
      const viaEcho = await v1Client(keys.alice!);
      await expect(viaEcho.getTask({ tenant: '', id: task.id })).rejects.toBeInstanceOf(
        TaskNotFoundError
      );
      await expect(
        viaEcho.cancelTask({ tenant: '', id: task.id, metadata: undefined })
      ).rejects.toBeInstanceOf(TaskNotFoundError);
      expect((await toBob.getTask({ tenant: '', id: task.id })).id).toBe(task.id);
      await toBob.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    } finally {
      await bob?.close();
    }
  });

  it('streams the task, then its events, ending at completed', async () => {
    const c = await v1Client(keys.alice!);
    const events = await collect(c.sendMessageStream(request('stream me')));
    const cases = events.map((e) => e.payload?.$case);
    expect(cases[0]).toBe('task');
    const first = events[0]?.payload;
    expect(first?.$case === 'task' && first.value.status?.state).toBe(
      TaskState.TASK_STATE_SUBMITTED
    );
    expect(cases).toContain('artifactUpdate');
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED
    );
    const states = events.flatMap((e) =>
      e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : []
    );
    expect(states).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
  });

  it('resubscribes to a finished task: the task, then the end of the stream', async () => {
    const c = await v1Client(keys.alice!);
    const done = taskOf(await c.sendMessage(request('resubscribe me')));
    const events = await collect(c.resubscribeTask({ tenant: '', id: done.id }));
    expect(events.map((e) => e.payload?.$case)).toEqual(['task']);
    // Last-Event-ID resumes: 0 replays every recorded event, 2 exactly those after the second.
    const resume = (after: string) =>
      collect(
        c.resubscribeTask(
          { tenant: '', id: done.id },
          { serviceParameters: { 'Last-Event-ID': after } }
        )
      );
    const all = await resume('0');
    expect(all.map((e) => e.payload?.$case)).toContain('artifactUpdate');
    expect(all.at(-1)?.payload?.$case).toBe('statusUpdate');
    expect(await resume('2')).toEqual(all.slice(2));
  });
});

describe('@a2a-js/sdk v0.3 compat client', () => {
  it('talks v0.3 JSON-RPC: send, get, stream, errors', async () => {
    const c = await v03Client(keys.alice!);
    expect(c.protocolVersion).toBe('0.3');
    const task = taskOf(await c.sendMessage(request('hello v0.3')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const again = await c.getTask({ tenant: '', id: task.id });
    expect(again.id).toBe(task.id);
    await expect(c.getTask({ tenant: '', id: 'task-nope' })).rejects.toBeInstanceOf(
      TaskNotFoundError
    );
    const events = await collect(c.sendMessageStream(request('stream v0.3')));
    expect(events[0]?.payload?.$case).toBe('task');
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED
    );
  });

  it('answers v0.3 shapes without A2A-Version: bare kind:task, final on the last event', async () => {
    const sent = await call(
      ECHO,
      keys.alice,
      'message/send',
      {
        message: {
          kind: 'message',
          messageId: `raw-${++seq}`,
          role: 'user',
          parts: [{ kind: 'text', text: 'raw' }],
        },
      },
      null
    );
    expect(sent.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const res = await fetch(`${hub.url}/agents/echo/a2a/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${keys.alice}`,
        'a2a-version': '0.3',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'r1',
        method: 'message/stream',
        params: {
          message: {
            kind: 'message',
            messageId: `raw-${++seq}`,
            role: 'user',
            parts: [{ kind: 'text', text: 'raw stream' }],
          },
        },
      }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const events = parseSse(await res.text());
    expect(events.map((e) => e.id)).toEqual(
      [...events.map((e) => e.id)].sort((a, b) => Number(a) - Number(b))
    );
    const results = events.map(
      (e) => JSON.parse(e.data) as { id: string; result: { kind: string; final?: boolean } }
    );
    expect(results.every((r) => r.id === 'r1')).toBe(true);
    expect(results[0]?.result.kind).toBe('task');
    expect(results.at(-1)?.result).toMatchObject({ kind: 'status-update', final: true });
    expect(results.slice(0, -1).some((r) => r.result.final === true)).toBe(false);
  });
});

describe('JSON-RPC rules of the per-agent endpoint', () => {
  it('refuses a missing key with 401 and -32010', async () => {
    const r = await call(ECHO, undefined, 'GetTask', { id: 'task-1' });
    expect(r.status).toBe(401);
    expect(r.body.error?.code).toBe(-32010);
  });

  it('answers -32009 for an unsupported A2A-Version, with HTTP 200', async () => {
    const r = await call(ECHO, keys.alice, 'GetTask', { id: 'task-1' }, '2.0');
    expect(r.status).toBe(200);
    expect(r.body.error?.code).toBe(-32009);
    expect(r.body.id).toBe(seq);
  });

  it('carries an ErrorInfo array in v1.0 error data, plain data in v0.3', async () => {
    const v1 = await call(ECHO, keys.alice, 'GetTask', { id: 'task-nope' }, '1.0.2');
    expect(v1.body.error).toMatchObject({
      code: -32001,
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'TASK_NOT_FOUND',
          domain: 'a2a-protocol.org',
        },
      ],
    });
    const v03 = await call(ECHO, keys.alice, 'tasks/get', { id: 'task-nope' }, null);
    expect(v03.body.error?.code).toBe(-32001);
    expect(Array.isArray(v03.body.error?.data)).toBe(false);
  });

  it('refuses hub-only methods; push configs without a task and a missing extended card', async () => {
    const respond = await call(ECHO, keys.alice, 'task/respond', { taskId: 'task-1' });
    expect(respond.body.error?.code).toBe(-32601);
    // Push notifications are served (issue 27): params without a task name the missing field.
    const push = await call(ECHO, keys.alice, 'CreateTaskPushNotificationConfig', {});
    expect(push.body.error?.code).toBe(-32602);
    expect(JSON.stringify(push.body.error)).toContain('taskId');
    const legacyPush = await call(ECHO, keys.alice, 'tasks/pushNotificationConfig/get', {}, null);
    expect(legacyPush.body.error?.code).toBe(-32602);
    const extended = await call(ECHO, keys.alice, 'GetExtendedAgentCard', {});
    expect(extended.body.error?.code).toBe(-32007);
  });

  it('takes the target from the path, by alias too, with or without a trailing slash', async () => {
    const r = await call(
      'echo',
      keys.alice,
      'SendMessage',
      { message: { messageId: `p-${++seq}`, role: 'ROLE_USER', parts: [{ text: 'by alias' }] } },
      '1.0',
      'a2a/'
    );
    expect(r.body.result).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
    const unknown = await call('agent-000000000000', keys.alice, 'GetTask', { id: 'task-1' });
    expect(unknown.body.error?.code).toBe(-32016);
  });

  it('lists only the tasks with this path agent', async () => {
    // The list reads the tasks index, which trails the task log by a few milliseconds.
    const list = async (agent: string) => {
      const r = await until(
        () => call(agent, keys.alice, 'ListTasks', { pageSize: 100 }),
        (x) => ((x.body.result?.tasks as unknown[] | undefined)?.length ?? 0) > 0
      );
      expect(r.body.error).toBeUndefined();
      return new Set((r.body.result?.tasks as Array<{ id: string }>).map((t) => t.id));
    };
    const withEcho = await list(ECHO);
    const withBob = await list(ids.bob!);
    expect(withEcho.size).toBeGreaterThan(0);
    expect(withBob.size).toBeGreaterThan(0);
    expect([...withEcho].some((id) => withBob.has(id))).toBe(false);
  });
});

describe('agent cards', () => {
  const cardUrl = (agent: string, file = 'agent-card.json') =>
    `${hub.url}/agents/${agent}/.well-known/${file}`;

  it('serves the v1.0 card with caching headers, and 304 on a matching If-None-Match', async () => {
    const res = await fetch(cardUrl(ECHO), { headers: { 'A2A-Version': '1.0' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toBe('A2A-Version');
    expect(res.headers.get('cache-control')).toBe('max-age=300');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const card = (await res.json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      name: 'Echo',
      capabilities: { streaming: true },
      supportedInterfaces: [
        {
          url: `${PUBLIC_URL}/agents/${ECHO}/a2a`,
          protocolBinding: 'JSONRPC',
          protocolVersion: '1.0',
        },
        {
          url: `${PUBLIC_URL}/agents/${ECHO}/a2a`,
          protocolBinding: 'JSONRPC',
          protocolVersion: '0.3',
        },
      ],
    });
    const again = await fetch(cardUrl(ECHO), {
      headers: { 'A2A-Version': '1.0', 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const changed = await fetch(cardUrl(ECHO), {
      headers: { 'A2A-Version': '1.0', 'If-None-Match': '"stale"' },
    });
    expect(changed.status).toBe(200);
  });

  it('gives the v0.3 card shape to a caller without A2A-Version, under another ETag', async () => {
    const v03 = await fetch(cardUrl(ECHO));
    const card = (await v03.json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      protocolVersion: '0.3',
      url: `${PUBLIC_URL}/agents/${ECHO}/a2a`,
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true },
    });
    expect(card).not.toHaveProperty('supportedInterfaces');
    const v1 = await fetch(cardUrl(ECHO), { headers: { 'A2A-Version': '1.0' } });
    expect(v03.headers.get('etag')).not.toBe(v1.headers.get('etag'));
  });

  it('serves both card paths by alias with the canonical id in the URLs', async () => {
    const byAlias = (await (
      await fetch(cardUrl('echo'), { headers: { 'A2A-Version': '1.0' } })
    ).json()) as { supportedInterfaces: Array<{ url: string }> };
    expect(byAlias.supportedInterfaces[0]?.url).toBe(`${PUBLIC_URL}/agents/${ECHO}/a2a`);
    const registered = await fetch(cardUrl('echo', 'agent.json'));
    expect(registered.status).toBe(200);
    expect(registered.headers.get('etag')).toBeTruthy();
    expect(await registered.json()).toMatchObject({
      id: ECHO,
      name: 'Echo',
      url: `${PUBLIC_URL}/agents/${ECHO}/a2a`,
      version: '1.0.0',
    });
  });

  it('shows a private agent only to keys of its own tenant; others get the same 404', async () => {
    const auth = (k: string | undefined): Record<string, string> =>
      k === undefined ? {} : { authorization: `Bearer ${k}` };
    for (const key of [undefined, keys.alice]) {
      for (const file of ['agent-card.json', 'agent.json']) {
        const res = await fetch(cardUrl(ids.carol!, file), { headers: auth(key) });
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      }
    }
    const missing = await fetch(cardUrl('agent-000000000000'), { headers: auth(keys.alice) });
    expect(missing.status).toBe(404);
    const own = await fetch(cardUrl(ids.carol!), {
      headers: { ...auth(keys.carol), 'A2A-Version': '1.0' },
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, max-age=300');
    expect(await own.json()).toMatchObject({ name: 'carol', description: "carol's agent" });
  });
});

function parseSse(text: string): Array<{ id?: string; data: string }> {
  const out: Array<{ id?: string; data: string }> = [];
  for (const block of text.split('\n\n')) {
    let id: string | undefined;
    let data: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data = line.slice(6);
    }
    if (data !== undefined) out.push(id === undefined ? { data } : { id, data });
  }
  return out;
}
