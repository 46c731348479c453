// The queue layer alone, in this process: enqueue throughput (admit + fenced durable append +
// index, 256 in flight), then 100,000 pending messages: the heap each costs and the time a new
// owner takes to rebuild the index. (The end-to-end enqueue and drain over HTTP and WebSocket are
// enqueue.ts and drain.ts.) Needs node --expose-gc for the heap figure.
import { randomUUID } from 'node:crypto';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { createDb, createTenant } from '../../infra/db/index.js';
import { startHub } from '../../infra/bin/start-hub.js';
import { silentLogger } from '../../runtime/log/index.js';

const PENDING = Number(process.env.BENCH_PENDING ?? 100_000);

export interface LayerReport {
  enqueueLayer: { messages: number; seconds: number; throughput: number };
  pending100k: {
    messages: number;
    heapBytesPerMessage: number;
    rebuildMs: number;
    takeoverMs: number;
  };
}

/**
 * The queue layer alone, in-process: admit + fenced durable append + index, 256 in flight; then
 * 100,000 pending messages: heap per message and the time a new owner takes to rebuild the index.
 */
export async function layerAndRebuild(): Promise<LayerReport> {
  const nats = await startNatsServer();
  const db = await createTestDatabase('burrow_bench_q2');
  const env = { QUEUE_TENANT_MAX_PENDING: '1000000', PARTITIONS: '32' };
  const config = testHubConfig(nats, db, env);
  let hub = await startHub(config, silentLogger);
  const sql = createDb(db.url, { max: 2 });
  try {
    await until(() => hub.partitions.ownedPartitions().length === 32, 30_000);
    const tenant = await createTenant(sql, { name: 'QLayer' });
    const recipients = Array.from(
      { length: 200 },
      (_, i) => `agent-bench${String(i).padStart(7, '0')}`
    );
    const senders = Array.from({ length: 10 }, (_, i) => `agent-sndr${String(i).padStart(8, '0')}`);
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let next = 0;
    const started = performance.now();
    const one = async () => {
      for (;;) {
        const i = next++;
        if (i >= PENDING) return;
        const r = recipients[i % recipients.length]!;
        const s = senders[Math.floor(i / recipients.length) % senders.length]!;
        const messageId = `m-${i}`;
        await hub.queues.enqueue({
          tenantId: tenant.id,
          recipientId: r,
          senderId: s,
          transport: 'websocket',
          key: `${s}:${messageId}`,
          maxPending: 100_000,
          expiresAt: Date.now() + 86_400_000,
          message: { role: 'user', messageId, parts: [{ kind: 'text', text: `payload ${i}` }] },
          taskId: `task-0000${randomUUID().slice(4)}`,
        });
      }
    };
    await Promise.all(Array.from({ length: 256 }, one));
    const seconds = (performance.now() - started) / 1000;
    gc?.();
    const heapAfter = process.memoryUsage().heapUsed;

    // A new owner takes over: stop this node, start another, time until every index is rebuilt.
    await hub.stop();
    const t0 = performance.now();
    hub = await startHub(testHubConfig(nats, db, env), silentLogger);
    await until(
      () => hub.queues.localSummary().reduce((a, p) => a + p.queued, 0) >= PENDING,
      120_000
    );
    const takeoverMs = performance.now() - t0;
    const rebuildMs = hub.queues.localSummary().reduce((a, p) => a + p.rebuildMs, 0);
    return {
      enqueueLayer: { messages: PENDING, seconds, throughput: PENDING / seconds },
      pending100k: {
        messages: PENDING,
        heapBytesPerMessage: gc ? (heapAfter - heapBefore) / PENDING : NaN,
        rebuildMs,
        takeoverMs,
      },
    };
  } finally {
    await sql.end({ timeout: 2 });
    await hub.stop();
    await nats.close();
    await db.drop();
  }
}
