// The queue gauges, read from every owned partition's index when metrics are scraped.
import type { HubMetrics } from '../../runtime/metrics/index.js';
import type { QueuePartition } from './queue-partition.js';

export function collectQueueMetrics(m: HubMetrics, parts: Iterable<QueuePartition>): void {
  m.queuePending.reset();
  m.queueTenantPending.reset();
  if (!m.perAgent) return collectTotals(m, parts);
  for (const qp of parts) {
    for (const r of qp.index.recipients())
      m.queuePending.set({ recipient: r }, qp.index.queuedFor(r));
    for (const [t, n] of qp.index.tenantCounts()) m.queueTenantPending.set({ tenant: t }, n);
  }
}

/** Without ids: all queued messages, and the fullest tenant's count (the one nearest its cap). */
function collectTotals(m: HubMetrics, parts: Iterable<QueuePartition>): void {
  let pending = 0;
  let fullest = 0;
  for (const qp of parts) {
    for (const r of qp.index.recipients()) pending += qp.index.queuedFor(r);
    for (const [, n] of qp.index.tenantCounts()) fullest = Math.max(fullest, n);
  }
  m.queuePending.set(pending);
  m.queueTenantPending.set(fullest);
}
