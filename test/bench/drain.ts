// Issue 19's drain benchmark. Offline WebSocket recipients get a backlog each (non-blocking
// SendMessage over HTTP, autocannon, 50 connections), then reconnect at once, in two groups on the
// same machine, each group on a hub of its own: 300 (each should be drained at the spec's 10/s ±
// 10%), then 1,000 (≥ 3,000 deliveries/s in all, the slowest recipient getting at least half what the
// fastest gets). Each recipient's rate is counted over the 10 s after its own welcome, so a slow
// reconnection of the group does not eat into anyone's window; each backlog lasts past the window
// at 10/s. The group's rate in all is the sum of its recipients' rates.
import WebSocket from 'ws';
import { cannon } from './cannon.js';
import { cpuWindow, settle, type CpuWindow } from './proc-cpu.js';
import { sendMessageBody } from './load.js';
import { queuedOn, startQueueHub, type BenchAgent, type QueueHub } from './queue-hub.js';

const PACED = Number(process.env.BENCH_DRAIN_PACED ?? 300);
const MASS = Number(process.env.BENCH_DRAIN_MASS ?? 1000);
const WINDOW = Number(process.env.BENCH_DRAIN_SECONDS ?? 10);
/** The spec's pace per recipient (QUEUE_DRAIN_PER_SECOND's default). */
const PACE = 10;
/** Enough for the window and 2 s to spare, at PACE. */
const BACKLOG = Number(process.env.BENCH_DRAIN_BACKLOG ?? PACE * (WINDOW + 2));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

export interface GroupDrain {
  recipients: number;
  windowSeconds: number;
  /** From the first connection attempt until every socket had its welcome. */
  reconnectMs: number;
  deliveries: number;
  /** The sum of the recipients' rates. */
  total: number;
  /** Each recipient's deliveries in the WINDOW s after its welcome ÷ WINDOW. */
  perRecipient: { min: number; p10: number; median: number; p90: number; max: number };
  withinTenPercent: number;
  /** Recipients that got nothing in the window; recipients whose backlog ran out before its end. */
  unserved: number;
  ranDry: number;
  /** Slowest recipient's rate ÷ the fastest's. */
  slowestOverFastest: number;
  firstMessageAfterWelcomeMs: { median: number; p99: number };
  droppedSockets: number;
  /** From the first connection attempt until the last recipient's window ends. */
  cpu: CpuWindow;
  /** CPU µs per delivery in that time, per process. */
  micros: Record<string, number>;
}

export interface Seeding {
  messages: number;
  accepted: number;
  seconds: number;
  throughput: number;
}

export interface DrainReport {
  backlog: number;
  /** Each group on a hub of its own, with its seeding and how long the hub then took to idle. */
  paced: GroupDrain & { seeding: Seeding; settledSeconds: number };
  mass: GroupDrain & { seeding: Seeding; settledSeconds: number };
}

/** All of `group` reconnect at once; each one's deliveries are counted for WINDOW s after its welcome. */
async function reconnect(
  q: QueueHub,
  group: BenchAgent[],
  backlog: Map<string, number>
): Promise<GroupDrain> {
  const arrivals = new Map<string, number[]>();
  const welcomed = new Map<string, number>();
  const dropped = new Set<string>();
  const sockets: WebSocket[] = [];
  let closing = false;
  const wsUrl = `${q.hub.url.replace(/^http/, 'ws')}/ws`;
  const close = await cpuWindow(
    { hub: q.hub.pid, nats: q.nats.pid },
    { sql: q.sql, database: q.db.name }
  );
  const t0 = performance.now();
  try {
    await Promise.all(
      group.map(
        (r) =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(wsUrl, {
              headers: { authorization: `Bearer ${r.apiKey}` },
              perMessageDeflate: false,
            });
            sockets.push(ws);
            const times: number[] = [];
            arrivals.set(r.agent.id, times);
            ws.on('message', (data) => {
              const text = (data as Buffer).toString();
              // Cheaper than a parse: the benchmark process shares the cores with the hub.
              if (text.includes('"type":"message"')) times.push(performance.now());
              else if ((JSON.parse(text) as { type: string }).type === 'welcome') {
                welcomed.set(r.agent.id, performance.now());
                resolve();
              }
            });
            ws.on('error', (err) => {
              if (!welcomed.has(r.agent.id)) reject(err);
            });
            ws.on('close', () => {
              if (!closing) dropped.add(r.agent.id);
            });
          })
      )
    );
    const reconnectMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, WINDOW * 1000));
    const end = performance.now();
    const cpu = await close();
    closing = true;
    const seconds = WINDOW;
    let all = 0;
    const rates: number[] = [];
    const firstAfterWelcome: number[] = [];
    let deliveries = 0;
    let ranDry = 0;
    for (const r of group) {
      const t = arrivals.get(r.agent.id)!;
      const w0 = welcomed.get(r.agent.id)!;
      const w1 = w0 + WINDOW * 1000;
      const inWindow = t.filter((x) => x >= w0 && x < w1).length;
      deliveries += inWindow;
      all += t.filter((x) => x < end).length;
      rates.push(inWindow / seconds);
      if (t.length >= (backlog.get(r.agent.id) ?? 0) && t.at(-1)! < w1) ranDry++;
      if (t.length > 0) firstAfterWelcome.push(t[0]! - welcomed.get(r.agent.id)!);
    }
    const micros: Record<string, number> = {};
    for (const [k, v] of Object.entries(cpu.processes)) micros[k] = (v * 1e6) / Math.max(1, all);
    micros['postgres'] = ((cpu.postgresBackends + cpu.postgresServer) * 1e6) / Math.max(1, all);
    const max = pct(rates, 100);
    return {
      recipients: group.length,
      windowSeconds: seconds,
      reconnectMs,
      deliveries,
      total: deliveries / seconds,
      perRecipient: {
        min: pct(rates, 0),
        p10: pct(rates, 10),
        median: pct(rates, 50),
        p90: pct(rates, 90),
        max,
      },
      withinTenPercent: rates.filter((r) => r >= PACE * 0.9 && r <= PACE * 1.1).length,
      unserved: rates.filter((r) => r === 0).length,
      ranDry,
      slowestOverFastest: max > 0 ? pct(rates, 0) / max : 0,
      firstMessageAfterWelcomeMs: {
        median: pct(firstAfterWelcome, 50),
        p99: pct(firstAfterWelcome, 99),
      },
      droppedSockets: dropped.size,
      cpu,
      micros,
    };
  } finally {
    closing = true;
    for (const ws of sockets) ws.terminate();
  }
}

/** A hub of its own for one group: its recipients get their backlog, then reconnect at once. */
async function drainGroup(
  size: number,
  dbPrefix: string
): Promise<GroupDrain & { seeding: Seeding; settledSeconds: number }> {
  const q = await startQueueHub(dbPrefix);
  try {
    const group = await q.recipients(size);
    // Round robin over the recipients, so each gets BACKLOG (fewer only where a request failed).
    const backlog = new Map<string, number>();
    const messages = size * BACKLOG;
    const seeding = await cannon({
      url: `${q.hub.url}/a2a`,
      connections: 50,
      warmupSeconds: 0,
      amount: messages,
      headers: { authorization: `Bearer ${q.sender.apiKey}` },
      body: (i) => sendMessageBody(i, group[i % size]!.agent.id, `d${i}`),
      ok: (status, body, i) => {
        const ok = status === 200 && body.includes('"state":"submitted"');
        const id = group[i % size]!.agent.id;
        if (ok) backlog.set(id, (backlog.get(id) ?? 0) + 1);
        return ok;
      },
    });
    const queued = await queuedOn(q.hub.url);
    if (queued < seeding.successes)
      throw new Error(`${seeding.successes} messages accepted but ${queued} queued`);
    // What the hub still does after the seeding (index writes, removals) is not the drain's.
    const settledSeconds = await settle([q.hub.pid, q.nats.pid]);
    const drained = await reconnect(q, group, backlog);
    return {
      ...drained,
      seeding: {
        messages,
        accepted: seeding.successes,
        seconds: seeding.seconds,
        throughput: seeding.throughput,
      },
      settledSeconds,
    };
  } finally {
    await q.close();
  }
}

export async function drainBench(): Promise<DrainReport> {
  // A hub each: the first group's closed sockets must not weigh on the second's drain.
  const paced = await drainGroup(PACED, 'burrow_bench_drain_a');
  const mass = await drainGroup(MASS, 'burrow_bench_drain_b');
  return { backlog: BACKLOG, paced, mass };
}
