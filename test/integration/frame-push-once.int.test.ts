// A message is written to one socket at most once, whoever pushes it and through whichever node.
// Two pushes of one message meet at the socket's node when a node paused past a push's timeout
// wakes and writes it while the owner has the queue push it again (the pause fault test saw
// pairs of frames within 1 ms at SIGCONT); the second must not reach the agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { silentLogger } from '../../runtime/log/index.js';
import { connectBus, provision, type Bus } from '../../runtime/bus/index.js';
import {
  ConnectionRegistry,
  FrameRouter,
  Presence,
  type AgentConnection,
} from '../../actors/index.js';

let nats: NatsServerHandle;
let bus: Bus;
const live = () => ['n1', 'n2'];
let p1: Presence;
let p2: Presence;
let holder: FrameRouter;
let other: FrameRouter;
const conns = new ConnectionRegistry();
let dropped = 0;

/**
 * A socket that keeps what it was written, refuses while backed up, and can close before a frame
 * it accepted is written (as the gateway's socket does when the close comes within the turn).
 */
function socket(agentId: string, connId: string) {
  const written: unknown[] = [];
  let busy = false;
  let closing = false;
  const conn: AgentConnection = {
    agentId,
    connId,
    tenantId: 't1',
    push(frame) {
      if (busy) return 'busy';
      written.push(frame);
      return 'sent';
    },
    written() {
      if (!closing) return Promise.resolve(true);
      written.pop();
      return Promise.resolve(false);
    },
    close() {},
  };
  return {
    conn,
    written,
    setBusy: (b: boolean) => (busy = b),
    setClosing: (c: boolean) => (closing = c),
  };
}

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({
    servers: [nats.url],
    name: 'push-once',
    replicas: 1,
    log: silentLogger,
  });
  await provision(bus, { partitions: 2, replicas: 1, nodeTtlMs: 5_000 });
  p1 = new Presence({ bus, nodeId: 'n1', log: silentLogger, liveNodes: live });
  p2 = new Presence({ bus, nodeId: 'n2', log: silentLogger, liveNodes: live });
  await p1.start();
  await p2.start();
  holder = new FrameRouter(bus, 'n1', conns, p1, silentLogger, { inc: () => dropped++ });
  other = new FrameRouter(bus, 'n2', new ConnectionRegistry(), p2, silentLogger);
  holder.start();
});

afterAll(async () => {
  holder?.stop();
  p1?.stop();
  p2?.stop();
  await bus?.close();
  await nats?.close();
});

async function connect(agentId: string, connId: string) {
  const s = socket(agentId, connId);
  conns.add(s.conn);
  await p1.connected(agentId, connId);
  // The other node routes by its own copy of the bucket.
  for (let i = 0; i < 100 && p2.where(agentId)?.connId !== connId; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(p2.where(agentId)?.connId).toBe(connId);
  return s;
}

describe('a message pushed to a socket that already has it', () => {
  it('is written once, through the socket node and through another node alike', async () => {
    const s = await connect('a1', 'c1');
    const before = dropped;
    expect(await other.push('a1', { n: 1 }, { taskId: 'task-1', messageId: 'm-1' })).toBe('sent');
    expect(await other.push('a1', { n: 2 }, { taskId: 'task-1', messageId: 'm-1' })).toBe('sent');
    expect(await holder.push('a1', { n: 3 }, { taskId: 'task-1', messageId: 'm-1' })).toBe('sent');
    // Another message of the task (a continuation) and frames without a key still go out.
    expect(await other.push('a1', { n: 4 }, { taskId: 'task-1', messageId: 'm-2' })).toBe('sent');
    expect(await holder.push('a1', { n: 5 })).toBe('sent');
    expect(await holder.push('a1', { n: 6 })).toBe('sent');
    expect(s.written).toEqual([{ n: 1 }, { n: 4 }, { n: 5 }, { n: 6 }]);
    expect(dropped - before).toBe(2);
  });

  it('is not written again after the agent answered it there, and not delivered again on close', async () => {
    // A stale owner healed from a cut pushed a message 0.1 s after the new owner's push had been
    // answered (partitions seed 2068437188): the answer ended what the socket remembered of it.
    const s = await connect('a6', 'c7');
    expect(await other.push('a6', { n: 1 }, { taskId: 'task-6', messageId: 'm-1' })).toBe('sent');
    expect(await other.push('a6', { n: 2 }, { taskId: 'task-7', messageId: 'm-1' })).toBe('sent');
    holder.settled(s.conn, 'task-6');
    expect(await other.push('a6', { n: 3 }, { taskId: 'task-6', messageId: 'm-1' })).toBe('sent');
    // The task's next message is new to the socket.
    expect(await holder.push('a6', { n: 4 }, { taskId: 'task-6', messageId: 'm-2' })).toBe('sent');
    expect(s.written).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }]);
    // Closing names what the agent did not answer there: task-7's message and task-6's second.
    expect(holder.socketClosed(s.conn)).toEqual([
      { taskId: 'task-7', messageId: 'm-1' },
      { taskId: 'task-6', messageId: 'm-2' },
    ]);
  });

  it('is written again to a new socket of the agent', async () => {
    const first = await connect('a2', 'c2');
    expect(await other.push('a2', { n: 1 }, { taskId: 'task-2', messageId: 'm-1' })).toBe('sent');
    const second = await connect('a2', 'c3');
    expect(await other.push('a2', { n: 2 }, { taskId: 'task-2', messageId: 'm-1' })).toBe('sent');
    expect(first.written).toEqual([{ n: 1 }]);
    expect(second.written).toEqual([{ n: 2 }]);
  });

  it('counts a push refused as busy as not written', async () => {
    const s = await connect('a3', 'c4');
    s.setBusy(true);
    expect(await other.push('a3', { n: 1 }, { taskId: 'task-3', messageId: 'm-1' })).toBe('busy');
    s.setBusy(false);
    expect(await other.push('a3', { n: 2 }, { taskId: 'task-3', messageId: 'm-1' })).toBe('sent');
    expect(s.written).toEqual([{ n: 2 }]);
  });

  it('answers a second push waiting on a dropped first as the first: offline', async () => {
    const s = await connect('a5', 'c6');
    s.setClosing(true);
    const [first, second] = await Promise.all([
      holder.push('a5', { n: 1 }, { taskId: 'task-5', messageId: 'm-1' }),
      holder.push('a5', { n: 2 }, { taskId: 'task-5', messageId: 'm-1' }),
    ]);
    expect([first, second]).toEqual(['offline', 'offline']);
    expect(s.written).toEqual([]);
  });

  it('answers offline for a message the socket dropped by closing first, and forgets it', async () => {
    const s = await connect('a4', 'c5');
    s.setClosing(true);
    expect(await other.push('a4', { n: 1 }, { taskId: 'task-4', messageId: 'm-1' })).toBe(
      'offline'
    );
    expect(await holder.push('a4', { n: 2 }, { taskId: 'task-4', messageId: 'm-1' })).toBe(
      'offline'
    );
    s.setClosing(false);
    expect(await other.push('a4', { n: 3 }, { taskId: 'task-4', messageId: 'm-1' })).toBe('sent');
    expect(s.written).toEqual([{ n: 3 }]);
  });
});
