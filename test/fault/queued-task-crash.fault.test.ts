// Issue 30 Must 1: a crash between a task's creation and the append of its queued message leaves
// no task stuck. A send to an offline WebSocket agent creates the task in the sender's partition
// and then appends the message to the recipient's queue, in the recipient tenant's partition. Here
// the node that takes the sends also owns the queue (so nobody retries its work) while the tasks
// live on the other node: it is killed with -9 in the middle of a burst. Every task the survivor
// holds must then reach a state that matches what is stored: delivered once the recipient
// connects, or failed with a reason, never `submitted` for good.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createTenant } from '../../infra/db/index.js';
import { partitionOf } from '../../runtime/cluster/index.js';
import { FAULT_PARTITIONS, startFaultCluster, type FaultCluster } from './support/fault-cluster.js';
import {
  connectQueueAgent,
  ownedPartitions,
  sendText,
  sleep,
  waitFor,
} from '../support/queue-helpers.js';

const SENDERS = 10;
/** Per sender, under the 50 pending per sender → recipient (none is refused by that limit). */
const PER_SENDER = 40;
const IN_FLIGHT_PER_SENDER = 8;

let cluster: FaultCluster;
const log = (line: string) => process.stdout.write(`${line}\n`);

beforeAll(async () => {
  cluster = await startFaultCluster('qcrash', { hubs: 2 });
  await cluster.waitOwnership();
});

afterAll(async () => {
  await cluster?.close();
});

describe('kill -9 between a task and its queued message', () => {
  it('leaves no task submitted for good: each is delivered, or failed with a reason', async () => {
    const { sql } = cluster;
    const [survivor, victim] = cluster.live() as [
      (typeof cluster.hubs)[number],
      (typeof cluster.hubs)[number],
    ];
    const onVictim = await ownedPartitions(victim.url);
    const onSurvivor = await ownedPartitions(survivor.url);
    // The recipient's queue on the victim, the senders' tasks on the survivor.
    let tenants = 0;
    const tenant = () => createTenant(sql, { name: `qcrash ${tenants++}` });
    let recipientTenant = await tenant();
    while (!onVictim.includes(partitionOf(recipientTenant.id, FAULT_PARTITIONS))) {
      recipientTenant = await tenant();
    }
    const recipient = await createAgent(sql, { tenantId: recipientTenant.id, name: 'r' });
    const senders: Array<{ id: string; key: string }> = [];
    while (senders.length < SENDERS) {
      const c = await createAgent(sql, {
        tenantId: recipientTenant.id,
        name: `s${senders.length}`,
      });
      if (onSurvivor.includes(partitionOf(c.agent.id, FAULT_PARTITIONS))) {
        senders.push({ id: c.agent.id, key: c.apiKey });
      }
    }

    // A burst through the victim, killed once a third of it is acknowledged.
    let acked = 0;
    let errors = 0;
    let firstError: string | undefined;
    const burst = senders.map(async (s, i) => {
      let next = 0;
      const lane = async () => {
        while (next < PER_SENDER) {
          const n = next++;
          const r = await sendText(victim.url, s.key, recipient.agent.id, `q|${i}|${n}`).catch(
            () => undefined
          );
          if (r?.result) acked++;
          else {
            errors++;
            firstError ??= JSON.stringify(r?.error ?? 'network');
          }
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT_PER_SENDER }, lane));
    });
    await waitFor(
      'a third of the burst acknowledged',
      () => {
        if (errors > 0 && acked === 0) throw new Error(`sends fail: ${firstError}`);
        return acked >= (SENDERS * PER_SENDER) / 3;
      },
      60_000
    );
    await cluster.stopHub(victim, 'SIGKILL');
    const ackedAtKill = acked;
    await Promise.all(burst);
    await cluster.waitOwnership({ eachOwnsOne: false, ms: 60_000 });

    // Tasks the survivor holds for this recipient (every one it created is in its index).
    const agent = await connectQueueAgent(survivor.url, recipient.apiKey);
    const open = async () =>
      sql.unsafe<Array<{ id: string; state: string }>>(
        `select id, state from tasks where recipient_id = $1 and state in ('submitted', 'working')`,
        [recipient.agent.id]
      );
    const deadline = Date.now() + 60_000;
    let stuck = await open();
    while (stuck.length > 0 && Date.now() < deadline) {
      await sleep(1000);
      stuck = await open();
    }
    const states = await sql.unsafe<Array<{ state: string; n: string }>>(
      `select state, count(*) as n from tasks where recipient_id = $1 group by state`,
      [recipient.agent.id]
    );
    const failed = await sql.unsafe<Array<{ reason: string | null }>>(
      `select task->'status'->>'message' as reason from tasks where recipient_id = $1 and state = 'failed'`,
      [recipient.agent.id]
    );
    await agent.close();
    log(
      `[fault:queued-task-crash] ${JSON.stringify({
        sent: SENDERS * PER_SENDER,
        ackedAtKill,
        acked,
        errors,
        tasks: Object.fromEntries(states.map((r) => [r.state, Number(r.n)])),
        delivered: new Set(agent.messages.map((m) => m.taskId)).size,
        stuck: stuck.length,
      })}`
    );
    expect(stuck, 'tasks left submitted/working with nothing to move them').toEqual([]);
    for (const f of failed) expect(f.reason, 'a failed task says why').toBeTruthy();
  });
});
