// The compaction trigger and its relocate → marker → purge sequence, against an in-memory log (the
// real stream is exercised in test/integration/log-compaction.int.test.ts).
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../metrics/index.js';
import { LogCompactor, type CompactableLog } from './log-compactor.js';
import type { LogHolder } from './log-holder.js';

/** An append-only log in memory: sequence = index + 1; purge drops everything below a cut. */
class MemoryLog implements CompactableLog {
  readonly label = '00';
  readonly logHolders: LogHolder[] = [];
  readonly records = new Map<number, string>();
  readonly calls: string[] = [];
  lastSequence = 0;
  firstSequence = 1;
  fenced = false;
  purgeFails = false;

  write(what: string): number {
    this.records.set(++this.lastSequence, what);
    return this.lastSequence;
  }
  appendCompactMarker(cut: number): Promise<number> {
    this.calls.push(`marker ${cut}`);
    if (this.fenced) return Promise.reject(new Error('wrong last sequence'));
    return Promise.resolve(this.write('marker'));
  }
  purgeBelow(cut: number): Promise<number> {
    this.calls.push(`purge ${cut}`);
    if (this.purgeFails) return Promise.reject(new Error('timeout'));
    let n = 0;
    for (const seq of [...this.records.keys()]) {
      if (seq < cut) {
        this.records.delete(seq);
        n++;
      }
    }
    this.firstSequence = Math.max(this.firstSequence, cut);
    return Promise.resolve(n);
  }
}

/** Keeps `live` records alive: relocation writes each one again above the cut. */
class CopyingHolder implements LogHolder {
  held = new Map<string, number>();
  cuts: number[] = [];
  fail: Error | undefined;
  constructor(private readonly log: MemoryLog) {}
  put(name: string): void {
    this.held.set(name, this.log.write(name));
  }
  liveRecords(): number {
    return this.held.size;
  }
  async relocate(cut: number): Promise<void> {
    this.cuts.push(cut);
    this.log.calls.push(`relocate ${cut}`);
    await Promise.resolve();
    if (this.fail) throw this.fail;
    for (const [name, seq] of this.held) if (seq < cut) this.put(name);
  }
}

function setup(opts = { minRecords: 10, factor: 4 }) {
  const log = new MemoryLog();
  const holder = new CopyingHolder(log);
  log.logHolders.push(holder);
  let now = 1_000;
  const metrics = createMetrics({ defaultMetrics: false });
  const compactor = new LogCompactor(log, opts, { metrics, now: () => now });
  compactor.start();
  return { log, holder, compactor, metrics, advance: (ms: number) => (now += ms) };
}

const count = async (m: ReturnType<typeof createMetrics>, name: string, label?: string) => {
  const metric = (await m.registry.getMetricsAsJSON()).find((x) => x.name === name);
  const values = (metric?.values ?? []) as Array<{
    value: number;
    labels: Record<string, unknown>;
  }>;
  return values.filter((v) => !label || v.labels.result === label).reduce((a, v) => a + v.value, 0);
};

describe('LogCompactor trigger', () => {
  it('waits for the minimum number of records', () => {
    const { log, compactor } = setup();
    for (let i = 0; i < 10; i++) log.write(`x${i}`);
    expect(compactor.check()).toBeUndefined();
    log.write('x10');
    expect(compactor.check()).toBeInstanceOf(Promise);
  });

  it('waits for factor × the records holders still need', () => {
    const { log, holder, compactor } = setup();
    for (let i = 0; i < 5; i++) holder.put(`live${i}`);
    // 5 live × 4 = 20 records before anything is compacted.
    for (let i = 0; i < 15; i++) log.write(`old${i}`);
    expect(compactor.span).toBe(20);
    expect(compactor.threshold()).toBe(20);
    expect(compactor.check()).toBeUndefined();
    log.write('one more');
    expect(compactor.check()).toBeInstanceOf(Promise);
  });

  it('is checked after appends off the caller path, and only past the last threshold', async () => {
    const { log, compactor } = setup();
    for (let i = 0; i < 11; i++) log.write(`x${i}`);
    compactor.afterAppend();
    // Scheduled, not run inside the append.
    expect(log.calls).toEqual([]);
    await new Promise((r) => setImmediate(r));
    await compactor.idle();
    expect(log.calls).toEqual(['relocate 12', 'marker 12', 'purge 12']);
  });
});

describe('LogCompactor run', () => {
  it('relocates, writes the marker, then purges below the cut; live records survive', async () => {
    const { log, holder, compactor, metrics } = setup();
    holder.put('a');
    holder.put('b');
    for (let i = 0; i < 20; i++) log.write(`old${i}`);
    holder.put('a'); // a newer state of a: the older one is garbage now
    const cut = log.lastSequence + 1;
    await compactor.check();
    expect(log.calls).toEqual([`relocate ${cut}`, `marker ${cut}`, `purge ${cut}`]);
    expect(log.firstSequence).toBe(cut);
    // What the holder needs is all at or above the cut, and still there.
    for (const seq of holder.held.values()) {
      expect(seq).toBeGreaterThanOrEqual(cut);
      expect(log.records.has(seq)).toBe(true);
    }
    expect([...log.records.values()].filter((r) => r.startsWith('old'))).toEqual([]);
    expect(await count(metrics, 'burrow_log_compactions_total', 'done')).toBe(1);
    expect(await count(metrics, 'burrow_log_records_purged_total')).toBe(cut - 1);
  });

  it('purges nothing when a holder cannot relocate, and pauses before trying again', async () => {
    const { log, holder, compactor, metrics, advance } = setup();
    holder.put('a');
    for (let i = 0; i < 20; i++) log.write(`old${i}`);
    holder.fail = new Error('fenced');
    await compactor.check();
    expect(log.calls).toEqual([`relocate 22`]);
    expect(log.records.size).toBe(21);
    expect(await count(metrics, 'burrow_log_compactions_total', 'aborted')).toBe(1);
    holder.fail = undefined;
    expect(compactor.check()).toBeUndefined();
    advance(5_000);
    await compactor.check();
    expect(log.calls.at(-1)).toBe('purge 22');
  });

  it('purges nothing when the marker is fenced (another owner wrote)', async () => {
    const { log, compactor } = setup();
    for (let i = 0; i < 20; i++) log.write(`old${i}`);
    log.fenced = true;
    await compactor.check();
    expect(log.calls).toEqual(['relocate 21', 'marker 21']);
    expect(log.records.size).toBe(20);
  });

  it('stops before the marker when the partition is given up during relocation', async () => {
    const { log, compactor } = setup();
    for (let i = 0; i < 20; i++) log.write(`old${i}`);
    const run = compactor.check();
    compactor.close();
    await run;
    expect(log.calls).toEqual(['relocate 21']);
    expect(compactor.check()).toBeUndefined();
  });

  it('runs one compaction at a time', async () => {
    const { log, holder, compactor } = setup();
    for (let i = 0; i < 20; i++) log.write(`old${i}`);
    const first = compactor.check();
    expect(compactor.check()).toBe(first);
    await first;
    expect(holder.cuts).toEqual([21]);
  });

  it('does not compact before start()', () => {
    const log = new MemoryLog();
    const compactor = new LogCompactor(log, { minRecords: 1, factor: 2 });
    for (let i = 0; i < 5; i++) log.write(`x${i}`);
    expect(compactor.check()).toBeUndefined();
  });

  it('a failed purge leaves the log usable and counts as aborted', async () => {
    const { log, compactor, metrics } = setup();
    for (let i = 0; i < 20; i++) log.write(`old${i}`);
    log.purgeFails = true;
    await compactor.check();
    expect(await count(metrics, 'burrow_log_compactions_total', 'aborted')).toBe(1);
    expect(log.firstSequence).toBe(1);
  });
});

describe('purgeToSequenceIsSafe', () => {
  it('is safe on one replica, and on replicated streams only from 2.9.18 (nats-server#4196)', async () => {
    const { purgeToSequenceIsSafe } = await import('./partition-log.js');
    expect(purgeToSequenceIsSafe('2.9.10', 1)).toBe(true);
    expect(purgeToSequenceIsSafe('2.9.10', 3)).toBe(false);
    expect(purgeToSequenceIsSafe('2.9.17', 3)).toBe(false);
    expect(purgeToSequenceIsSafe('2.9.18', 3)).toBe(true);
    expect(purgeToSequenceIsSafe('2.10.0', 3)).toBe(true);
  });
});
