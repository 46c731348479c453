// A tiny timing loop for the micro-benchmarks: warm-up, then the best of a few timed rounds (the
// machine is shared, so the minimum is the figure least disturbed by others).
export interface Timing {
  name: string;
  nsPerOp: number;
}

export function measure(name: string, fn: () => unknown, ops = 20_000, rounds = 7): Timing {
  for (let i = 0; i < ops; i++) fn();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / ops);
  }
  return { name, nsPerOp: best };
}

export function report(rows: readonly Timing[]): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) {
    console.log(`${r.name.padEnd(width)}  ${(r.nsPerOp / 1000).toFixed(2).padStart(8)} µs/op`);
  }
}

/** Runs `fn`, returning what it threw (for the rejection paths). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}
