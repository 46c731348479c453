// A2A-Version negotiation (decisions.md §1).
import { describe, expect, it } from 'vitest';
import { HubError } from '../errors/index.js';
import { negotiateVersion } from './version.js';

describe('negotiateVersion', () => {
  it.each(['1.0', '1.0.0', '1.0.3', ' 1.0 ', '1'])('%j is v1', (h) => {
    expect(negotiateVersion(h)).toBe('v1');
  });

  it.each([undefined, '', '  ', '0.3', '0.3.0', '0.3.7'])('%j is v0.3', (h) => {
    expect(negotiateVersion(h)).toBe('v0.3');
  });

  it.each(['2.0', '1.1', '0.2', '0.3.x', 'latest', '1.0-beta', '01.0x'])('%j is refused', (h) => {
    try {
      negotiateVersion(h);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HubError);
      expect(err).toMatchObject({ code: 'VERSION_NOT_SUPPORTED', rpcCode: -32009 });
    }
  });
});
