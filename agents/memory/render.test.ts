import { describe, expect, it } from 'vitest';
import { preview, renderList, renderRecall, renderStored, stamp } from './render.js';
import type { Memory } from './store.js';

const at = new Date('2026-03-04T05:06:07Z');
const memory = (id: string, content: string, tags: string[] = []): Memory => ({
  id,
  content,
  tags,
  createdAt: at,
});

describe('render', () => {
  it('stamps dates in UTC to the minute', () => {
    expect(stamp(at)).toBe('2026-03-04 05:06 UTC');
  });

  it('previews one line, cut at 200 characters', () => {
    expect(preview('a\n  b\tc')).toBe('a b c');
    const long = preview('x'.repeat(500));
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });

  it('confirms a store, or says it was already there', () => {
    expect(renderStored(memory('mem_1', 'milk', ['shopping']), false)).toBe(
      '🧠 Remembered (mem_1)\n“milk”\n🏷️ shopping'
    );
    expect(renderStored(memory('mem_1', 'milk'), true)).toBe(
      '🧠 Already remembered (mem_1), since 2026-03-04 05:06 UTC\n“milk”'
    );
  });

  it('numbers recall results with their score, date and id', () => {
    expect(renderRecall('milk', [{ ...memory('mem_1', 'buy milk'), score: 0.614 }])).toBe(
      '🔎 1 memory matches “milk”:\n1. buy milk\n   61% match • 2026-03-04 05:06 UTC • mem_1'
    );
  });

  it('numbers a list page from its offset and offers the next page only if there is one', () => {
    const page = [memory('mem_3', 'c'), memory('mem_2', 'b')];
    expect(renderList(page, { total: 5, limit: 2, offset: 1 })).toBe(
      [
        '📋 Your memories 2–3 of 5 (newest first):',
        '2. 2026-03-04 05:06 UTC — c (mem_3)',
        '3. 2026-03-04 05:06 UTC — b (mem_2)',
        '➡️ More: List my recent memories (limit: 2, offset: 3)',
      ].join('\n')
    );
    expect(renderList(page, { total: 2, limit: 2, offset: 0 })).not.toContain('More');
    expect(renderList([], { total: 2, limit: 2, offset: 9 })).toBe(
      '📋 No memories at offset 9; you have 2.'
    );
  });
});
