import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assertReplayComplete, idleGuard } from './idle-guard.js';

describe('idleGuard', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stops a silent iteration after idleMs and fails it as UNAVAILABLE', () => {
    const iter = { stop: vi.fn() };
    const g = idleGuard(iter, 1000, 'replay of p01');
    vi.advanceTimersByTime(999);
    expect(iter.stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(iter.stop).toHaveBeenCalledOnce();
    expect(() => g.end()).toThrow(/replay of p01: nothing arrived for 1000 ms/);
  });

  it('restarts the silence on every message and ends quietly when the loop ends itself', () => {
    const iter = { stop: vi.fn() };
    const g = idleGuard(iter, 1000, 'replay');
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(900);
      g.tick();
    }
    expect(iter.stop).not.toHaveBeenCalled();
    expect(() => g.end()).not.toThrow();
    vi.advanceTimersByTime(5000);
    expect(iter.stop).not.toHaveBeenCalled();
  });
});

describe('assertReplayComplete', () => {
  it('fails a replay that read fewer records than the leader counts, as UNAVAILABLE', async () => {
    await expect(
      assertReplayComplete('queue replay of partition 03', 7, 9, () => Promise.resolve(9))
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/queue replay of partition 03: read 7 of the 9 records/),
    });
    await expect(
      assertReplayComplete('replay', 9, 9, () => Promise.reject(new Error('no')))
    ).resolves.toBeUndefined();
  });

  it('accepts a shortfall that records removed meanwhile explain', async () => {
    await expect(
      assertReplayComplete('replay', 7, 9, () => Promise.resolve(7))
    ).resolves.toBeUndefined();
  });
});
