// A bottom-up merge sort whose work comes in pieces of any size: a whole read of the directory
// sorts hundreds of thousands of keys (lexeme texts, agent ids) without holding the event loop.

/**
 * Sort `items` (stable), yielding after about `budget` comparisons; returns the sorted array
 * (`items` itself or a buffer of the same length). `less(x, y)`: x sorts before y.
 */
export function* mergeSortSteps(
  items: Int32Array<ArrayBuffer>,
  less: (x: number, y: number) => boolean,
  budget: number
): Generator<void, Int32Array<ArrayBuffer>> {
  const n = items.length;
  let a = items;
  let b = new Int32Array(n);
  let work = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const x = a[i] as number;
        const y = a[j] as number;
        // The right run's item goes first only when strictly before: equal items keep their order.
        if (less(y, x)) {
          b[k++] = y;
          j++;
        } else {
          b[k++] = x;
          i++;
        }
        if (++work >= budget) {
          work = 0;
          yield;
        }
      }
      while (i < mid) b[k++] = a[i++] as number;
      while (j < hi) b[k++] = a[j++] as number;
    }
    [a, b] = [b, a];
  }
  return a;
}
