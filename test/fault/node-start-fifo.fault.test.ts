// Issue 30 Must 2: no overtaking after a node starts. A recipient's queue drains slowly (4/s) while
// its senders keep adding to it; a hub node is killed with -9, a new node starts and takes
// partitions over (the senders' tasks among them), and the NATS server that new node talks to is
// killed with -9 and restarted. A node does not deliver directly to a recipient whose backlog it
// has not read, so every sender's messages reach the recipient in the order they were sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createTenant } from '../../infra/db/index.js';
import { ownerOf, partitionOf } from '../../runtime/cluster/index.js';
import { FAULT_PARTITIONS, startFaultCluster, type FaultCluster } from './support/fault-cluster.js';
import { rpc } from '../support/rpc.js';
import {
  connectQueueAgent,
  sleep,
  textOf,
  waitFor,
  type QueueAgent,
} from '../support/queue-helpers.js';

const SENDERS = 8;
const SEND_EVERY_MS = 1500;
const NODES = ['fifo-a', 'fifo-b'];
const JOINER = 'fifo-c';

let cluster: FaultCluster;
let agent: QueueAgent | undefined;
const log = (line: string) => process.stdout.write(`${line}\n`);

beforeAll(async () => {
  cluster = await startFaultCluster('fifo', { hubs: 2, env: { QUEUE_DRAIN_PER_SECOND: '4' } });
  await cluster.waitOwnership();
});

afterAll(async () => {
  await agent?.close();
  await cluster?.close();
});

describe('a node starting while a recipient has a backlog', () => {
  it('never delivers a message before older ones of the same sender', async () => {
    const { sql } = cluster;
    const [a, b] = cluster.live() as [(typeof cluster.hubs)[number], (typeof cluster.hubs)[number]];
    // The recipient's queue stays on node a throughout; half the senders' tasks go to the joiner.
    const stays = (p: number) =>
      ownerOf(p, NODES) === NODES[0] && ownerOf(p, [NODES[0]!, JOINER]) === NODES[0];
    let n = 0;
    let tenant = await createTenant(sql, { name: `fifo ${n++}` });
    while (!stays(partitionOf(tenant.id, FAULT_PARTITIONS))) {
      tenant = await createTenant(sql, { name: `fifo ${n++}` });
    }
    const recipient = await createAgent(sql, { tenantId: tenant.id, name: 'r' });
    const senders: Array<{ key: string; toJoiner: boolean }> = [];
    while (senders.length < SENDERS) {
      const c = await createAgent(sql, { tenantId: tenant.id, name: `s${senders.length}` });
      const toJoiner = ownerOf(partitionOf(c.agent.id, FAULT_PARTITIONS), [NODES[0]!, JOINER]);
      const want = senders.length % 2 === 0 ? JOINER : NODES[0];
      if (toJoiner === want) senders.push({ key: c.apiKey, toJoiner: want === JOINER });
    }

    // Each sender sends one message after another (the next once the last is acknowledged),
    // through every live node in turn, retrying the same messageId until acknowledged.
    let running = true;
    let acked = 0;
    const sent: number[] = senders.map(() => 0);
    const loops = senders.map(async (s, i) => {
      let turn = i;
      while (running) {
        const seq = ++sent[i]!;
        const messageId = `fifo-${i}-${seq}`;
        for (;;) {
          const hubs = cluster.live();
          const via = hubs[turn++ % hubs.length]!;
          const r = await rpc<{ id: string }>(via.url, s.key, 'SendMessage', {
            message: { role: 'user', parts: [{ kind: 'text', text: `f|${i}|${seq}` }], messageId },
            configuration: { agentId: recipient.agent.id },
          }).catch(() => undefined);
          if (r?.result) break;
          await sleep(300);
        }
        acked++;
        await sleep(SEND_EVERY_MS);
      }
    });

    // A backlog: the recipient is offline for a while, then drains at 4/s behind new messages.
    await sleep(6000);
    agent = await connectQueueAgent(a.url, recipient.apiKey);
    await sleep(4000);
    await cluster.stopHub(b, 'SIGKILL');
    await cluster.waitOwnership({ eachOwnsOne: false, ms: 60_000 });
    const joiner = await cluster.startHub(JOINER);
    await cluster.waitOwnership({ eachOwnsOne: true, ms: 60_000 });
    await sleep(6000);
    // The joiner's NATS server (its first URL) dies and comes back: broadcasts are lost meanwhile.
    const natsOfJoiner = cluster.nats.nodes[(cluster.hubs.indexOf(joiner) % 3) as 0 | 1 | 2]!;
    await natsOfJoiner.kill();
    await sleep(5000);
    await natsOfJoiner.restart();
    await sleep(6000);
    running = false;
    await Promise.all(loops);

    await waitFor(
      `all ${acked} acknowledged messages at the recipient`,
      () => new Set(agent!.messages.map(textOf)).size >= acked,
      120_000
    );
    const order = new Map<number, number[]>();
    const seen = new Set<string>();
    for (const m of agent.messages) {
      const t = textOf(m);
      if (seen.has(t)) continue;
      seen.add(t);
      const [, i, seq] = t.split('|');
      const list = order.get(Number(i)) ?? [];
      list.push(Number(seq));
      order.set(Number(i), list);
    }
    const overtaken: string[] = [];
    for (const [i, seqs] of order) {
      for (let k = 1; k < seqs.length; k++) {
        if (seqs[k]! < seqs[k - 1]!)
          overtaken.push(`sender ${i}: ${seqs[k - 1]} before ${seqs[k]}`);
      }
    }
    log(
      `[fault:node-start-fifo] ${JSON.stringify({
        acked,
        received: agent.messages.length,
        distinct: seen.size,
        overtaken: overtaken.length,
        sendersOnJoiner: senders.filter((s) => s.toJoiner).length,
      })}`
    );
    expect(overtaken, 'messages delivered before older ones of the same sender').toEqual([]);
  });
});
