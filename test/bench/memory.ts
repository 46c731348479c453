// Issue 19's memory benchmark: what 2,000 idle WebSocket agents cost a hub process in V8 heap
// (and, for information, in resident memory: uWS keeps its sockets outside the heap), read through
// the hub's inspector after a full garbage collection before and after they connect; then the heap
// per message of 100,000 pending messages (queue.ts, in this process).
import WebSocket from 'ws';
import { until } from '../support/test-hub.js';
import { clusterView, startQueueHub, type BenchAgent } from './queue-hub.js';
import { layerAndRebuild, type LayerReport } from './queue.js';

const AGENTS = Number(process.env.BENCH_IDLE_AGENTS ?? 2000);

export interface MemoryReport {
  idle: {
    agents: number;
    heapBytesPerAgent: number;
    rssBytesPerAgent: number;
    heapBefore: number;
    heapAfter: number;
    /** The client sockets' heap in this process (not the hub's): for comparison only. */
    clientHeapBytesPerSocket: number;
  };
  pending: LayerReport;
}

/** A Chrome DevTools protocol session on a process's inspector. */
async function inspector(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const pending = new Map<number, (r: unknown) => void>();
  ws.on('message', (data) => {
    const m = JSON.parse((data as Buffer).toString()) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    /** heapUsed and rss after two full collections (the second frees what finalizers let go). */
    async memory(): Promise<{ heapUsed: number; rss: number }> {
      await call('HeapProfiler.collectGarbage');
      await call('HeapProfiler.collectGarbage');
      const r = (await call('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      })) as { result: { value: string } };
      return JSON.parse(r.result.value) as { heapUsed: number; rss: number };
    },
    close: () => ws.close(),
  };
}

function connect(url: string, agent: BenchAgent): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { authorization: `Bearer ${agent.apiKey}` },
      perMessageDeflate: false,
    });
    ws.on('message', (data) => {
      if ((JSON.parse((data as Buffer).toString()) as { type: string }).type === 'welcome')
        resolve(ws);
    });
    ws.once('error', reject);
  });
}

async function connectAll(url: string, agents: BenchAgent[]): Promise<WebSocket[]> {
  const out: WebSocket[] = [];
  // In batches: the measure is idle sockets, not a connection storm.
  for (let i = 0; i < agents.length; i += 100) {
    out.push(...(await Promise.all(agents.slice(i, i + 100).map((a) => connect(url, a)))));
  }
  return out;
}

export async function idleAgents(): Promise<MemoryReport['idle']> {
  const q = await startQueueHub('burrow_bench_mem', ['--inspect=127.0.0.1:0']);
  const sockets: WebSocket[] = [];
  try {
    const agents = await q.recipients(AGENTS + 50);
    const inspectorUrl = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(q.hub.log())?.[0];
    if (!inspectorUrl) throw new Error(`no inspector URL in the hub's log:\n${q.hub.log()}`);
    const session = await inspector(inspectorUrl);
    const wsUrl = `${q.hub.url.replace(/^http/, 'ws')}/ws`;
    try {
      // Fifty connect and leave first, so what every connection shares is already allocated.
      for (const ws of await connectAll(wsUrl, agents.slice(AGENTS))) ws.close();
      await until(async () => (await clusterView(q.hub.url)).connections === 0, 10_000);
      const before = await session.memory();
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      const clientBefore = process.memoryUsage().heapUsed;
      sockets.push(...(await connectAll(wsUrl, agents.slice(0, AGENTS))));
      await until(async () => (await clusterView(q.hub.url)).connections === AGENTS, 10_000);
      // Idle: whatever a connection sets off (presence, backlog checks) has settled.
      await new Promise((r) => setTimeout(r, 3000));
      const after = await session.memory();
      gc?.();
      const clientAfter = process.memoryUsage().heapUsed;
      return {
        agents: AGENTS,
        heapBytesPerAgent: (after.heapUsed - before.heapUsed) / AGENTS,
        rssBytesPerAgent: (after.rss - before.rss) / AGENTS,
        heapBefore: before.heapUsed,
        heapAfter: after.heapUsed,
        clientHeapBytesPerSocket: gc ? (clientAfter - clientBefore) / AGENTS : NaN,
      };
    } finally {
      session.close();
    }
  } finally {
    for (const ws of sockets) ws.terminate();
    await q.close();
  }
}

export async function memoryBench(): Promise<MemoryReport> {
  const idle = await idleAgents();
  const pending = await layerAndRebuild();
  return { idle, pending };
}
