// Issue 19's offline enqueue benchmark: non-blocking SendMessage over HTTP from autocannon
// (50 connections, a distinct messageId each) to WebSocket recipients that are offline, so every
// accepted message (HTTP 200, task `submitted`) is queued. Then the check that "accepted" meant
// durable: the hub is killed (SIGKILL), a new hub process takes the partitions over from JetStream,
// and its queues must hold at least every accepted message (more only by requests the hub
// accepted while the load generator was stopping, whose answers it never read).
import { cannon, type CannonResult } from './cannon.js';
import { cpuWindow, type CpuWindow } from './proc-cpu.js';
import { sendMessageBody } from './load.js';
import { queuedOn, startQueueHub } from './queue-hub.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONCURRENCY ?? 50);

export interface EnqueueReport {
  connections: number;
  recipients: number;
  load: Omit<CannonResult, 'latencies'>;
  cpu: CpuWindow;
  /** CPU µs per accepted message, per process. */
  micros: Record<string, number>;
  /** Accepted answers, warm-up included; queued before the kill; queued after the takeover. */
  accepted: number;
  queuedBefore: number;
  queuedAfterRestart: number;
  /** Every accepted message survived the kill and the takeover. */
  durable: boolean;
  takeoverMs: number;
}

export async function enqueueBench(): Promise<EnqueueReport> {
  const q = await startQueueHub('burrow_bench_enq');
  try {
    const recipients = await q.recipients(RECIPIENTS);
    let close: (() => Promise<CpuWindow>) | undefined;
    let cpu: CpuWindow | undefined;
    const load = await cannon({
      url: `${q.hub.url}/a2a`,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
      headers: { authorization: `Bearer ${q.sender.apiKey}` },
      body: (i) => sendMessageBody(i, recipients[i % RECIPIENTS]!.agent.id, `m${i}`),
      ok: (status, body) => status === 200 && body.includes('"state":"submitted"'),
      onMeasureStart: async () => {
        close = await cpuWindow(
          { hub: q.hub.pid, nats: q.nats.pid },
          { sql: q.sql, database: q.db.name }
        );
      },
      onMeasureEnd: async () => {
        cpu = await close!();
      },
    });
    const accepted = load.successes + load.warmupSuccesses;
    // Requests cut off when the load generator stopped may still be finishing in the hub.
    await new Promise((r) => setTimeout(r, 1000));
    const queuedBefore = await queuedOn(q.hub.url);
    q.hub.kill('SIGKILL');
    await q.hub.exited;
    const t0 = performance.now();
    const hub = await q.restartHub();
    // The new node rebuilds each partition's queue index from JetStream as it takes it over.
    let queuedAfterRestart = 0;
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      queuedAfterRestart = await queuedOn(hub.url);
      if (queuedAfterRestart >= queuedBefore) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const takeoverMs = performance.now() - t0;
    const micros: Record<string, number> = {};
    for (const [k, v] of Object.entries(cpu!.processes))
      micros[k] = (v * 1e6) / Math.max(1, load.successes);
    micros['postgres'] =
      ((cpu!.postgresBackends + cpu!.postgresServer) * 1e6) / Math.max(1, load.successes);
    const { latencies: _, ...rest } = load;
    return {
      connections: CONNECTIONS,
      recipients: RECIPIENTS,
      load: rest,
      cpu: cpu!,
      micros,
      accepted,
      queuedBefore,
      queuedAfterRestart,
      durable: queuedAfterRestart >= accepted,
      takeoverMs,
    };
  } finally {
    await q.close();
  }
}
