import { describe, expect, it } from 'vitest';
import { GenerationReader } from './generation-reader.js';

describe('GenerationReader', () => {
  it('shares one read among the callers waiting at once, and never one already sent', async () => {
    let reads = 0;
    let gen = 1;
    // Like a statement: sees the generation as it was when it was sent.
    const reader = new GenerationReader(async () => {
      reads++;
      const seen = gen;
      await new Promise((r) => setTimeout(r, 5));
      return String(seen);
    });
    const first = [reader.current(), reader.current(), reader.current()];
    // Sent on the next turn; a write that commits after this point must not be missed by a
    // caller that arrives now.
    await new Promise((r) => setImmediate(r));
    gen = 2;
    const late = reader.current();
    expect(await Promise.all(first)).toEqual([1n, 1n, 1n]);
    expect(await late).toBe(2n);
    expect(reads).toBe(2);
  });
});
