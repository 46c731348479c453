// Task streams and the SSE writer on a real uWS gateway with a scripted task feed: subscribe before
// read, each rev once and in order, the end at a settled state, release on hang-up, error events,
// heartbeats, and backpressure from a client that stops reading.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import type { Task, TaskEventRecord, TaskStateName } from '../../runtime/protocol/index.js';
import type { RpcHandler } from '../../gateway/deps.js';
import { StreamingResult } from '../../gateway/rpc/streaming.js';
import { startTestGateway, type TestGateway } from '../../gateway/test-gateway.js';
import { SseWriter, type SseOptions } from '../../gateway/sse/sse-writer.js';
import { hubStreamCodec, v1StreamCodec } from '../../gateway/sse/stream-codecs.js';
import {
  taskStream,
  type TaskFeed,
  type TaskStreamOptions,
} from '../../gateway/sse/task-stream.js';

const T0 = Date.UTC(2025, 0, 1);
const principal = { kind: 'agent', agentId: 'agent-000000000001', tenantId: 'tn-1' } as const;

function status(rev: number, state: TaskStateName): TaskEventRecord {
  return { rev, type: 'status', status: { state, timestamp: T0 + rev } };
}
function chunk(rev: number, text: string): TaskEventRecord {
  return {
    rev,
    type: 'artifact',
    artifactId: 'a1',
    append: rev > 3,
    lastChunk: false,
    parts: [{ kind: 'text', text }],
  };
}

/** The task after `events` (revs 1..n, in order). */
function task(events: TaskEventRecord[]): Task {
  const states = events.flatMap((e) => (e.type === 'status' ? [e.status] : []));
  return {
    id: 'task-1',
    contextId: 'ctx-1',
    senderId: principal.agentId,
    recipientId: 'agent-000000000002',
    senderTenantId: 'tn-1',
    recipientTenantId: 'tn-1',
    createdAt: T0,
    status: states.at(-1)!,
    messages: [],
    artifacts: [],
    events,
    rev: events.at(-1)!.rev,
  };
}

const E = [
  status(1, 'submitted'),
  status(2, 'working'),
  chunk(3, 'one'),
  chunk(4, 'two'),
  status(5, 'completed'),
];

/** A feed the test drives: it records calls, pushes live tasks and settles the read. */
function scriptedFeed() {
  const calls: string[] = [];
  const listeners = new Set<(t: Task) => void>();
  let settle: { resolve: (t: Task) => void; reject: (e: unknown) => void } | undefined;
  const feed: TaskFeed = {
    subscribe(_taskId, onTask) {
      calls.push('subscribe');
      listeners.add(onTask);
      return () => {
        calls.push('unsubscribe');
        listeners.delete(onTask);
      };
    },
    getForCaller() {
      calls.push('read');
      return new Promise((resolve, reject) => (settle = { resolve, reject }));
    },
  };
  return {
    feed,
    calls,
    push: (t: Task) => listeners.forEach((l) => l(t)),
    read: (t: Task) => settle?.resolve(t),
    fail: (e: unknown) => settle?.reject(e),
  };
}

interface Received {
  readonly raw: string[];
  readonly events: Array<{ id?: number; data: Record<string, unknown> }>;
  readonly ended: Promise<void>;
  drop(): void;
}

/** POSTs and reads the SSE body as it arrives. */
async function open(url: string, method = 'Stream'): Promise<Received> {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method }),
  });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const raw: string[] = [];
  const events: Received['events'] = [];
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
          raw.push(block);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data !== undefined) {
            const parsed = JSON.parse(data) as Record<string, unknown>;
            events.push(id === undefined ? { data: parsed } : { id: Number(id), data: parsed });
          }
        }
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
  })();
  return { raw, events, ended, drop: () => abort.abort() };
}

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

let gw: TestGateway | undefined;
afterEach(() => {
  gw?.close();
  gw = undefined;
});

/** A gateway whose POST /a2a method `Stream` answers with the given stream. */
async function serve(stream: () => StreamingResult): Promise<string> {
  const handler: RpcHandler = () => Promise.resolve(stream());
  gw = await startTestGateway({ rpc: new Map([['Stream', handler]]) });
  return `${gw.base}/a2a`;
}

function options(feed: TaskFeed, extra: Partial<TaskStreamOptions> = {}): TaskStreamOptions {
  return {
    feed,
    principal,
    taskId: 'task-1',
    codec: v1StreamCodec,
    requestId: 'req-1',
    log: silentLogger,
    ...extra,
  };
}

describe('taskStream', () => {
  it('subscribes before it reads, keeps changes that arrive first, and sends each rev once', async () => {
    const s = scriptedFeed();
    const url = await serve(() => taskStream(options(s.feed, { after: 1 })));
    const r = await open(url);
    await until(() => s.calls.includes('read'));
    expect(s.calls).toEqual(['subscribe', 'read']);
    s.push(task(E.slice(0, 3)));
    s.read(task(E.slice(0, 2)));
    await until(() => r.events.length === 2);
    s.push(task(E.slice(0, 3)));
    s.push(task(E.slice(0, 5)));
    await r.ended;
    expect(r.events.map((e) => e.id)).toEqual([2, 3, 4, 5]);
    expect(r.events.map((e) => Object.keys(e.data.result as object)[0])).toEqual([
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(r.events.every((e) => e.data.id === 7 && e.data.jsonrpc === '2.0')).toBe(true);
    expect(s.calls.at(-1)).toBe('unsubscribe');
  });

  it('starts a fresh subscription with the task as it stands, then the events after it', async () => {
    const s = scriptedFeed();
    const url = await serve(() => taskStream(options(s.feed, { codec: hubStreamCodec })));
    const r = await open(url);
    await until(() => s.calls.includes('read'));
    s.read(task(E.slice(0, 3)));
    await until(() => r.events.length === 1);
    s.push(task(E));
    await r.ended;
    expect(r.events.map((e) => e.id)).toEqual([3, 4, 5]);
    expect(r.events[0]?.data.result).toMatchObject({
      task: { kind: 'task', status: { state: 'working' } },
    });
    expect(r.events[2]?.data.result).toEqual({
      statusUpdate: expect.objectContaining({ status: expect.anything(), final: true }) as unknown,
    });
  });

  it('ends at input-required, marking the event final', async () => {
    const s = scriptedFeed();
    const url = await serve(() => taskStream(options(s.feed, { after: 2, codec: hubStreamCodec })));
    const r = await open(url);
    await until(() => s.calls.includes('read'));
    s.read(task([...E.slice(0, 2), status(3, 'input-required')]));
    await r.ended;
    expect(r.events).toHaveLength(1);
    expect(r.events[0]?.data.result).toMatchObject({
      statusUpdate: { status: { state: 'input-required' }, final: true },
    });
  });

  it('sends only the first task when it is already settled, without subscribing', async () => {
    const s = scriptedFeed();
    const url = await serve(() => taskStream(options(s.feed, { first: task(E) })));
    const r = await open(url);
    await r.ended;
    expect(r.events.map((e) => e.id)).toEqual([5]);
    expect(s.calls).toEqual([]);
  });

  it('releases the subscription when the client goes away', async () => {
    const s = scriptedFeed();
    const url = await serve(() => taskStream(options(s.feed)));
    const r = await open(url);
    await until(() => s.calls.includes('read'));
    s.read(task(E.slice(0, 2)));
    await until(() => r.events.length === 1);
    r.drop();
    await until(() => s.calls.includes('unsubscribe'));
    // A late change finds nobody listening.
    s.push(task(E));
  });

  it('turns a failure after the start into one JSON-RPC error event, then ends', async () => {
    const s = scriptedFeed();
    const url = await serve(() => taskStream(options(s.feed, { after: 0 })));
    const r = await open(url);
    await until(() => s.calls.includes('read'));
    s.fail(new HubError('TASK_NOT_FOUND', 'no task task-1'));
    await r.ended;
    expect(r.events).toHaveLength(1);
    expect(r.events[0]?.id).toBeUndefined();
    expect(r.events[0]?.data).toMatchObject({
      id: 7,
      error: { code: -32001, data: [{ reason: 'TASK_NOT_FOUND' }] },
    });
    expect(s.calls.at(-1)).toBe('unsubscribe');
  });
});

describe('SseWriter', () => {
  /** A stream that hands its writer to the test. */
  async function writer(opts: SseOptions): Promise<{ url: string; sse: () => SseWriter }> {
    let current: SseWriter | undefined;
    const url = await serve(
      () =>
        new StreamingResult((res, exchange) => {
          current = new SseWriter(res, exchange, opts);
        })
    );
    return {
      url,
      sse: () => {
        if (!current) throw new Error('no stream yet');
        return current;
      },
    };
  }

  it('answers with event-stream headers and sends heartbeat comments', async () => {
    const w = await writer({ heartbeatMs: 20 });
    const r = await open(w.url);
    await until(() => r.raw.filter((b) => b === ': keep-alive').length >= 2);
    expect(r.raw[0]).toBe('retry: 2000');
    w.sse().end();
    await r.ended;
  });

  it('queues behind a client that stops reading and delivers everything in order', async () => {
    const w = await writer({ maxQueuedBytes: 64 * 1024 * 1024 });
    const client = await rawClient(w.url);
    const big = 'x'.repeat(256 * 1024);
    client.pause();
    for (let i = 1; i <= 64; i++) w.sse().event(i, `{"n":${i},"pad":"${big}"}`);
    w.sse().end();
    client.resume();
    const body = await client.done;
    const ids = [...body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
  });

  it('closes the connection when too much waits behind a slow client', async () => {
    const w = await writer({ maxQueuedBytes: 512 * 1024 });
    const client = await rawClient(w.url);
    client.pause();
    let closed = false;
    w.sse().onClose(() => (closed = true));
    const big = 'x'.repeat(256 * 1024);
    for (let i = 1; i <= 64 && !closed; i++) w.sse().event(i, `"${big}"`);
    expect(closed).toBe(true);
    expect(w.sse().isOpen).toBe(false);
    client.resume();
    await client.done;
  });
});

/** An HTTP/1.1 client on a plain socket, so the test controls when bytes are read. */
async function rawClient(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'Stream' });
  socket.write(
    `POST /a2a HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
  );
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  // Wait for the response to start, so the stream exists before the test writes to it.
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  const done = new Promise<string>((resolve) => {
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  return {
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    done,
  };
}
