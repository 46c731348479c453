import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { createFailedAuthLimiter } from './failed-auth.js';

describe('createFailedAuthLimiter', () => {
  it('admits maxFailures failures per address, then refuses that address until the window ends', () => {
    let t = 1_000_000;
    const l = createFailedAuthLimiter({ maxFailures: 3, windowMs: 10_000, now: () => t });
    for (let i = 0; i < 3; i++) {
      expect(l.over('10.0.0.1')).toBe(false);
      l.check('10.0.0.1');
      l.fail('10.0.0.1');
    }
    expect(l.over('10.0.0.1')).toBe(true);
    let refused: unknown;
    try {
      l.check('10.0.0.1');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(HubError);
    expect((refused as HubError).code).toBe('RATE_LIMITED');
    expect((refused as HubError).data).toMatchObject({ limit: 3, retryAfter: 10 });
    // Another address is not affected.
    expect(() => l.check('10.0.0.2')).not.toThrow();
    expect(l.over('10.0.0.2')).toBe(false);
    t += 10_000;
    expect(() => l.check('10.0.0.1')).not.toThrow();
    expect(l.over('10.0.0.1')).toBe(false);
  });

  it('forgets the oldest address beyond maxAddresses and ignores unknown clients', () => {
    const l = createFailedAuthLimiter({ maxFailures: 1, maxAddresses: 2 });
    l.fail('a');
    l.fail('b');
    l.fail('c');
    expect(() => l.check('a')).not.toThrow();
    expect(() => l.check('c')).toThrow(/Too many failed authentications/);
    l.fail('');
    expect(() => l.check('')).not.toThrow();
  });
});
