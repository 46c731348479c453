// Rows a batch writer gave up on: PostgreSQL refused them on their own, so they were set aside
// (logged once each) and the rest of their batch was written. Not part of HubMetrics: a writer
// asks for it on the registry it reports to, so one registry holds one such counter.
import { Counter } from 'prom-client';
import type { HubMetrics } from './index.js';

const NAME = 'burrow_rows_set_aside_total';

export function rowsSetAside(metrics: Pick<HubMetrics, 'registry'>): Counter<'writer'> {
  const existing = metrics.registry.getSingleMetric(NAME);
  if (existing) return existing as Counter<'writer'>;
  return new Counter({
    name: NAME,
    help: 'Rows a batch writer set aside after PostgreSQL refused them, by writer',
    labelNames: ['writer'],
    registers: [metrics.registry],
  });
}
