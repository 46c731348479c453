import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryAt } from './schedule.js';
import { signBody, verifySignature } from './sign.js';

describe('retryAt', () => {
  const t = 1_000_000;
  it('waits 1 s, 5 s, then 30 s, and gives up after the fourth attempt', () => {
    expect(retryAt(1, MAX_ATTEMPTS, t)?.getTime()).toBe(t + 1_000);
    expect(retryAt(2, MAX_ATTEMPTS, t)?.getTime()).toBe(t + 5_000);
    expect(retryAt(3, MAX_ATTEMPTS, t)?.getTime()).toBe(t + 30_000);
    expect(retryAt(4, MAX_ATTEMPTS, t)).toBeNull();
  });
  it('never retries a delivery allowed one attempt (a failing webhook)', () => {
    expect(retryAt(1, 1, t)).toBeNull();
  });
});

describe('signatures', () => {
  const body = '{"event":"credits.purchased","timestamp":"2026-01-01T00:00:00.000Z","data":{}}';
  it('is sha256=<hex HMAC-SHA256 of the raw body>', () => {
    const hex = createHmac('sha256', 'whsec_test').update(body).digest('hex');
    expect(signBody('whsec_test', body)).toBe(`sha256=${hex}`);
  });
  it('verifies only the exact body with the exact secret', () => {
    const sig = signBody('whsec_test', body);
    expect(verifySignature('whsec_test', body, sig)).toBe(true);
    expect(verifySignature('whsec_other', body, sig)).toBe(false);
    expect(verifySignature('whsec_test', body + ' ', sig)).toBe(false);
    expect(verifySignature('whsec_test', body, sig.slice(0, -1))).toBe(false);
    expect(verifySignature('whsec_test', body, undefined)).toBe(false);
  });
});
