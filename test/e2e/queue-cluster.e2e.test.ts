// Offline delivery on a real 3-node NATS cluster (R3 streams) with hub nodes as child processes:
// the three pending limits (-32012 QueueFull, -32013 SenderThrottled, -32014 TenantQueueFull) hold
// exactly under concurrent sends spread over both nodes, in the spec's check order, a rejection
// leaves no task and nothing queued, and every accepted message reaches the recipient exactly once
// when it connects. When the node owning the recipient tenant's partition is killed (SIGKILL) or
// stopped (SIGTERM), the other node takes the queue over and delivers it whole, in FIFO order.
//
// One set of hubs serves every case, so each case has its own tenant; the hub-wide limits are
// QUEUE_SENDER_MAX_PENDING = 10 and QUEUE_TENANT_MAX_PENDING = 25 (small enough to reach, large
// enough that the recipient-limit case never meets them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsCluster, type NatsClusterHandle } from '../support/nats-cluster.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import type { RpcResult } from '../support/rpc.js';
import {
  QUEUE_ADMIN_TOKEN,
  connectQueueAgent,
  keepHubLogs,
  nonSnapshotMessages,
  outcomeOf,
  ownedPartitions,
  patchAgentSettings,
  presenceEntry,
  queueMaxPendingOf,
  sendText,
  sleep,
  tally,
  tasksIndexedFor,
  tenantPartition,
  textOf,
  unexpectedAnswers,
  waitFor,
  waitOwnership,
  waitTaskStates,
  withQueueDiagnostics,
  type QueueAgent,
  type TaskResult,
} from '../support/queue-helpers.js';
import { connectBus, type Bus } from '../../runtime/bus/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import {
  createAgent,
  createDb,
  createTenant,
  issueAdminKey,
  type Db,
} from '../../infra/db/index.js';

const P = 8;
const SENDER_MAX = 10;
const TENANT_MAX = 25;
/** How long the recipient must stay silent after its last expected message (at 100 msg/s). */
const QUIET_MS = 1_500;

let cluster: NatsClusterHandle;
let db: TestDatabase;
let sql: Db;
let observer: Bus;
const started: HubProcess[] = [];
const dead = new Set<HubProcess>();
let a: HubProcess;
let b: HubProcess;

interface TestAgent {
  id: string;
  key: string;
  tenantId: string;
}

/** A queued task as the test knows it: what was sent, by whom, in which order. */
interface Sent {
  taskId: string;
  body: string;
  senderId: string;
  senderKey: string;
}

async function startNode(nodeId: string, i: number): Promise<HubProcess> {
  // Each node lists the NATS servers in a different order, so they start on different servers.
  const urls = [...cluster.urls.slice(i % 3), ...cluster.urls.slice(0, i % 3)];
  const p = await startHubProcess({
    env: {
      NATS_URL: urls.join(','),
      DATABASE_URL: db.url,
      ADMIN_TOKEN: QUEUE_ADMIN_TOKEN,
      NODE_ID: nodeId,
      NATS_REPLICAS: '3',
      PARTITIONS: String(P),
      HEARTBEAT_MS: '300',
      NODE_TTL_MS: '2500',
      LOCK_INACTIVE_MS: '2500',
      QUEUE_DRAIN_PER_SECOND: '100',
      QUEUE_SENDER_MAX_PENDING: String(SENDER_MAX),
      QUEUE_TENANT_MAX_PENDING: String(TENANT_MAX),
      LOG_LEVEL: process.env.BURROW_TEST_HUB_LOG_LEVEL ?? 'info',
    },
    readyTimeoutMs: 90_000,
  });
  started.push(p);
  return p;
}

const live = () => started.filter((p) => !dead.has(p));

async function makeTenant(name: string, agents: readonly string[]) {
  const t = await createTenant(sql, { name });
  const out: Record<string, TestAgent> = {};
  for (const n of agents) {
    const c = await createAgent(sql, { tenantId: t.id, name: n });
    out[n] = { id: c.agent.id, key: c.apiKey, tenantId: t.id };
  }
  return { tenantId: t.id, agents: out };
}

const must = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new Error(`missing ${what}`);
  return v;
};

/** Set queue_max_pending with the agent's own key and wait until every live node reports it. */
async function setQueueMaxPending(agent: TestAgent, n: number): Promise<void> {
  expect(await patchAgentSettings(a.url, agent.id, agent.key, { queue_max_pending: n })).toBe(200);
  await waitFor(`queue_max_pending ${n} on every node`, async () => {
    const seen = await Promise.all(
      live().map((h) => queueMaxPendingOf(h.url, agent.id, agent.key))
    );
    return seen.every((v) => v === n);
  });
  // The change is broadcast to every node's cache; give the broadcast a moment to land.
  // Must stay: no node tells when its cache applied it (a fence needs a product change).
  await sleep(500);
}

/** The agent's status as a node's GET /api/agents gives it: read from that node's presence cache. */
async function statusOn(hubUrl: string, adminKey: string, agentId: string): Promise<string> {
  const res = await fetch(`${hubUrl}/api/agents`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  const { agents } = (await res.json()) as { agents: Array<{ agentId: string; status: string }> };
  return agents.find((x) => x.agentId === agentId)?.status ?? 'missing';
}

/** Fire all sends at once; returns each answer with what was sent. */
async function sendAll(
  sends: ReadonlyArray<{ via: string; sender: TestAgent; recipient: TestAgent; body: string }>
): Promise<Array<{ r: RpcResult<TaskResult>; sent: Sent; recipientId: string }>> {
  const answers = await Promise.all(
    sends.map((s) => sendText(s.via, s.sender.key, s.recipient.id, s.body))
  );
  return answers.map((r, i) => {
    const s = sends[i]!;
    return {
      r,
      recipientId: s.recipient.id,
      sent: {
        taskId: r.result?.id ?? '',
        body: s.body,
        senderId: s.sender.id,
        senderKey: s.sender.key,
      },
    };
  });
}

/** Send one message and expect it queued (a submitted task); returns it. */
async function queueOne(
  via: string,
  sender: TestAgent,
  recipient: TestAgent,
  body: string
): Promise<Sent> {
  const r = await sendText(via, sender.key, recipient.id, body);
  expect(r.error, `${body}: ${JSON.stringify(r.error)}`).toBeUndefined();
  expect(r.result?.status.state).toBe('submitted');
  return { taskId: r.result!.id, body, senderId: sender.id, senderKey: sender.key };
}

/**
 * The recipient received exactly `expected` (each once, with its task id, sender and text), in
 * `expected` order when `fifo`; nothing else arrived, and `welcome` came first.
 */
function expectDelivered(agent: QueueAgent, expected: readonly Sent[], fifo: boolean): void {
  expect(agent.frames[0]?.type).toBe('welcome');
  const got = agent.messages;
  const byTask = new Map(expected.map((s) => [s.taskId, s]));
  const taskIds = got.map((m) => m.taskId);
  expect(new Set(taskIds).size, `duplicates in ${JSON.stringify(got.map(textOf))}`).toBe(
    taskIds.length
  );
  expect(got.length).toBe(expected.length);
  for (const m of got) {
    const s = byTask.get(m.taskId);
    expect(s, `unexpected message ${textOf(m)} (task ${m.taskId})`).toBeDefined();
    expect(textOf(m)).toBe(s!.body);
    expect(m.from).toBe(s!.senderId);
  }
  if (fifo) expect(got.map(textOf)).toEqual(expected.map((s) => s.body));
}

/** Connect, take `n` messages (answering each), and make sure no more follow. */
async function drain(hub: HubProcess, recipient: TestAgent, n: number): Promise<QueueAgent> {
  const agent = await connectQueueAgent(hub.url, recipient.key);
  await withQueueDiagnostics(hub.url, recipient.id, agent, async () => {
    if (n > 0) await agent.waitMessages(n, 30_000);
  });
  await agent.waitQuiet(QUIET_MS);
  return agent;
}

/** The task index holds exactly `n` tasks for the recipient (no task for a rejected send). */
async function expectIndexedTasks(recipientId: string, n: number): Promise<void> {
  await waitFor(`${n} indexed tasks for ${recipientId}`, async () => {
    return (await tasksIndexedFor(sql, recipientId)) >= n;
  });
  // Must stay: each node has its own index writer, so no later row orders a stray one before it.
  await sleep(500);
  expect(await tasksIndexedFor(sql, recipientId)).toBe(n);
}

beforeAll(async () => {
  cluster = await startNatsCluster();
  db = await createTestDatabase('burrow_queue_cluster');
  a = await startNode('queue-a', 0);
  b = await startNode('queue-b', 1);
  sql = createDb(db.url, { max: 4 });
  observer = await connectBus({
    servers: cluster.urls,
    name: 'queue-observer',
    replicas: 3,
    log: silentLogger,
  });
  await waitOwnership([a.url, b.url], P, { eachOwnsOne: true, ms: 90_000 });
}, 240_000);

afterAll(async () => {
  keepHubLogs('queue-cluster', started);
  await Promise.all(started.map((p) => p.close()));
  await observer?.close();
  await sql?.end({ timeout: 5 });
  await cluster?.close();
  await db?.drop();
}, 60_000);

describe('offline queue limits across two hub nodes on a NATS cluster', () => {
  it('accepts exactly queue_max_pending of 60 concurrent sends from 6 senders over both nodes', async () => {
    const { agents } = await makeTenant('Recipient Cap', [
      'rcpt',
      's1',
      's2',
      's3',
      's4',
      's5',
      's6',
    ]);
    const rcpt = agents.rcpt!;
    const senders = ['s1', 's2', 's3', 's4', 's5', 's6'].map((n) => agents[n]!);
    await setQueueMaxPending(rcpt, 20);

    const answers = await sendAll(
      senders.flatMap((sender, i) =>
        Array.from({ length: 10 }, (_, j) => ({
          via: (i + j) % 2 === 0 ? a.url : b.url,
          sender,
          recipient: rcpt,
          body: `cap-${i}-${j}`,
        }))
      )
    );
    const results = answers.map((x) => x.r);
    expect(unexpectedAnswers(results, [-32012])).toEqual([]);
    expect(tally(results)).toEqual({ submitted: 20, '-32012': 40 });
    const accepted = answers.filter((x) => outcomeOf(x.r) === 'submitted').map((x) => x.sent);

    // Connecting to either node drains the queue: every accepted message once, nothing else.
    const agent = await drain(b, rcpt, 20);
    expectDelivered(agent, accepted, false);
    await waitTaskStates(
      a.url,
      accepted.map((s) => ({ id: s.taskId, senderKey: s.senderKey })),
      'completed'
    );
    await expectIndexedTasks(rcpt.id, 20);

    // Delivered messages left the queue: once the recipient is offline again, 20 fit once more.
    await agent.close();
    await waitFor(
      'the recipient to be offline',
      async () => (await presenceEntry(observer, rcpt.id)) === null
    );
    // Every node's presence cache follows the bucket: wait until each says offline.
    const adminKey = (await issueAdminKey(sql, rcpt.tenantId)).key;
    await waitFor('every node to see the recipient offline', async () => {
      const seen = await Promise.all(live().map((h) => statusOn(h.url, adminKey, rcpt.id)));
      return seen.every((s) => s === 'offline');
    });
    const again = await sendAll(
      Array.from({ length: 21 }, (_, j) => ({
        via: j % 2 === 0 ? a.url : b.url,
        sender: senders[j % senders.length]!,
        recipient: rcpt,
        body: `again-${j}`,
      }))
    );
    expect(
      unexpectedAnswers(
        again.map((x) => x.r),
        [-32012]
      )
    ).toEqual([]);
    expect(tally(again.map((x) => x.r))).toEqual({ submitted: 20, '-32012': 1 });
  });

  it('throttles one sender at exactly QUEUE_SENDER_MAX_PENDING, per sender, after the recipient limit', async () => {
    const { agents } = await makeTenant('Sender Cap', ['rcpt', 'loud', 'quiet']);
    const { rcpt, loud, quiet } = agents as Record<'rcpt' | 'loud' | 'quiet', TestAgent>;

    const answers = await sendAll(
      Array.from({ length: 30 }, (_, j) => ({
        via: j % 2 === 0 ? a.url : b.url,
        sender: loud,
        recipient: rcpt,
        body: `loud-${j}`,
      }))
    );
    const results = answers.map((x) => x.r);
    expect(unexpectedAnswers(results, [-32013])).toEqual([]);
    expect(tally(results)).toEqual({ submitted: SENDER_MAX, '-32013': 30 - SENDER_MAX });
    const accepted = answers.filter((x) => outcomeOf(x.r) === 'submitted').map((x) => x.sent);

    // The limit is per sender: another sender still reaches the same recipient.
    accepted.push(await queueOne(b.url, quiet, rcpt, 'quiet-0'));

    // Recipient full (11 of 11) and sender throttled at once: the recipient limit answers first.
    await setQueueMaxPending(rcpt, SENDER_MAX + 1);
    for (const via of [a.url, b.url]) {
      expect((await sendText(via, loud.key, rcpt.id, 'loud-late')).error?.code).toBe(-32012);
      expect((await sendText(via, quiet.key, rcpt.id, 'quiet-late')).error?.code).toBe(-32012);
    }

    const agent = await drain(a, rcpt, SENDER_MAX + 1);
    expectDelivered(agent, accepted, false);
    await waitTaskStates(
      b.url,
      accepted.map((s) => ({ id: s.taskId, senderKey: s.senderKey })),
      'completed'
    );
    await expectIndexedTasks(rcpt.id, SENDER_MAX + 1);
    await agent.close();
  });

  it('fills a tenant at exactly QUEUE_TENANT_MAX_PENDING across recipients, checked after the other limits', async () => {
    const { agents } = await makeTenant('Tenant Cap', ['r1', 'r2', 'r3', 'r4', 's1', 's2', 's3']);
    const [r1, r2, r3, r4] = ['r1', 'r2', 'r3', 'r4'].map((n) => must(agents[n], n));
    const [s1, s2, s3] = ['s1', 's2', 's3'].map((n) => must(agents[n], n));
    const recipients = [r1!, r2!, r3!, r4!];

    // s1 → r1, one at a time through alternating nodes: that pair reaches the sender limit and
    // the tenant holds 10.
    const toR1: Sent[] = [];
    for (let j = 0; j < SENDER_MAX; j++) {
      toR1.push(await queueOne(j % 2 === 0 ? a.url : b.url, s1!, r1!, `t-r1-${j}`));
    }

    // 42 concurrent sends, 7 per (sender, recipient) pair over r2..r4: no pair reaches the sender
    // limit and no recipient its own, so only the tenant limit stops them, at exactly 25.
    const answers = await sendAll(
      [s2!, s3!].flatMap((sender, i) =>
        [r2!, r3!, r4!].flatMap((recipient, k) =>
          Array.from({ length: 7 }, (_, j) => ({
            via: (i + k + j) % 2 === 0 ? a.url : b.url,
            sender,
            recipient,
            body: `t-${i}-${k}-${j}`,
          }))
        )
      )
    );
    const results = answers.map((x) => x.r);
    expect(unexpectedAnswers(results, [-32014])).toEqual([]);
    expect(tally(results)).toEqual({
      submitted: TENANT_MAX - SENDER_MAX,
      '-32014': 42 - (TENANT_MAX - SENDER_MAX),
    });
    const accepted = answers.filter((x) => outcomeOf(x.r) === 'submitted');

    // Sender throttled and tenant full: the sender limit answers first.
    for (const via of [a.url, b.url]) {
      expect((await sendText(via, s1!.key, r1!.id, 't-r1-late')).error?.code).toBe(-32013);
    }
    // Recipient full and tenant full: the recipient limit answers first.
    const perRecipient = [r2!, r3!, r4!].map((r) => ({
      r,
      n: accepted.filter((x) => x.recipientId === r.id).length,
    }));
    const fullest = perRecipient.reduce((x, y) => (y.n > x.n ? y : x));
    await setQueueMaxPending(fullest.r, fullest.n);
    for (const via of [a.url, b.url]) {
      expect((await sendText(via, s2!.key, fullest.r.id, 't-full-late')).error?.code).toBe(-32012);
    }
    // And a tenant-full rejection stays one for a recipient with room.
    expect((await sendText(a.url, s3!.key, r1!.id, 't-tenant-late')).error?.code).toBe(-32014);

    // Every recipient gets exactly what was accepted for it; r1's one-at-a-time sends in order.
    const agentsUp: QueueAgent[] = [];
    let total = 0;
    for (const [i, r] of recipients.entries()) {
      const expected =
        r.id === r1!.id ? toR1 : accepted.filter((x) => x.recipientId === r.id).map((x) => x.sent);
      const agent = await drain(i % 2 === 0 ? a : b, r, expected.length);
      expectDelivered(agent, expected, r.id === r1!.id);
      total += agent.messages.length;
      agentsUp.push(agent);
      await expectIndexedTasks(r.id, expected.length);
    }
    expect(total).toBe(TENANT_MAX);
    await Promise.all(agentsUp.map((x) => x.close()));
  });
});

describe('failover of the node owning the queue', () => {
  it('survives SIGKILL of the owning node: the survivor takes over and delivers the queue in FIFO order', async () => {
    const { tenantId, agents } = await makeTenant('Failover Kill', ['rcpt', 's1', 's2', 's3']);
    const rcpt = agents.rcpt!;
    const senders = ['s1', 's2', 's3'].map((n) => must(agents[n], n));
    await setQueueMaxPending(rcpt, 22);
    const p = tenantPartition(tenantId, P);
    const owned = await Promise.all([a, b].map((h) => ownedPartitions(h.url)));
    const ownerIdx = owned.findIndex((o) => o.includes(p));
    expect(
      ownerIdx,
      `partition ${p} owned by neither: ${JSON.stringify(owned)}`
    ).toBeGreaterThanOrEqual(0);
    const owner = ownerIdx === 0 ? a : b;
    const survivor = ownerIdx === 0 ? b : a;

    const before = await nonSnapshotMessages(observer, p, P);
    const sent: Sent[] = [];
    for (let i = 0; i < 20; i++) {
      sent.push(await queueOne(i % 2 === 0 ? a.url : b.url, senders[i % 3]!, rcpt, `fo-${i}`));
    }
    // The messages sit in the log of the recipient tenant's partition (R3), not in a process.
    expect(await nonSnapshotMessages(observer, p, P)).toBeGreaterThanOrEqual(before + 20);

    owner.kill('SIGKILL');
    await owner.exited;
    dead.add(owner);
    const killedAt = Date.now();
    await waitOwnership([survivor.url], P, { ms: 45_000 });
    console.log(
      `partition ${p} (tenant ${tenantId}) was on ${owner.nodeId}; ` +
        `${survivor.nodeId} owns every partition ${Date.now() - killedAt} ms after the SIGKILL`
    );

    // The survivor rebuilt the queue's index exactly: 2 more fit under 22, the next is QueueFull.
    for (let i = 20; i < 22; i++) {
      sent.push(await queueOne(survivor.url, senders[i % 3]!, rcpt, `fo-${i}`));
    }
    expect((await sendText(survivor.url, senders[0]!.key, rcpt.id, 'fo-over')).error?.code).toBe(
      -32012
    );

    const agent = await drain(survivor, rcpt, 22);
    expectDelivered(agent, sent, true);
    await waitTaskStates(
      survivor.url,
      sent.map((s) => ({ id: s.taskId, senderKey: s.senderKey })),
      'completed'
    );
    await agent.close();
  });

  it('survives a graceful stop (SIGTERM) of the owning node: the queue moves over whole, in FIFO order', async () => {
    await startNode('queue-c', 2);
    const nodes = live();
    expect(nodes).toHaveLength(2);
    await waitOwnership(
      nodes.map((h) => h.url),
      P,
      { eachOwnsOne: true, ms: 60_000 }
    );

    const { tenantId, agents } = await makeTenant('Failover Stop', ['rcpt', 's1', 's2']);
    const rcpt = agents.rcpt!;
    const senders = [agents.s1!, agents.s2!];
    const p = tenantPartition(tenantId, P);
    const owned = await Promise.all(nodes.map((h) => ownedPartitions(h.url)));
    const ownerIdx = owned.findIndex((o) => o.includes(p));
    expect(
      ownerIdx,
      `partition ${p} owned by neither: ${JSON.stringify(owned)}`
    ).toBeGreaterThanOrEqual(0);
    const owner = nodes[ownerIdx]!;
    const other = nodes[1 - ownerIdx]!;

    const sent: Sent[] = [];
    for (let i = 0; i < 12; i++) {
      sent.push(await queueOne(nodes[i % 2]!.url, senders[i % 2]!, rcpt, `st-${i}`));
    }

    owner.kill('SIGTERM');
    expect((await owner.exited).code).toBe(0);
    dead.add(owner);
    await waitOwnership([other.url], P, { ms: 30_000 });

    const agent = await drain(other, rcpt, 12);
    expectDelivered(agent, sent, true);
    await waitTaskStates(
      other.url,
      sent.map((s) => ({ id: s.taskId, senderKey: s.senderKey })),
      'completed'
    );
    await agent.close();
  });
});
