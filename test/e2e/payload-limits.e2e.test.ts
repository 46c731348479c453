// Messages and replies that fit the body limit but not NATS (issue 18 item 2). On a NATS server
// with its default 1 MB max_payload a task's record (one NATS message) cannot hold a 700 KB
// message and its echo: such a send is refused up front with -32018 / 413, naming the limit, and
// leaves no task; the partition keeps serving; a message to an offline agent is refused the same
// way; an agent's reply the task cannot store fails the task with the reason.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, subjects, partitionLabel } from '../../runtime/bus/index.js';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { rpc, text } from '../support/rpc.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { createAgent } from '../../infra/db/index.js';

let h: AgentHub;
type Name = 'alice' | 'bob' | 'carol';
const keys = {} as Record<Name, string>;
const ids = {} as Record<Name, string>;
const open: TestWsAgent[] = [];
let httpAgent: Server | undefined;
let tenant = '';

const KB = 1000;
const pad = (bytes: number) => 'x'.repeat(bytes);

beforeAll(async () => {
  h = await startAgentHub(); // its own nats-server, default max_payload (1 MB)
  expect(h.hub.bus.nc.info?.max_payload).toBe(1024 * 1024);
  tenant = await h.tenant('Payload');
  for (const name of ['alice', 'bob', 'carol'] as const) {
    const a = await h.agent(tenant, name);
    keys[name] = a.key;
    ids[name] = a.id;
  }
});

afterAll(async () => {
  for (const a of open) await a.close().catch(() => undefined);
  httpAgent?.close();
  await h?.close();
});

/** Task snapshots stored in every partition's log. */
async function storedTasks(): Promise<number> {
  let n = 0;
  for (let p = 0; p < h.hub.config.partitions; p++) {
    const label = partitionLabel(p, h.hub.config.partitions);
    const info = await h.hub.bus.jsm.streams.info(streams.partition(label), {
      subjects_filter: `hubd.${label}.s.task.>`,
    });
    n += Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  }
  return n;
}

/** Queued messages in every partition's log. */
async function storedQueued(): Promise<number> {
  let n = 0;
  for (let p = 0; p < h.hub.config.partitions; p++) {
    const label = partitionLabel(p, h.hub.config.partitions);
    const info = await h.hub.bus.jsm.streams.info(streams.partition(label), {
      subjects_filter: subjects.queuedAll(label),
    });
    n += Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  }
  return n;
}

const handovers = async () =>
  (await h.hub.metrics.partitionHandovers.get()).values.reduce((a, v) => a + v.value, 0);

describe('payloads that fit the body limit but not NATS', () => {
  it('refuses a 700 KB message to echo up front with -32018 / 413 naming the limit; no task exists', async () => {
    const before = await storedTasks();
    const r = await rpc(h.url, keys.alice, 'SendMessage', {
      message: text(pad(700 * KB)),
      configuration: { agentId: 'echo' },
    });
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe(-32018);
    expect(r.error?.message).toMatch(/exceeds the \d+ bytes this hub accepts per message/);
    expect(r.error?.message).toMatch(/NATS max_payload \(1048576 bytes\)/);
    expect(r.error?.data).toMatchObject({ limit: expect.any(Number), maxPayload: 1048576 });
    expect(await storedTasks()).toBe(before);

    // The sender's partition serves its next task at once, and was never given up.
    const ok = await ask(h.url, keys.alice, 'echo', 'still here');
    expect(ok.state, ok.statusText).toBe('completed');
    expect(ok.text).toContain('still here');
    expect(await handovers()).toBe(0);
  });

  it('takes a message of a third of max_payload to echo and back', async () => {
    const r = await ask(h.url, keys.alice, 'echo', pad(300 * KB));
    expect(r.error).toBeUndefined();
    expect(r.state, r.statusText).toBe('completed');
    expect(r.text.length).toBeGreaterThanOrEqual(300 * KB);
  });

  it('refuses a 0.9 MB message to an offline agent with -32018, not -32603; nothing is queued', async () => {
    const [tasks, queued] = [await storedTasks(), await storedQueued()];
    const r = await rpc(h.url, keys.alice, 'SendMessage', {
      message: text(pad(900 * KB)),
      configuration: { agentId: ids.carol },
    });
    expect(r.status).toBe(413);
    expect(r.error?.code).toBe(-32018);
    expect(r.error?.message).toMatch(/NATS max_payload \(1048576 bytes\)/);
    expect(await storedTasks()).toBe(tasks);
    expect(await storedQueued()).toBe(queued);
  });

  it("fails the task with a reason when a WebSocket agent's 1.1 MB reply cannot be stored", async () => {
    const bob = await connectWsAgent(h.url, keys.bob);
    open.push(bob);
    const pending = rpc(h.url, keys.alice, 'SendMessage', {
      message: text('send me a lot'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bob.next('message');
    bob.send({
      type: 'task_response',
      taskId: m.taskId,
      status: { state: 'completed' },
      artifact: { artifactId: 'big', parts: [{ kind: 'text', text: pad(1100 * KB) }] },
      lastChunk: true,
    });
    const refused = await bob.next('error');
    expect(refused).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', taskId: m.taskId });
    // Over BODY_LIMIT_BYTES too: the gateway refuses the frame unread, naming that limit.
    expect(refused.message).toMatch(/exceeds the (body limit of )?\d+ bytes/);
    const r = await pending;
    expect(r.result).toMatchObject({ id: m.taskId, status: { state: 'failed' } });
    expect(JSON.stringify(r.result)).toMatch(/reply too large to store/);
    expect(await handovers()).toBe(0);
  });

  it('fails the task when a reply fits NATS alone but not beside the task (600 KB, twice)', async () => {
    const bob = open[0]!;
    const pending = rpc(h.url, keys.alice, 'SendMessage', {
      message: text('and again'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bob.next('message');
    bob.send({
      type: 'task_response',
      taskId: m.taskId,
      status: { state: 'completed' },
      artifact: { artifactId: 'big', parts: [{ kind: 'text', text: pad(600 * KB) }] },
      lastChunk: true,
    });
    const refused = await bob.next('error');
    expect(refused).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', taskId: m.taskId });
    expect(refused.message).toMatch(/NATS max_payload 1048576 bytes/);
    const r = await pending;
    expect(r.result).toMatchObject({ id: m.taskId, status: { state: 'failed' } });
    expect(JSON.stringify(r.result)).toMatch(/reply too large to store/);

    // The partition goes on: a small reply on the same pair completes.
    const next = rpc(h.url, keys.alice, 'SendMessage', {
      message: text('small one'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m2 = await bob.next('message');
    bob.send({
      type: 'task_response',
      taskId: m2.taskId,
      status: { state: 'completed' },
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'fine' }] },
      lastChunk: true,
    });
    expect((await next).result).toMatchObject({ status: { state: 'completed' } });
    const counted = (await h.hub.metrics.writesRefused.get()).values;
    expect(counted).toContainEqual(
      expect.objectContaining({
        labels: expect.objectContaining({ kind: 'task', reason: 'too_large' }),
      })
    );
  });

  it('refuses a continuation that would grow the task past the limit; the task still waits', async () => {
    const bob = open[0]!;
    const first = rpc(h.url, keys.alice, 'SendMessage', {
      message: text('what should I read?'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bob.next('message');
    bob.send({
      type: 'task_response',
      taskId: m.taskId,
      status: { state: 'input-required', message: 'paste it' },
      artifact: { artifactId: 'draft', parts: [{ kind: 'text', text: pad(300 * KB) }] },
      lastChunk: true,
    });
    expect((await first).result).toMatchObject({ status: { state: 'input-required' } });
    const more = await rpc(h.url, keys.alice, 'SendMessage', {
      message: { ...text(pad(300 * KB)), taskId: m.taskId },
      configuration: { blocking: true },
    });
    expect(more.status).toBe(413);
    expect(more.error?.code).toBe(-32018);
    expect(more.error?.message).toMatch(/start a new task/);
    const got = await rpc(h.url, keys.alice, 'GetTask', { id: m.taskId });
    expect(got.result).toMatchObject({ status: { state: 'input-required' } });
    const canceled = await rpc(h.url, keys.alice, 'CancelTask', { id: m.taskId });
    expect(canceled.result).toMatchObject({ status: { state: 'canceled' } });
  });

  it("fails the task with a reason when an HTTP agent's answer cannot be stored", async () => {
    // Answers every SendMessage with a 600 KB string: the task would hold it twice.
    httpAgent = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: pad(600 * KB) }));
      });
    });
    await new Promise<void>((r) => httpAgent!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(httpAgent.address() as AddressInfo).port}/`;
    const agent = await createAgent(h.hub.sql, { tenantId: tenant, name: 'verbose', url });
    const r = await rpc(h.url, keys.alice, 'SendMessage', {
      message: text('tell me everything'),
      configuration: { agentId: agent.agent.id, blocking: true },
    });
    expect(r.result).toMatchObject({ status: { state: 'failed' } });
    expect(JSON.stringify(r.result)).toMatch(/reply too large to store.*NATS max_payload 1048576/);
    expect(await handovers()).toBe(0);
  });
});
