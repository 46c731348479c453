import { describe, expect, it } from 'vitest';
import { encodedSizeOver } from './codec.js';
import { headerBytes, isPublishableSubject, recordLimits } from './payload-limits.js';

describe('payload limits', () => {
  it('derives the record limits from max_payload (docs/OPERATIONS.md table)', () => {
    const l = recordLimits(1024 * 1024);
    expect(l).toEqual({ maxPayload: 1048576, final: 1044480, active: 1028096 });
  });

  it('measures JSON in UTF-8 bytes, and only values that may be over the limit', () => {
    const msg = { role: 'user', parts: [{ kind: 'text', text: 'é'.repeat(100) }] };
    const exact = Buffer.byteLength(JSON.stringify(msg));
    expect(encodedSizeOver(msg, exact)).toBeUndefined();
    expect(encodedSizeOver(msg, exact - 1)).toBe(exact);
    expect(encodedSizeOver({ text: '\u0000'.repeat(10) }, 70)).toBe(71); // \u0000 takes 6 bytes
    expect(encodedSizeOver('x'.repeat(10), 1000)).toBeUndefined();
  });

  it('knows what a subject and its headers cost', () => {
    expect(isPublishableSubject('hubd.00.s.task.task-1')).toBe(true);
    for (const bad of ['', 'a..b', '.a', 'a.', 'a b', 'a.*', 'a.>']) {
      expect(isPublishableSubject(bad)).toBe(false);
    }
    expect(headerBytes({ 'Nats-Rollup': 'sub' }) - headerBytes({})).toBe(
      'Nats-Rollup: sub\r\n'.length
    );
  });
});
