// A queued message whose stored record, read back, holds no message (a partitions fault run once
// found the record at a queued message's position to be another one): the drain delivers the
// task's own copy of the message, in order, instead of failing on that head for good and leaving
// every message behind it waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { connectQueueAgent, sendText, textOf, type QueueAgent } from '../support/queue-helpers.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createDb, createTenant, type Db } from '../../infra/db/index.js';
import {
  connectBus,
  partitionLabel,
  streams,
  subjects,
  type Bus,
} from '../../runtime/bus/index.js';
import { silentLogger } from '../../runtime/log/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let sql: Db;
let observer: Bus;
let hub: Hub;
let agent: QueueAgent | undefined;

/** Test-only look inside the queue service: one partition's body cache and index. */
interface QueuePartitionView {
  bodies: Map<number, Uint8Array>;
  index: { relocated(seq: number, stored: number): void };
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase('burrow_queue_body_mismatch');
  observer = await connectBus({
    servers: [nats.url],
    name: 'observer',
    replicas: 1,
    log: silentLogger,
  });
  // One partition: the tasks' records and the queue's share one stream.
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '1' }), silentLogger);
  await until(() => hub.partitions.ownedPartitions().length === 1, 30_000);
  sql = createDb(db.url, { max: 2 });
}, 90_000);

afterAll(async () => {
  await agent?.close();
  await hub?.stop();
  await sql?.end({ timeout: 2 });
  await observer?.close();
  await nats?.close();
  await db?.drop();
});

describe('a queued record without its message', () => {
  it("delivers the task's own copy and drains the rest in order", async () => {
    const { id: tenantId } = await createTenant(sql, { name: 'Mismatch' });
    const s = await createAgent(sql, { tenantId, name: 'sender' });
    const r = await createAgent(sql, { tenantId, name: 'recipient' });
    const first = await sendText(hub.url, s.apiKey, r.agent.id, 'first');
    const second = await sendText(hub.url, s.apiKey, r.agent.id, 'second');
    expect(first.result?.status.state).toBe('submitted');
    expect(second.result?.status.state).toBe('submitted');
    const q = await hub.queues.inspect(tenantId, r.agent.id);
    expect(q.queued).toBe(2);
    const headSeq = q.head[0]!.seq;

    // Point the head at a record that is not a queued message: the second task's own record,
    // stored after it in the same stream.
    const label = partitionLabel(0, 1);
    const other = await observer.jsm.streams.getMessage(streams.partition(label), {
      last_by_subj: subjects.actorSnapshot(label, 'task', second.result!.id),
    });
    expect(other!.seq).toBeGreaterThan(headSeq);
    const parts = (hub.queues as unknown as { parts: Map<number, QueuePartitionView> }).parts;
    const qp = parts.get(0)!;
    qp.bodies.delete(headSeq);
    qp.index.relocated(headSeq, other!.seq);

    agent = await connectQueueAgent(hub.url, r.apiKey);
    const got = await agent.waitMessages(2, 20_000);
    expect(got.map(textOf)).toEqual(['first', 'second']);
    expect(got[0]!.taskId).toBe(first.result!.id);
  }, 60_000);
});
