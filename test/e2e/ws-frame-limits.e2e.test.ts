// WebSocket frames are held to BODY_LIMIT_BYTES like HTTP bodies (issue 18 item 8): a frame over
// it is answered -32018 naming the limit (a JSON-RPC error with the frame's id, or an `error`
// frame) and changes nothing; only SendMessage to pixel may be larger, as over HTTP. uWS drops
// the connection on frames beyond the largest limit plus 1 MiB: without a close frame (the client
// sees 1006), since uWS refuses the frame before the hub sees it. Otherwise the socket stays usable.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer } from '../support/nats-server.js';
import { startAgentHub, type AgentHub } from '../support/official-agents.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';

const MiB = 1024 * 1024;
const LIMIT = MiB; // BODY_LIMIT_BYTES default
const pad = (bytes: number) => 'x'.repeat(bytes);

let h: AgentHub;
let sender: { id: string; key: string };
let bob: { id: string; key: string };

beforeAll(async () => {
  // NATS takes large messages, so only the hub's own limits are in play.
  const conf = join(mkdtempSync(join(tmpdir(), 'ws-limits-nats-')), 'nats.conf');
  writeFileSync(conf, 'max_payload: 33554432\n');
  h = await startAgentHub({}, await startNatsServer({ extraArgs: ['-c', conf] }));
  const t = await h.tenant('Acme');
  sender = await h.agent(t, 'sender');
  bob = await h.agent(t, 'bob');
});

afterAll(async () => {
  await h?.close();
});

/** The next JSON-RPC answer (a frame without `type`) on the socket. */
function nextRpc(agent: TestWsAgent, id: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const on = (data: Buffer) => {
      const f = JSON.parse(data.toString()) as Record<string, unknown>;
      if (f.jsonrpc && f.id === id) {
        agent.ws.off('message', on);
        resolve(f);
      }
    };
    agent.ws.on('message', on);
  });
}

async function sendRpc(agent: TestWsAgent, frame: Record<string, unknown>) {
  const answer = nextRpc(agent, frame.id ?? null);
  agent.send(frame);
  return answer;
}

const sendMessage = (id: unknown, agentId: string, bytes: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'SendMessage',
  params: { message: text(pad(bytes)), configuration: { agentId } },
});

async function tasksOf(key: string): Promise<unknown[]> {
  const r = await rpc<{ tasks: unknown[] }>(h.url, key, 'ListTasks', {});
  return r.result!.tasks;
}

describe('WebSocket frames over the body limit', () => {
  it('answer a JSON-RPC frame with -32018 and its id, and store nothing', async () => {
    const ws = await connectWsAgent(h.url, sender.key);
    for (const [id, bytes] of [
      [7, LIMIT + 1],
      ['big', 3 * MiB],
      [9, 9 * MiB],
    ] as const) {
      const r = await sendRpc(ws, sendMessage(id, bob.id, bytes));
      expect(r).toMatchObject({
        id,
        error: { code: -32018, data: { limit: LIMIT } },
      });
      expect((r.error as { message: string }).message).toMatch(/1048576 bytes/);
    }
    expect(await tasksOf(sender.key)).toEqual([]);
    // The socket is still served, and a frame within the limit is handled.
    const ok = await sendRpc(ws, sendMessage(10, bob.id, 1000));
    expect(ok.error).toBeUndefined();
    expect(ok.result).toMatchObject({ status: { state: expect.any(String) } });
    await ws.close();
  });

  it('answer a custom frame with an error frame naming its task, and change nothing', async () => {
    const agent = await connectWsAgent(h.url, bob.key);
    const pending = rpc(h.url, sender.key, 'SendMessage', {
      message: text('hello'),
      configuration: { agentId: bob.id, blocking: false },
    });
    const m = await agent.next('message');
    await pending;
    agent.send({
      type: 'task_response',
      taskId: m.taskId,
      status: { state: 'completed' },
      artifact: { parts: [{ kind: 'text', text: pad(3 * MiB) }] },
    });
    expect(await agent.next('error')).toMatchObject({
      error: 'PAYLOAD_TOO_LARGE',
      limit: LIMIT,
      taskId: m.taskId,
      message: expect.stringMatching(/exceeds the body limit of 1048576 bytes/),
    });
    // The reply is not taken; the task fails with the reason rather than wait for ever.
    let task = await rpc(h.url, sender.key, 'GetTask', { id: m.taskId as string });
    for (
      let i = 0;
      i < 100 && (task.result as { status: { state: string } }).status.state !== 'failed';
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
      task = await rpc(h.url, sender.key, 'GetTask', { id: m.taskId as string });
    }
    expect(task.result).toMatchObject({ status: { state: 'failed' } });
    expect(JSON.stringify(task.result)).toMatch(/reply too large to store: Frame of \d+ bytes/);
    agent.send({ type: 'ping' });
    await agent.next('pong');
    await agent.close();
  });

  it('admit a large SendMessage to pixel, as HTTP does', async () => {
    const ws = await connectWsAgent(h.url, sender.key);
    const r = await sendRpc(ws, sendMessage(11, 'pixel', 3 * MiB));
    // Not valid pixel input, but past the body limit: pixel itself answers.
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({ status: { state: expect.any(String) } });
    await ws.close();
  });

  it('drop the connection on a frame beyond the largest limit plus headroom', async () => {
    // An agent of its own, so the count is not raced by the index catching up on earlier tests.
    const carol = await h.agent(await h.tenant('Carol Org'), 'carol');
    const ws = await connectWsAgent(h.url, carol.key);
    const closed = new Promise<number>((r) => ws.ws.once('close', (code) => r(code)));
    ws.send(sendMessage(12, 'pixel', 12 * MiB));
    expect(await closed).toBe(1006);
    // A fence: once the index shows this task, it would show one the dropped frame had made.
    const fence = await rpc(h.url, carol.key, 'SendMessage', {
      message: text('fence'),
      configuration: { agentId: 'echo', blocking: true },
    });
    const fenceId = (fence.result as { id: string }).id;
    let tasks = await tasksOf(carol.key);
    for (let i = 0; i < 100 && tasks.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      tasks = await tasksOf(carol.key);
    }
    expect(tasks.map((t) => (t as { id: string }).id)).toEqual([fenceId]);
  });
});
