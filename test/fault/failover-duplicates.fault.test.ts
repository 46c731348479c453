// Issue 30 Must 3: few duplicates after a failover. 40 tasks are in the hands of an SDK WebSocket
// agent (its handler takes 25 s) when the hub node holding its socket is killed with -9. The agent
// reconnects (through a forwarder standing in for a load balancer) to the survivor. The hub pushes
// a message again only when the agent may not have received it: the SDK acknowledges every message
// with a `received` frame, recorded with the task's next write, so none of the 40 is pushed twice,
// and all 40 complete with the answers the agent sends on its new socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createTenant } from '../../infra/db/index.js';
import { WsAgent } from '../../sdk/agent/index.js';
import { startFaultCluster, type FaultCluster } from './support/fault-cluster.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { sendText, sleep, waitFor, waitTaskStates } from '../support/queue-helpers.js';

const TASKS = 40;
const SENDERS = 8;
/** Longer than a failover (membership TTL 10 s + a heartbeat): answers come after it. */
const HANDLER_MS = 25_000;

let cluster: FaultCluster;
let proxy: TcpProxy | undefined;
let agent: WsAgent | undefined;
const log = (line: string) => process.stdout.write(`${line}\n`);

beforeAll(async () => {
  cluster = await startFaultCluster('dups', { hubs: 2 });
  await cluster.waitOwnership();
});

afterAll(async () => {
  await agent?.close();
  await proxy?.close();
  await cluster?.close();
});

describe('kill -9 of the node holding an agent’s socket with 40 tasks in flight', () => {
  it('pushes no acknowledged message again, and every task completes', async () => {
    const { sql } = cluster;
    const [survivor, victim] = cluster.live() as [
      (typeof cluster.hubs)[number],
      (typeof cluster.hubs)[number],
    ];
    const tenant = await createTenant(sql, { name: 'dups' });
    const recipient = await createAgent(sql, { tenantId: tenant.id, name: 'slow' });
    const senders = await Promise.all(
      Array.from({ length: SENDERS }, (_, i) =>
        createAgent(sql, { tenantId: tenant.id, name: `s${i}` })
      )
    );

    const receipts = new Map<string, number>();
    proxy = await startTcpProxy(victim.port);
    agent = new WsAgent({
      url: proxy.url,
      apiKey: recipient.apiKey,
      verifyEnvelopes: false,
      backoff: { initialMs: 300, maxMs: 1000 },
      onMessage: async (m) => {
        receipts.set(m.task.id, (receipts.get(m.task.id) ?? 0) + 1);
        await sleep(HANDLER_MS);
        return `done ${m.text}`;
      },
    });
    await agent.start();

    // Every task's sender is on either node: its owner survives or takes it over after the kill.
    const tasks: Array<{ id: string; senderKey: string }> = [];
    await Promise.all(
      Array.from({ length: TASKS }, async (_, i) => {
        const s = senders[i % SENDERS]!;
        const r = await sendText(survivor.url, s.apiKey, recipient.agent.id, `d${i}`);
        if (!r.result) throw new Error(`send ${i} failed: ${JSON.stringify(r.error)}`);
        tasks.push({ id: r.result.id, senderKey: s.apiKey });
      })
    );
    await waitFor(`${TASKS} messages at the agent`, () => receipts.size >= TASKS, 30_000);
    // What a real agent's acknowledgements need: a moment to reach the tasks' next writes.
    await sleep(500);

    const killedAt = Date.now();
    proxy.retarget(survivor.port);
    await cluster.stopHub(victim, 'SIGKILL');
    await waitFor('the agent on the survivor', () => agent!.connected, 30_000);
    await waitTaskStates(survivor.url, tasks, 'completed', 90_000);
    const completedMs = Date.now() - killedAt;

    const twice = [...receipts.entries()].filter(([, n]) => n > 1);
    log(
      `[fault:failover-duplicates] ${JSON.stringify({
        tasks: TASKS,
        receivedTwice: twice.length,
        allCompletedMsAfterKill: completedMs,
      })}`
    );
    expect(receipts.size).toBe(TASKS);
    expect(twice, 'messages pushed to the agent again after the failover').toEqual([]);
  });
});
