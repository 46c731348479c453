// A small seeded PRNG for the fuzz tests (mulberry32): the same seed gives the same inputs, so a
// failure can be replayed with FUZZ_SEED=<seed>.

export interface Rng {
  readonly seed: number;
  /** [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  bytes(n: number): Buffer;
}

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    seed: seed >>> 0,
    next,
    int,
    between: (lo, hi) => lo + int(hi - lo + 1),
    pick: (items) => items[int(items.length)]!,
    chance: (p) => next() < p,
    bytes: (n) => {
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++) b[i] = int(256);
      return b;
    },
  };
}

/** FUZZ_SEED from the environment (decimal or 0x hex), else a fresh one. */
export function fuzzSeed(env: string | undefined): number {
  if (env !== undefined && env.trim() !== '') {
    const n = Number(env.trim());
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) {
      throw new Error(`FUZZ_SEED must be an integer in [0, 2^32): ${env}`);
    }
    return n;
  }
  return Math.floor(Math.random() * 0x100000000);
}
