// The event outbox relay against real PostgreSQL and a real nats-server: an outbox row that NATS
// refuses for what it is (here larger than the server's max_payload) stops its batch a bounded
// number of times, is then set aside with one log line and a counter, and the rows behind it are
// published. Before, the relay retried that row first every second for ever and published nothing
// behind it.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxRelay } from '../../gateway/manage/index.js';
import { connectBus, provision, streams, type Bus } from '../../runtime/bus/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { createMetrics } from '../../runtime/metrics/index.js';
import { createDb, createTenant, jsonText, migrate, type Db } from '../../infra/db/index.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { waitFor } from '../support/queue-helpers.js';

let nats: NatsServerHandle;
let bus: Bus;
let tdb: TestDatabase;
let sql: Db;

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({
    servers: [nats.url],
    name: 'outbox-test',
    replicas: 1,
    log: silentLogger,
  });
  await provision(bus, { partitions: 1, replicas: 1, nodeTtlMs: 5_000 });
  tdb = await createTestDatabase('burrow_outbox_relay');
  sql = createDb(tdb.url, { max: 2 });
  await migrate(sql);
});

afterAll(async () => {
  await bus?.close();
  await nats?.close();
  await sql?.end({ timeout: 5 });
  await tdb?.drop();
});

describe('event outbox relay', () => {
  it('sets aside an event NATS refuses after bounded attempts and publishes the rest', async () => {
    const tenant = await createTenant(sql, { name: 'outbox' });
    const maxPayload = bus.nc.info?.max_payload ?? 1024 * 1024;
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const data = [{ amount: 1 }, { note: 'x'.repeat(maxPayload + 1) }, { amount: 2 }];
    for (let i = 0; i < 3; i++) {
      await sql`insert into event_outbox (id, tenant_id, event, data, created_at)
        values (${ids[i]!}, ${tenant.id}, 'credits.purchased', ${jsonText(data[i])}::text::jsonb,
                now() + make_interval(secs => ${i}))`;
    }
    const lines: Array<Record<string, unknown>> = [];
    const log = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }
    );
    const metrics = createMetrics({ defaultMetrics: false });
    const relay = createOutboxRelay({ sql, bus, log, metrics, intervalMs: 50 });
    relay.start();
    try {
      const published = async () =>
        (
          await sql<Array<{ id: string }>>`
            select id from event_outbox where published_at is not null`
        ).map((r) => r.id);
      await waitFor(
        'the rows behind the refused one to be published',
        async () => {
          const p = await published();
          return p.includes(ids[0]!) && p.includes(ids[2]!);
        },
        10_000
      );
      expect(await published()).not.toContain(ids[1]);
      const setAside = lines.filter(
        (l) => l.msg === 'outbox event set aside: it cannot be published'
      );
      expect(setAside).toHaveLength(1);
      expect(setAside[0]).toMatchObject({ id: ids[1] });
      // Bounded: two stops, then set aside; no retries after that.
      const retries = lines.filter((l) => l.msg === 'event outbox relay failed; will retry');
      expect(retries.length).toBeLessThanOrEqual(2);
      const counter = await metrics.registry.getSingleMetricAsString('burrow_rows_set_aside_total');
      expect(counter).toContain('burrow_rows_set_aside_total{writer="outbox"} 1');
      // Stored once each in HUB_EVENTS.
      const info = await bus.jsm.streams.info(streams.events);
      expect(info.state.messages).toBe(2);
    } finally {
      await relay.stop();
    }
  });
});
