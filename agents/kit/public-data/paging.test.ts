import { describe, expect, it } from 'vitest';
import { readPages, readRows, type PageRead } from './paging.js';
import type { Provenance } from './upstream.js';

const cite = (page: number): Provenance => ({
  source: 'S',
  endpoint: '/rows',
  params: { page: String(page) },
  retrievedAt: '2026-01-01T00:00:00Z',
  url: `http://s/rows?page=${page}`,
  cached: false,
});

/** An upstream of `rows` numbers served `size` at most a page, as the clients' readers are. */
function upstream(rows: number, size: number) {
  const asked: Array<{ page: number; have: number; size: number }> = [];
  const read = (page: number, have: number, want: number): Promise<PageRead<number>> => {
    const n = Math.min(size, want - have);
    asked.push({ page, have, size: n });
    const start = page * size;
    const items = Array.from(
      { length: Math.max(0, Math.min(n, rows - start)) },
      (_, i) => start + i
    );
    return Promise.resolve({ items, provenance: cite(page), more: start + items.length < rows });
  };
  return { asked, read };
}

describe('readPages', () => {
  it('reads until it holds what is wanted, asking each page for what is still missing', async () => {
    const up = upstream(100, 10);
    const r = await readPages(25, 9, (page, have) => up.read(page, have, 25));
    expect(r.items).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(up.asked).toEqual([
      { page: 0, have: 0, size: 10 },
      { page: 1, have: 10, size: 10 },
      { page: 2, have: 20, size: 5 },
    ]);
    expect(r.provenance.map((p) => p.params['page'])).toEqual(['0', '1', '2']);
  });

  it('stops when the upstream has no more', async () => {
    const up = upstream(13, 10);
    const r = await readPages(50, 9, (page, have) => up.read(page, have, 50));
    expect(r.items).toHaveLength(13);
    expect(up.asked).toHaveLength(2);
  });

  it('stops at the page bound, citing every page read', async () => {
    const up = upstream(100, 10);
    const r = await readPages(50, 2, (page, have) => up.read(page, have, 50));
    expect(r.items).toHaveLength(20);
    expect(r.provenance).toEqual([cite(0), cite(1)]);
  });

  it('keeps every item of the last page, even past what is wanted', async () => {
    const r = await readPages(3, 5, () =>
      Promise.resolve({ items: [1, 2, 3, 4], provenance: cite(0), more: true })
    );
    expect(r.items).toEqual([1, 2, 3, 4]);
    expect(r.provenance).toHaveLength(1);
  });

  it('reads nothing with no pages allowed, and passes a failed page on', async () => {
    const up = upstream(10, 10);
    expect(await readPages(5, 0, (page, have) => up.read(page, have, 5))).toEqual({
      items: [],
      provenance: [],
    });
    expect(up.asked).toEqual([]);
    await expect(
      readPages(5, 3, () => Promise.reject(new Error('unexpected shape')))
    ).rejects.toThrow('unexpected shape');
  });
});

describe('readRows', () => {
  it('keeps the rows it can read, in order', () => {
    expect(readRows(['1', 'x', '3', ''], (s) => (/^\d+$/.test(s) ? Number(s) : undefined))).toEqual(
      [1, 3]
    );
  });
});
