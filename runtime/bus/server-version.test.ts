// What the hub concludes from the NATS server's version (the INFO a connection gets).
import { describe, expect, it } from 'vitest';
import { subjectCasIsSafe, syncAlwaysSupported } from './connection.js';

describe('syncAlwaysSupported', () => {
  it('is true from nats-server 2.10 on, false before', () => {
    expect(syncAlwaysSupported('2.9.10')).toBe(false);
    expect(syncAlwaysSupported('2.9.25')).toBe(false);
    expect(syncAlwaysSupported('2.10.0')).toBe(true);
    expect(syncAlwaysSupported('2.12.1')).toBe(true);
    expect(syncAlwaysSupported('3.0.0')).toBe(true);
    expect(syncAlwaysSupported('0.0.0')).toBe(false);
  });
});

describe('subjectCasIsSafe', () => {
  it('is exact on one replica always, on replicated streams from 2.9.21', () => {
    expect(subjectCasIsSafe('2.9.10', 1)).toBe(true);
    expect(subjectCasIsSafe('2.9.10', 3)).toBe(false);
    expect(subjectCasIsSafe('2.9.21', 3)).toBe(true);
  });
});
