// Issue 4's benchmarks: (1) enqueue throughput to offline recipients, durable, end to end
// (non-blocking SendMessage over HTTP to a hub process) and at the queue layer (admit + fenced
// append + index, in-process); (2) drain pacing when 1,000 recipients reconnect at once (each
// should get 10/s ± 10%); (3) memory and index-rebuild time for 100,000 pending messages.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { startHubProcess } from '../support/hub-process.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';
import { startHub } from '../../infra/bin/start-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { runLoad, sendMessageBody, type LoadResult } from './load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 1000);
const PENDING = Number(process.env.BENCH_PENDING ?? 100_000);
/** Messages each reconnecting recipient drains in the pacing measurement. */
const DRAIN_EACH = Number(process.env.BENCH_DRAIN_EACH ?? 10);
/** BENCH_TRACE=1: print the hub's live actors per second during the drain, and its warnings. */
const TRACE = process.env.BENCH_TRACE === '1';
const TRACE_TOKEN = 'bench-admin-token-0123456789';

/** CPU seconds (user + system) a process has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

interface ClusterView {
  actors: Array<{ actors: number }>;
  queues: Array<{ queued: number }>;
}

/** How many messages the hub's queues hold. */
async function queuedOn(url: string): Promise<number> {
  const r = await fetch(`${url}/debug/cluster`, {
    headers: { authorization: `Bearer ${TRACE_TOKEN}` },
  });
  const c = (await r.json()) as ClusterView;
  return c.queues.reduce((a, q) => a + q.queued, 0);
}

/** Samples /debug/cluster once a second until stopped: live actors and queues on the hub. */
function traceCluster(url: string): () => void {
  const started = performance.now();
  const timer = setInterval(() => {
    void fetch(`${url}/debug/cluster`, { headers: { authorization: `Bearer ${TRACE_TOKEN}` } })
      .then((r) => r.json() as Promise<ClusterView>)
      .then((c) => {
        const actors = c.actors.map((a) => a.actors).filter((n) => n > 0);
        const queued = c.queues.reduce((a, q) => a + q.queued, 0);
        const t = ((performance.now() - started) / 1000).toFixed(0);
        process.stdout.write(`trace t=${t}s live actors ${actors.join(',')} queued ${queued}\n`);
      })
      .catch(() => undefined);
  }, 1000);
  return () => clearInterval(timer);
}

export interface QueueBenchReport {
  enqueueHttp: LoadResult & { hubMsPerMessage: number; natsMsPerMessage: number };
  enqueueLayer: { messages: number; seconds: number; throughput: number };
  drain: {
    recipients: number;
    messagesEach: number;
    ratePerRecipient: { min: number; p10: number; median: number; p90: number; max: number };
    withinTenPercent: number;
    firstMessageAfterWelcomeMs: { median: number; p99: number };
    /** CPU the hub and NATS spent per delivered message while the drain ran (load-independent). */
    hubMsPerMessage: number;
    natsMsPerMessage: number;
    /** Sockets closed during the drain (left out of the rates). */
    droppedSockets: number;
  };
  pending100k: {
    messages: number;
    heapBytesPerMessage: number;
    rebuildMs: number;
    takeoverMs: number;
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** Enqueue over HTTP to offline WebSocket recipients, then 1,000 of them reconnect at once. */
export async function enqueueAndDrain(): Promise<Pick<QueueBenchReport, 'enqueueHttp' | 'drain'>> {
  const nats = await startNatsServer();
  const db = await createTestDatabase('burrow_bench_q');
  const hub = await startHubProcess({
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      QUEUE_TENANT_MAX_PENDING: '1000000',
      // The benchmark measures the hub, not the per-key rate limit.
      RATE_LIMIT_PER_MINUTE: '1000000',
      ADMIN_TOKEN: TRACE_TOKEN,
    },
    // e.g. HUB_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the hub under load.
    ...(process.env.HUB_NODE_ARGS ? { nodeArgs: process.env.HUB_NODE_ARGS.split(' ') } : {}),
  });
  const sql = createDb(db.url, { max: 4 });
  const sockets: WebSocket[] = [];
  try {
    const tenant = await createTenant(sql, { name: 'QBench' });
    const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
    const recipients: Array<Awaited<ReturnType<typeof createAgent>>> = [];
    for (let i = 0; i < RECIPIENTS; i++) {
      recipients.push(await createAgent(sql, { tenantId: tenant.id, name: `r${i}` }));
    }
    const cpuAtLoad = { hub: cpuSeconds(hub.pid), nats: cpuSeconds(nats.pid) };
    const load = await runLoad({
      url: `${hub.url}/a2a`,
      concurrency: 50,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
      headers: { authorization: `Bearer ${sender.apiKey}` },
      body: (i) => sendMessageBody(i, recipients[i % RECIPIENTS]!.agent.id, `m${i}`),
      ok: (status, body) => status === 200 && body.includes('"state":"submitted"'),
    });
    // Every message of the run, warm-up included, is still queued (the recipients are offline).
    const sent = await queuedOn(hub.url);
    const enqueueHttp = {
      ...load,
      hubMsPerMessage: ((cpuSeconds(hub.pid) - cpuAtLoad.hub) * 1000) / sent,
      natsMsPerMessage: ((cpuSeconds(nats.pid) - cpuAtLoad.nats) * 1000) / sent,
    };

    // Top up (untimed) so every recipient holds at least DRAIN_EACH messages.
    const have = Math.floor(enqueueHttp.requests / RECIPIENTS);
    let topUp = Math.max(0, DRAIN_EACH - have) * RECIPIENTS;
    let k = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (topUp-- > 0) {
          const i = k++;
          await fetch(`${hub.url}/a2a`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${sender.apiKey}`,
              'content-type': 'application/json',
            },
            body: sendMessageBody(i, recipients[i % RECIPIENTS]!.agent.id, `t${i}`),
          }).then((r) => r.text());
        }
      })
    );
    const stopTrace = TRACE ? traceCluster(hub.url) : () => undefined;
    const cpuBefore = { hub: cpuSeconds(hub.pid), nats: cpuSeconds(nats.pid) };
    // Every recipient now holds about the same number of messages; all reconnect at once.
    const arrivals = new Map<string, number[]>();
    /** Sockets closed during the drain (1006: without a close frame), by code and reason. */
    const closes = new Map<string, number>();
    let closing = false;
    const dropped = new Set<string>();
    const errors = new Map<string, number>();
    const welcomed = new Map<string, number>();
    await Promise.all(
      recipients.map(
        (r) =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(`${hub.url.replace(/^http/, 'ws')}/ws`, {
              headers: { authorization: `Bearer ${r.apiKey}` },
              perMessageDeflate: false,
            });
            sockets.push(ws);
            const times: number[] = [];
            arrivals.set(r.agent.id, times);
            ws.on('message', (data) => {
              const f = JSON.parse((data as Buffer).toString()) as { type: string };
              if (f.type === 'welcome') {
                welcomed.set(r.agent.id, performance.now());
                resolve();
              } else if (f.type === 'message') times.push(performance.now());
            });
            ws.on('error', (err) => {
              // After the welcome an error only explains a close that follows: count it there.
              if (welcomed.has(r.agent.id))
                errors.set(err.message, (errors.get(err.message) ?? 0) + 1);
              else reject(err);
            });
            ws.on('close', (code, reason) => {
              if (closing) return;
              dropped.add(r.agent.id);
              const why = `${code} ${reason.toString()}`;
              closes.set(why, (closes.get(why) ?? 0) + 1);
            });
          })
      )
    );
    const want = DRAIN_EACH;
    // A closed socket gets nothing more: waiting for it would only time out.
    await until(
      () => [...arrivals].every(([id, t]) => t.length >= want || dropped.has(id)),
      120_000
    ).catch(() => undefined);
    stopTrace();
    const delivered = [...arrivals.values()].reduce((a, t) => a + t.length, 0);
    const drainCpu = {
      hubMsPerMessage: ((cpuSeconds(hub.pid) - cpuBefore.hub) * 1000) / delivered,
      natsMsPerMessage: ((cpuSeconds(nats.pid) - cpuBefore.nats) * 1000) / delivered,
    };
    closing = true;
    if (closes.size > 0)
      process.stdout.write(
        `sockets closed during the drain: ${JSON.stringify([...closes])}, errors ${JSON.stringify([...errors])}\n`
      );
    if (TRACE) {
      const noisy = hub
        .log()
        .split('\n')
        .filter((l) => /"level":(40|50|60)/.test(l));
      process.stdout.write(`hub warnings: ${noisy.length}\n${noisy.slice(0, 20).join('\n')}\n`);
    }
    const rates: number[] = [];
    const firstAfterWelcome: number[] = [];
    for (const [id, t] of arrivals) {
      const n = Math.min(t.length, want);
      if (n >= 2) rates.push(((n - 1) * 1000) / (t[n - 1]! - t[0]!));
      if (t.length > 0) firstAfterWelcome.push(t[0]! - (welcomed.get(id) ?? t[0]!));
    }
    return {
      enqueueHttp,
      drain: {
        recipients: RECIPIENTS,
        messagesEach: want,
        ratePerRecipient: {
          min: pct(rates, 0),
          p10: pct(rates, 10),
          median: pct(rates, 50),
          p90: pct(rates, 90),
          max: pct(rates, 100),
        },
        withinTenPercent: rates.filter((r) => r >= 9 && r <= 11).length,
        firstMessageAfterWelcomeMs: {
          median: pct(firstAfterWelcome, 50),
          p99: pct(firstAfterWelcome, 99),
        },
        ...drainCpu,
        droppedSockets: dropped.size,
      },
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    await sql.end({ timeout: 2 });
    hub.kill('SIGTERM');
    await hub.exited;
    await nats.close();
    await db.drop();
  }
}

/**
 * The queue layer alone, in-process: admit + fenced durable append + index, 256 in flight; then
 * 100,000 pending messages: heap per message and the time a new owner takes to rebuild the index.
 */
export async function layerAndRebuild(): Promise<
  Pick<QueueBenchReport, 'enqueueLayer' | 'pending100k'>
> {
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

export async function queueBench(): Promise<QueueBenchReport> {
  const a = await enqueueAndDrain();
  const b = await layerAndRebuild();
  return { ...a, ...b };
}
