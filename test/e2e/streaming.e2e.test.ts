// SSE streams across two hub nodes on one NATS and one database: a client streams a task from
// node A, drops the connection after the second event, and resumes on node B with SubscribeToTask
// and Last-Event-ID; it must get exactly the events it missed, then the live ones (no gap, no
// duplicate). Both the standard endpoint (A2A v1.0) and the hub dialect on POST /a2a.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import type { Task } from '../../runtime/protocol/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, type Principal } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let a: Hub;
let b: Hub;
let bob: TestWsAgent;
let alice: Principal;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};
let seq = 0;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  const env = (node: string) => testHubConfig(nats, db, { NODE_ID: node });
  a = await startHub(env('node-a'), silentLogger);
  b = await startHub(env('node-b'), silentLogger);
  await partitionsSettled([a, b], 8);
  const t = await createTenant(a.sql, { name: 'Acme' });
  for (const name of ['alice', 'bob']) {
    const c = await createAgent(a.sql, { tenantId: t.id, name });
    keys[name] = c.apiKey;
    ids[name] = c.agent.id;
  }
  alice = { kind: 'agent', agentId: ids.alice!, tenantId: t.id };
  // The recipient lives on node B; the sender streams from A, so delivery crosses nodes too.
  bob = await connectWsAgent(b.url, keys.bob);
  await until(() => a.presence.isOnline(ids.bob!));
});

afterAll(async () => {
  await bob?.close();
  await a?.stop();
  await b?.stop();
  await nats?.close();
  await db?.drop();
});

interface SseEvent {
  id?: number;
  data: { jsonrpc: string; id: unknown; result?: Record<string, unknown>; error?: unknown };
}

/** An SSE response read as it arrives: events so far, the next one, the end, and a hang-up. */
interface OpenStream {
  readonly status: number;
  readonly contentType: string | null;
  readonly events: SseEvent[];
  next(): Promise<SseEvent>;
  readonly ended: Promise<void>;
  drop(): void;
}

async function openStream(
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string>
): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${keys.alice}`,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: `s-${++seq}`, method, params }),
  });
  const events: SseEvent[] = [];
  let consumed = 0;
  let wake: (() => void) | undefined;
  const ended = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = parseBlock(block);
          if (event) {
            events.push(event);
            wake?.();
          }
        }
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    } finally {
      wake?.();
    }
  })();
  ended.catch(() => undefined);
  let finished = false;
  void ended.finally(() => (finished = true));
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    async next() {
      while (consumed >= events.length) {
        if (finished) throw new Error(`stream ended after ${events.length} events`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 200);
        });
      }
      return events[consumed++]!;
    },
    ended,
    drop: () => abort.abort(),
  };
}

function parseBlock(block: string): SseEvent | undefined {
  let id: number | undefined;
  let data: string | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith('id: ')) id = Number(line.slice(4));
    else if (line.startsWith('data: ')) data = line.slice(6);
  }
  if (data === undefined) return undefined;
  const parsed = JSON.parse(data) as SseEvent['data'];
  return id === undefined ? { data: parsed } : { id, data: parsed };
}

/** Bob's reply to one task, chunk by chunk. */
function chunk(taskId: unknown, n: number, last = false) {
  bob.send({
    type: 'task_response',
    taskId,
    status: { state: last ? 'completed' : 'working' },
    artifact: { artifactId: 'story', name: 'story', parts: [{ kind: 'text', text: `part ${n};` }] },
    lastChunk: last,
  });
}

async function taskNow(taskId: string): Promise<Task> {
  return a.tasks.getForCaller(alice, taskId);
}

/** Waits until the task has recorded `rev` (so a chunk has really landed before the next step). */
async function untilRev(taskId: string, rev: number): Promise<void> {
  await until(async () => (await taskNow(taskId)).rev >= rev);
}

describe('SSE resume across hub nodes', () => {
  it('A2A v1.0: drop on node A after two events, resume on node B with exactly the missed events', async () => {
    const v1 = { 'a2a-version': '1.0' };
    const first = await openStream(
      `${a.url}/agents/${ids.bob}/a2a`,
      'SendStreamingMessage',
      {
        message: { messageId: `m-${++seq}`, role: 'ROLE_USER', parts: [{ text: 'tell a story' }] },
      },
      v1
    );
    expect(first.status).toBe(200);
    expect(first.contentType).toBe('text/event-stream');
    const e1 = await first.next();
    const e2 = await first.next();
    const task = e1.data.result?.task as { id: string; status: { state: string } };
    expect(task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(e2.data.result).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_WORKING' } },
    });
    expect([e1.id, e2.id]).toEqual([1, 2]);
    first.drop();
    await first.ended;

    // Bob keeps writing while the client is away: these are the events it must get back.
    const m = await bob.next('message');
    expect(m.taskId).toBe(task.id);
    // Each chunk is stored before the next is sent, so they are appended in this order.
    chunk(task.id, 1);
    await untilRev(task.id, 3);
    chunk(task.id, 2);
    await untilRev(task.id, 4);

    const resumed = await openStream(
      `${b.url}/agents/${ids.bob}/a2a`,
      'SubscribeToTask',
      { id: task.id },
      {
        ...v1,
        'last-event-id': String(e2.id),
      }
    );
    expect(resumed.status).toBe(200);
    const missed = [await resumed.next(), await resumed.next()];
    expect(missed.map((e) => e.id)).toEqual([3, 4]);
    // Then live, from a node that may not own the task.
    chunk(task.id, 3);
    await untilRev(task.id, 5);
    chunk(task.id, 4, true);
    await resumed.ended;

    const got = resumed.events;
    const done = await taskNow(task.id);
    expect(done.status.state).toBe('completed');
    expect(got.map((e) => e.id)).toEqual(done.events.filter((e) => e.rev > 2).map((e) => e.rev));
    expect(got.map((e) => Object.keys(e.data.result ?? {})[0])).toEqual([
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    const texts = got.flatMap((e) => {
      const u = e.data.result?.artifactUpdate as
        { artifact: { parts: Array<{ text: string }> } } | undefined;
      return u ? u.artifact.parts.map((p) => p.text) : [];
    });
    expect(texts).toEqual(['part 1;', 'part 2;', 'part 3;', 'part 4;']);
    expect(got.at(-1)?.data.result).toMatchObject({
      statusUpdate: { taskId: task.id, status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(got.every((e) => e.data.id === `s-${seq}`)).toBe(true);
  });

  it('hub dialect on POST /a2a: the same resume, with hub-dialect tasks and events', async () => {
    const first = await openStream(
      `${a.url}/a2a`,
      'message/stream',
      {
        message: { role: 'user', parts: [{ kind: 'text', text: 'another story' }] },
        configuration: { agentId: ids.bob },
      },
      {}
    );
    expect(first.contentType).toBe('text/event-stream');
    const e1 = await first.next();
    const e2 = await first.next();
    const task = (e1.data.result as { task: { id: string } }).task;
    expect(task).toMatchObject({
      kind: 'task',
      status: { state: 'submitted' },
      metadata: { agentId: ids.bob },
    });
    expect(e2.data.result).toEqual({
      statusUpdate: expect.objectContaining({
        taskId: task.id,
        status: expect.objectContaining({ state: 'working' }) as unknown,
        final: false,
      }) as unknown,
    });
    first.drop();
    await first.ended;

    await bob.next('message');
    chunk(task.id, 1);
    await untilRev(task.id, 3);

    const resumed = await openStream(
      `${b.url}/a2a`,
      'tasks/resubscribe',
      { id: task.id },
      {
        'last-event-id': String(e2.id),
      }
    );
    expect((await resumed.next()).id).toBe(3);
    chunk(task.id, 2, true);
    await resumed.ended;

    const got = resumed.events;
    const done = await taskNow(task.id);
    expect(got.map((e) => e.id)).toEqual(done.events.filter((e) => e.rev > 2).map((e) => e.rev));
    expect(got[0]?.data.result).toMatchObject({
      artifactUpdate: {
        taskId: task.id,
        artifact: {
          artifactId: 'story',
          id: 'story',
          name: 'story',
          parts: [{ kind: 'text', text: 'part 1;' }],
        },
        append: false,
        lastChunk: false,
      },
    });
    expect(got.at(-1)?.data.result).toMatchObject({
      statusUpdate: { status: { state: 'completed' }, final: true },
    });
  });

  it('ends the stream at input-required, and a fresh SubscribeToTask starts with the task', async () => {
    const stream = await openStream(
      `${b.url}/a2a`,
      'SendStreamingMessage',
      {
        message: { role: 'user', parts: [{ kind: 'text', text: 'book a table' }] },
        configuration: { agentId: ids.bob },
      },
      {}
    );
    const e1 = await stream.next();
    const taskId = (e1.data.result as { task: { id: string } }).task.id;
    await bob.next('message');
    bob.send({
      type: 'task_response',
      taskId,
      status: { state: 'input-required', message: 'how many?' },
    });
    await stream.ended;
    expect(stream.events.at(-1)?.data.result).toMatchObject({
      statusUpdate: { status: { state: 'input-required', message: 'how many?' }, final: true },
    });

    const again = await openStream(`${a.url}/a2a`, 'SubscribeToTask', { id: taskId }, {});
    await again.ended;
    expect(again.events).toHaveLength(1);
    expect(again.events[0]?.data.result).toMatchObject({
      task: { kind: 'task', status: { state: 'input-required' } },
    });
  });

  it('refuses before streaming: -32001 for a stranger, -32602 for a bad Last-Event-ID', async () => {
    const r = await fetch(`${a.url}/a2a`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${keys.bob}`,
        'last-event-id': 'abc',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SubscribeToTask',
        params: { id: 'task-nope' },
      }),
    });
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const nope = await fetch(`${b.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.bob}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tasks/resubscribe',
        params: { id: 'task-nope' },
      }),
    });
    expect(((await nope.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });
});
