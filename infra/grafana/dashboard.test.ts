// The dashboard queries only what the hub exports: every burrow_* name in its expressions is a
// metric of createMetrics() (a histogram's _bucket/_sum/_count series included).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../runtime/metrics/index.js';

interface Dashboard {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
}

const dashboard = JSON.parse(
  readFileSync(new URL('./burrow-dashboard.json', import.meta.url), 'utf8')
) as Dashboard;

describe('infra/grafana/burrow-dashboard.json', () => {
  it('queries only metrics the hub exports', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    const used = new Set(
      dashboard.panels.flatMap((p) =>
        p.targets.flatMap((t) => [...t.expr.matchAll(/\bburrow_[a-z_]+/g)].map((m) => m[0]))
      )
    );
    expect(used.size).toBeGreaterThan(10);
    for (const name of used) {
      expect(exported, name).toContain(name.replace(/_(bucket|sum|count)$/, ''));
    }
  });

  it('has a panel for each signal an operator alerts on', () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n');
    for (const m of [
      'burrow_deliveries_total',
      'burrow_redeliveries_total',
      'burrow_queue_deliveries_total',
      'burrow_ws_connections',
      'burrow_ws_outbox_frames',
      'burrow_jetstream_publish_seconds_bucket',
      'burrow_jetstream_pending_acks',
      'burrow_webhook_deliveries_total',
    ]) {
      expect(exprs).toContain(m);
    }
  });
});
