// Keeps agents.usage_count (the `popular` order) at most about a minute old. Recounting is an
// aggregate over the whole tasks index, so it runs only when a popular search finds the counts
// older than maxAgeMs, once per node at a time, and at most once across nodes (refreshAgentUsage).
import { refreshAgentUsage, type Queryable } from '../../infra/db/index.js';

export class UsageCounts {
  private checkedAt = Number.NEGATIVE_INFINITY;
  private running: Promise<void> | undefined;

  constructor(
    private readonly sql: Queryable,
    private readonly maxAgeMs = 60_000,
    private readonly now: () => number = Date.now
  ) {}

  /** Resolves once the counts are at most maxAgeMs old (recounting first if they are not). */
  ensureFresh(): Promise<void> {
    if (this.now() - this.checkedAt < this.maxAgeMs) return Promise.resolve();
    this.running ??= refreshAgentUsage(this.sql, this.maxAgeMs)
      .then(() => {
        this.checkedAt = this.now();
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
