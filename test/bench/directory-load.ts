// The in-memory directory's own cost, measured in the process that loads it (issue 31): heap per
// agent after a full load (heap after GC before and after; needs node --expose-gc), the load's
// wall time and the event loop's longest stall while it ran (monitorEventLoopDelay), beside the
// longest stall of an idle loop on this machine just before (what the machine alone causes).
import { loadavg } from 'node:os';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { LiveDirectory } from '../../actors/directory/index.js';
import { createDb } from '../../infra/db/index.js';
import { silentLogger } from '../../runtime/log/index.js';

export interface DirectoryLoadReport {
  agents: number;
  /** (heapUsed + arrayBuffers) after GC, loaded minus empty, per agent. */
  bytesPerAgent: number;
  heapUsedPerAgent: number;
  arrayBuffersPerAgent: number;
  loadSeconds: number;
  /** Longest event-loop stall while loading, ms. */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  /** Longest piece of the load the directory ran without yielding, ms (the machine's load aside). */
  longestSliceMs: number;
  /** The longest piece in the loading thread's CPU time, ms (a busy machine does not inflate it). */
  longestSliceCpuMs: number;
  /** Longest major GC pause during the load, ms (inside the slices or between them). */
  gcPauseMaxMs: number;
  /** The machine's load average (1, 5, 15 min) when the load ended: how loaded the figures are. */
  loadAverage: number[];
  /** Longest stall of the idle loop over the 3 s before the load, ms: the machine's share. */
  idleLoopDelayMaxMs: number;
}

const gc = (): void => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g === undefined) throw new Error('run with node --expose-gc');
  g();
  g();
};

const used = (): { heap: number; buffers: number } => {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
};

/** Load the directory at `url` into a fresh LiveDirectory and measure it. */
export async function measureDirectoryLoad(url: string): Promise<DirectoryLoadReport> {
  const sql = createDb(url, { max: 2 });
  try {
    await sql`select 1`;
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await sleep(3000);
    idle.disable();
    const before = used();
    const live = new LiveDirectory(sql, silentLogger, { pruneEveryMs: 0 });
    const delay = monitorEventLoopDelay({ resolution: 5 });
    let gcPauseMaxMs = 0;
    const gcs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e.detail as { kind?: number } | null)?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
          gcPauseMaxMs = Math.max(gcPauseMaxMs, e.duration);
        }
      }
    });
    gcs.observe({ entryTypes: ['gc'] });
    const t0 = performance.now();
    delay.enable();
    live.start();
    while (!live.stats().loaded) await sleep(5);
    delay.disable();
    gcs.disconnect();
    const loadSeconds = (performance.now() - t0) / 1000;
    const after = used();
    const agents = live.stats().agents;
    live.close();
    return {
      agents,
      bytesPerAgent: (after.heap + after.buffers - before.heap - before.buffers) / agents,
      heapUsedPerAgent: (after.heap - before.heap) / agents,
      arrayBuffersPerAgent: (after.buffers - before.buffers) / agents,
      loadSeconds,
      loopDelayMaxMs: delay.max / 1e6,
      loopDelayP99Ms: delay.percentile(99) / 1e6,
      longestSliceMs: live.stats().longestLoadSliceMs,
      longestSliceCpuMs: live.stats().longestLoadSliceCpuMs,
      gcPauseMaxMs,
      loadAverage: loadavg(),
      idleLoopDelayMaxMs: idle.max / 1e6,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
