// Queued messages leave the queue without a delete per message (issue 19): against a real
// nats-server and database, a hub drains a recipient's queue while the test counts every
// $JS.API.STREAM.MSG.DELETE request; a new owner's rebuild (done records applied) brings none of
// the delivered messages back; a compaction relocates what is still queued, the stored messages
// below its cut go, and FIFO order and bodies survive the next takeover.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliverPolicy } from '@nats-io/jetstream';
import type { Subscription } from '@nats-io/nats-core';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import {
  connectQueueAgent,
  firstArrivals,
  sendText,
  textOf,
  type QueueAgent,
} from '../support/queue-helpers.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { QueueLogHolder } from '../../actors/queue/queue-service.js';
import { createAgent, createDb, createTenant, type Db } from '../../infra/db/index.js';
import {
  connectBus,
  decodeJson,
  partitionLabel,
  streams,
  subjects,
  type Bus,
} from '../../runtime/bus/index.js';
import { partitionOf, type LogHolder, type PartitionLog } from '../../runtime/cluster/index.js';
import { silentLogger } from '../../runtime/log/index.js';

const P = 4;
const env = {
  PARTITIONS: String(P),
  QUEUE_DRAIN_PER_SECOND: '50',
  // One sender queues 150 messages for one recipient.
  QUEUE_SENDER_MAX_PENDING: '200',
};

let nats: NatsServerHandle;
let db: TestDatabase;
let sql: Db;
let observer: Bus;
let hub: Hub | undefined;
let deleteSub: Subscription;
/** Every delete-by-sequence request any client sent: [stream, seq]. */
const deletes: Array<[string, number]> = [];
let agents: QueueAgent[] = [];

let tenantId: string;
let sender: { id: string; key: string };
let recipient: { id: string; key: string };
let label: string;
let stream: string;

async function startNode(extra: Record<string, string> = {}): Promise<Hub> {
  const h = await startHub(testHubConfig(nats, db, { ...env, ...extra }), silentLogger);
  await until(() => h.partitions.ownedPartitions().length === P, 30_000);
  return h;
}

/** Stored queue records of the recipient's partition: [subject, seq], in stream order. */
async function queueRecords(): Promise<Array<[string, number]>> {
  const info = await observer.jsm.streams.info(stream, {
    subjects_filter: subjects.queuedAll(label),
  });
  const count = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  if (count === 0) return [];
  const oc = await observer.js.consumers.get(stream, {
    filter_subjects: subjects.queuedAll(label),
    deliver_policy: DeliverPolicy.All,
    headers_only: true,
  });
  const out: Array<[string, number]> = [];
  const iter = await oc.consume({ max_messages: count });
  for await (const m of iter) {
    out.push([m.subject, m.seq]);
    if (out.length >= count || m.info.pending === 0) break;
  }
  iter.stop();
  return out;
}

const isMessage = (subject: string) => subject.split('.').length === 6;

/** The hub's own log of the partition (a compaction must append through the fenced writer). */
function queueHolder(h: Hub): LogHolder {
  const p = Number.parseInt(label, 10);
  // Test-only look inside: the compactor (runtime/cluster) is what calls holders in production.
  const owned = (h.partitions as unknown as { owned: Map<number, { log: PartitionLog }> }).owned;
  const log = owned.get(p)?.log;
  if (!log) throw new Error(`partition ${label} is not owned by this hub`);
  const holder = log.logHolders.find((h) => h instanceof QueueLogHolder);
  if (!holder) throw new Error('no queue log holder registered');
  return holder;
}

async function connect(): Promise<QueueAgent> {
  const a = await connectQueueAgent(hub!.url, recipient.key);
  agents.push(a);
  return a;
}

async function closeAgents(): Promise<void> {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
  await until(() => !hub!.presence.isOnline(recipient.id), 10_000);
}

async function queued(): Promise<number> {
  return (await hub!.queues.inspect(tenantId, recipient.id)).queued;
}

/**
 * The queued count once no delivery can change it: the agent is gone, its queue actor has left
 * draining and the node's delivery slots are all free (a delivery takes its message off the
 * queue before it gives its slot back). Test-only look inside, as in queueHolder.
 */
async function settledQueued(): Promise<number> {
  const slots = (hub!.queues as unknown as { slots: { used: number } }).slots;
  await until(async () => {
    const q = await hub!.queues.inspect(tenantId, recipient.id);
    return q.state !== 'draining' && slots.used === 0;
  }, 10_000);
  return queued();
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase('burrow_queue_done');
  observer = await connectBus({
    servers: [nats.url],
    name: 'observer',
    replicas: 1,
    log: silentLogger,
  });
  deleteSub = observer.nc.subscribe('$JS.API.STREAM.MSG.DELETE.>', {
    callback: (_err, m) => {
      const req = decodeJson<{ seq: number }>(m.data);
      deletes.push([m.subject.split('.').pop()!, req.seq]);
    },
  });
  hub = await startNode();
  sql = createDb(db.url, { max: 2 });
  const tenant = await createTenant(sql, { name: 'QDone' });
  tenantId = tenant.id;
  const s = await createAgent(sql, { tenantId, name: 'sender' });
  const r = await createAgent(sql, { tenantId, name: 'recipient' });
  sender = { id: s.agent.id, key: s.apiKey };
  recipient = { id: r.agent.id, key: r.apiKey };
  label = partitionLabel(partitionOf(tenantId, P), P);
  stream = streams.partition(label);
}, 90_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  deleteSub?.unsubscribe();
  await hub?.stop();
  await sql?.end({ timeout: 2 });
  await observer?.close();
  await nats?.close();
  await db?.drop();
});

describe('queued messages leave without deletes', () => {
  it('drains with no delete request, and a new owner brings none of the delivered back', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await sendText(hub!.url, sender.key, recipient.id, `m${i}`);
      expect(r.result?.status.state).toBe('submitted');
    }
    expect(await queued()).toBe(30);
    const stored = (await queueRecords()).filter(([s]) => isMessage(s)).map(([, seq]) => seq);
    expect(stored).toHaveLength(30);

    const agent = await connect();
    await agent.waitMessages(30, 30_000);
    expect(agent.messages.slice(0, 30).map(textOf)).toEqual(
      Array.from({ length: 30 }, (_, i) => `m${i}`)
    );
    await until(async () => (await queued()) === 0, 10_000);
    await closeAgents();

    // Not one delete of a queued message: they are still stored, and done records say so.
    const queueDeletes = deletes.filter(([st, seq]) => st === stream && stored.includes(seq));
    expect(queueDeletes).toEqual([]);
    const after = await queueRecords();
    expect(after.filter(([s]) => isMessage(s)).map(([, seq]) => seq)).toEqual(stored);
    const doneRecords = after.filter(([s]) => s === subjects.queueDone(label));
    expect(doneRecords.length).toBeGreaterThan(0);
    // Coalesced: fewer records than deliveries is the point (at most one each in the worst case).
    expect(doneRecords.length).toBeLessThanOrEqual(30);

    // A new owner rebuilds the index from the log: nothing delivered comes back.
    await hub!.stop();
    hub = await startNode();
    expect(await queued()).toBe(0);
    const again = await connect();
    // Fence: one message queued now comes after anything the rebuild brought back, so it arrives
    // alone only if nothing did.
    const fence = await sendText(hub.url, sender.key, recipient.id, 'fence');
    expect(fence.result?.status.state).toBe('submitted');
    await until(() => again.messages.some((m) => textOf(m) === 'fence'), 30_000);
    await until(async () => (await queued()) === 0, 10_000);
    expect(again.messages.map(textOf)).toEqual(['fence']);
    await closeAgents();
  }, 120_000);

  it('a compaction relocates what is still queued; FIFO and bodies survive it and a takeover', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await sendText(hub!.url, sender.key, recipient.id, `n${i}`);
      expect(r.result?.status.state).toBe('submitted');
    }
    const holder = queueHolder(hub!);
    expect(holder.liveRecords()).toBe(5 + 1);
    const info = await observer.jsm.streams.info(stream);
    const cut = info.state.last_seq + 1;
    const before = await queueRecords();
    await holder.relocate(cut);

    // Every queued message now has a copy at or above the cut.
    const copies = (await queueRecords()).filter(([s, seq]) => isMessage(s) && seq >= cut);
    expect(copies).toHaveLength(5);
    // One more after the relocation queues behind the relocated ones.
    const r = await sendText(hub!.url, sender.key, recipient.id, 'n5');
    expect(r.result?.status.state).toBe('submitted');

    // What the purge below the cut removes from the queue's view: every queue record stored below
    // it (the test removes exactly those, so the tasks' snapshots in the same log are left alone).
    for (const [, seq] of before) await observer.jsm.streams.deleteMessage(stream, seq, false);
    expect((await queueRecords()).every(([, seq]) => seq >= cut)).toBe(true);

    // A new owner reads only the relocated copies (no body in its memory): order and texts hold.
    await hub!.stop();
    hub = await startNode();
    expect(await queued()).toBe(6);
    const agent = await connect();
    await agent.waitMessages(6, 30_000);
    expect(agent.messages.slice(0, 6).map(textOf)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    await until(async () => (await queued()) === 0, 10_000);
    await closeAgents();

    // Delivered after a relocation, they stay delivered after the next takeover too.
    await hub.stop();
    hub = await startNode();
    expect(await queued()).toBe(0);
  }, 120_000);

  it('the log compactor relocates queued messages mid-drain: nothing lost, FIFO kept', async () => {
    await hub!.stop();
    // A small log compacts often: here past 100 records and 1.5 × what is live, so compactions
    // run while messages are appended and while they are delivered.
    const compacting = { LOG_COMPACT_MIN_RECORDS: '100', LOG_COMPACT_FACTOR: '1.5' };
    hub = await startNode(compacting);
    const first = (await observer.jsm.streams.info(stream)).state.first_seq;
    const texts = Array.from({ length: 150 }, (_, i) => `p${i}`);
    for (const t of texts) {
      const r = await sendText(hub.url, sender.key, recipient.id, t);
      expect(r.result?.status.state).toBe('submitted');
    }
    const a = await connect();
    await a.waitMessages(100, 60_000);
    await closeAgents();
    const got = [...a.messages];
    // Delivering adds done records and task snapshots until the log is due.
    await until(
      async () => (await observer.jsm.streams.info(stream)).state.first_seq > first,
      30_000
    );
    // A delivery pushed just before the agent left is still writing its task's start (it leaves
    // the queue after that write): count once nothing moves for a second.
    const left = await settledQueued();
    expect(left).toBeGreaterThan(0);

    // A new owner finds the rest (relocated copies), and the agent gets it in order.
    await hub.stop();
    hub = await startNode(compacting);
    expect(await queued()).toBe(left);
    const b = await connect();
    await b.waitMessages(left, 60_000);
    await until(async () => (await queued()) === 0, 10_000);
    await closeAgents();
    const all = firstArrivals([...got, ...b.messages]).map(textOf);
    expect(all).toEqual(texts);
    // At-least-once, but no more than the last delivery before each stop arrives twice.
    expect(got.length + b.messages.length - all.length).toBeLessThanOrEqual(2);
  }, 180_000);
  it('with bulk compaction off, a delivered message is deleted by its sequence instead', async () => {
    // What a replicated stream on nats-server 2.9.10 gets (a purge to a sequence is unsafe there):
    // no done records, which nothing would ever remove, and the old delete per message.
    await hub!.stop();
    const noCompaction = { LOG_COMPACT_MIN_RECORDS: '0' };
    hub = await startNode(noCompaction);
    const before = new Set((await queueRecords()).map(([, seq]) => seq));
    for (let i = 0; i < 20; i++) {
      const r = await sendText(hub.url, sender.key, recipient.id, `d${i}`);
      expect(r.result?.status.state).toBe('submitted');
    }
    const stored = (await queueRecords())
      .filter(([s, seq]) => isMessage(s) && !before.has(seq))
      .map(([, seq]) => seq);
    expect(stored).toHaveLength(20);
    const a = await connect();
    await a.waitMessages(20, 30_000);
    await until(async () => (await queued()) === 0, 10_000);
    await closeAgents();
    await until(
      () => deletes.filter(([st, seq]) => st === stream && stored.includes(seq)).length === 20,
      10_000
    );
    const after = await queueRecords();
    expect(after.filter(([, seq]) => stored.includes(seq))).toEqual([]);
    expect(after.filter(([s, seq]) => s === subjects.queueDone(label) && !before.has(seq))).toEqual(
      []
    );
    // And a new owner brings none of them back.
    await hub.stop();
    hub = await startNode(noCompaction);
    expect(await queued()).toBe(0);
  }, 120_000);
});
