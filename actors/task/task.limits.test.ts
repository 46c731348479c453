import { describe, expect, it } from 'vitest';
import { recordLimits } from '../../runtime/bus/index.js';
import { taskMessageLimit } from './task.limits.js';

describe('task message limit', () => {
  it('is a third of an active record less the overhead (docs/OPERATIONS.md table)', () => {
    expect(taskMessageLimit(recordLimits(1024 * 1024).active)).toBe(339968);
    expect(taskMessageLimit(recordLimits(16 * 1024 * 1024).active)).toBe(5582848);
    expect(taskMessageLimit(0)).toBe(0);
  });
});
