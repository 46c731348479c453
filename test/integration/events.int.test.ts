// Account events on a real nats-server: HUB_EVENTS is provisioned with the declared limits, an
// event is stored as {event, timestamp, data} on its tenant subject, and a retried id is stored once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliverPolicy, RetentionPolicy } from '@nats-io/jetstream';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { silentLogger } from '../../runtime/log/index.js';
import {
  EVENT_ID_HEADER,
  connectBus,
  decodeHubEvent,
  provision,
  publishEvent,
  streams,
  subjects,
  type Bus,
  type HubEvent,
} from '../../runtime/bus/index.js';

let nats: NatsServerHandle;
let bus: Bus;
const T1 = 'ten-aaaaaaaaaaaa';
const T2 = 'ten-bbbbbbbbbbbb';
const ref = { taskId: 'task-1', contextId: 'ctx-1', from: 'agent-s', to: 'agent-r' };

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({
    servers: [nats.url],
    name: 'events-test',
    replicas: 1,
    log: silentLogger,
  });
  await provision(bus, { partitions: 2, replicas: 1, nodeTtlMs: 5_000 });
});

afterAll(async () => {
  await bus?.close();
  await nats?.close();
});

/** Every stored event on a subject filter, read with an ordered consumer. */
async function readAll(
  filter: string
): Promise<Array<{ subject: string; id: string; ev: HubEvent }>> {
  const consumer = await bus.js.consumers.get(streams.events, {
    filter_subjects: filter,
    deliver_policy: DeliverPolicy.All,
  });
  const pending = (await consumer.info()).num_pending;
  const out: Array<{ subject: string; id: string; ev: HubEvent }> = [];
  if (pending === 0) return out;
  const msgs = await consumer.consume();
  for await (const m of msgs) {
    out.push({
      subject: m.subject,
      id: m.headers?.get(EVENT_ID_HEADER) ?? '',
      ev: decodeHubEvent(m.data),
    });
    if (m.info.pending === 0) break;
  }
  await msgs.close();
  return out;
}

describe('HUB_EVENTS', () => {
  it('is provisioned with limits retention, 7 days max age and a 2-minute duplicate window', async () => {
    const info = await bus.jsm.streams.info(streams.events);
    expect(info.config.subjects).toEqual(['hubev.>']);
    expect(info.config.retention).toBe(RetentionPolicy.Limits);
    expect(info.config.max_age).toBe(7 * 86_400 * 1e9);
    expect(info.config.duplicate_window).toBe(120 * 1e9);
    expect(info.config.num_replicas).toBe(1);
    // Provisioning again (every start, every node) is a no-op.
    await provision(bus, { partitions: 2, replicas: 1, nodeTtlMs: 5_000 });
  });

  it('stores {event, timestamp, data} on hubev.<tenant>.<event_name>', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const a = await publishEvent(bus, {
      tenantId: T1,
      event: 'message.failed',
      data: { ...ref, error: 'no WebSocket connection or HTTP endpoint is available' },
      at,
    });
    const b = await publishEvent(bus, {
      tenantId: T1,
      event: 'message.delivered',
      data: { ...ref, deliveryMethod: 'websocket' },
    });
    await publishEvent(bus, {
      tenantId: T2,
      event: 'credits.low_balance',
      data: { currentBalance: 1.5, threshold: 5, currency: 'EUR' },
    });
    expect(a.duplicate).toBe(false);
    expect(b.seq).toBeGreaterThan(a.seq);

    const t1 = await readAll(subjects.hubEventsOfTenant(T1));
    expect(t1.map((x) => x.subject)).toEqual([
      `hubev.${T1}.message_failed`,
      `hubev.${T1}.message_delivered`,
    ]);
    expect(t1[0]).toEqual({
      subject: `hubev.${T1}.message_failed`,
      id: a.id,
      ev: {
        event: 'message.failed',
        timestamp: '2026-01-02T03:04:05.678Z',
        data: { ...ref, error: 'no WebSocket connection or HTTP endpoint is available' },
      },
    });
    expect(t1[1]!.ev.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const t2 = await readAll(subjects.hubEvent(T2, 'credits.low_balance'));
    expect(t2.map((x) => x.ev.data)).toEqual([
      { currentBalance: 1.5, threshold: 5, currency: 'EUR' },
    ]);
  });

  it('stores a retried publish with the same id once', async () => {
    const tenantId = 'ten-cccccccccccc';
    const input = {
      tenantId,
      event: 'message.sent' as const,
      data: ref,
      id: 'evt-retry-1',
    };
    const first = await publishEvent(bus, input);
    const again = await publishEvent(bus, { ...input, at: new Date(Date.now() + 1_000) });
    expect(again).toEqual({ id: 'evt-retry-1', seq: first.seq, duplicate: true });
    const other = await publishEvent(bus, { ...input, id: 'evt-retry-2' });
    expect(other.duplicate).toBe(false);
    const stored = await readAll(subjects.hubEventsOfTenant(tenantId));
    expect(stored.map((x) => x.id)).toEqual(['evt-retry-1', 'evt-retry-2']);
  });

  it('refuses a tenant id that is not a subject token', async () => {
    await expect(
      publishEvent(bus, { tenantId: 'ten.*', event: 'message.sent', data: ref })
    ).rejects.toThrow(/not a NATS subject token/);
  });
});
