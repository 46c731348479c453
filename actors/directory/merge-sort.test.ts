import { describe, expect, it } from 'vitest';
import { mergeSortSteps } from './merge-sort.js';

function run(
  items: Int32Array<ArrayBuffer>,
  less: (x: number, y: number) => boolean,
  budget: number
) {
  const steps = mergeSortSteps(items, less, budget);
  let yields = 0;
  for (;;) {
    const next = steps.next();
    if (next.done === true) return { sorted: Array.from(next.value), yields };
    yields++;
  }
}

describe('mergeSortSteps', () => {
  it('sorts as Array.prototype.sort does, stable, for every length', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const n of [0, 1, 2, 3, 5, 17, 64, 1000, 4097]) {
      const keys = Array.from({ length: n }, () => Math.floor(random() * 50));
      const items = Int32Array.from(keys.keys());
      const { sorted } = run(items, (x, y) => (keys[x] as number) < (keys[y] as number), 1e9);
      const expected = [...keys.keys()].sort((x, y) => (keys[x] as number) - (keys[y] as number));
      expect(sorted).toEqual(expected);
    }
  });

  it('yields after about `budget` comparisons', () => {
    const n = 10_000;
    const items = Int32Array.from({ length: n }, (_, i) => n - i);
    const { sorted, yields } = run(items, (x, y) => x < y, 1000);
    expect(sorted).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    // About n log2 n / 2 comparisons or more: well over a hundred pieces.
    expect(yields).toBeGreaterThan(50);
  });
});
