// One hub node in-process against its own nats-server and database: health (ok, degraded,
// recovered), metrics, the JSON-RPC envelope, and /debug with a live actor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { loadConfig } from '../../runtime/config/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { partitionOf } from '../../runtime/cluster/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';

const ADMIN = 'admin-token-for-tests-0123456789';
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const health = async () => {
  const r = await fetch(`${hub.url}/health`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  const config = loadConfig({
    SMTP_LISTEN_PORT: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    PORT: '0',
    ADMIN_TOKEN: ADMIN,
    PARTITIONS: '8',
    HEARTBEAT_MS: '300',
    NODE_TTL_MS: '2000',
    LOCK_INACTIVE_MS: '2000',
    HEALTH_CHECK_TIMEOUT_MS: '500',
    LOG_LEVEL: 'silent',
  });
  hub = await startHub(config, silentLogger);
  await waitFor(
    () => Promise.resolve(hub.partitions.ownedPartitions().length),
    (n) => n === 8
  );
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('a single hub node', () => {
  it('owns every partition when alone', () => {
    expect(hub.partitions.ownedPartitions()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('answers /health with both checks ok', async () => {
    const before = Date.now();
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'ok',
      timestamp: expect.any(Number),
      checks: { nats: 'ok', postgres: 'ok', smtpInbound: 'ok' },
    });
    expect(body.timestamp as number).toBeGreaterThanOrEqual(before);
  });

  it('answers the JSON-RPC envelope errors on POST /a2a', async () => {
    const post = (body: string) =>
      fetch(`${hub.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { id: unknown; error: { code: number } },
      }));
    expect((await post('{nope')).body).toMatchObject({ id: null, error: { code: -32700 } });
    expect((await post('{"jsonrpc":"1.0","id":7,"method":"x"}')).body).toMatchObject({
      id: 7,
      error: { code: -32600 },
    });
    expect((await post('{"jsonrpc":"2.0","id":"a","method":"NoSuchMethod"}')).body).toMatchObject({
      id: 'a',
      error: { code: -32601 },
    });
    const big = await fetch(`${hub.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'x',
        params: { pad: 'x'.repeat(1024 * 1024 + 10) },
      }),
    });
    expect(big.status).toBe(413);
  });

  it('exposes Prometheus metrics with request counts and latency histograms', async () => {
    expect((await fetch(`${hub.url}/metrics`)).status).toBe(401);
    // No METRICS_TOKEN: the admin token serves.
    const res = await fetch(`${hub.url}/metrics`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const text = await res.text();
    expect(text).toMatch(/burrow_http_requests_total\{[^}]*route="\/health"/);
    expect(text).toContain('burrow_http_request_duration_seconds_bucket');
    expect(text).toMatch(/burrow_partitions_owned\{[^}]*\} 8/);
  });

  it('shows machines and a live actor behind the admin token', async () => {
    const auth = { authorization: `Bearer ${ADMIN}` };
    expect((await fetch(`${hub.url}/debug/machines`)).status).toBe(401);
    const list = (await (await fetch(`${hub.url}/debug/machines`, { headers: auth })).json()) as {
      machines: string[];
    };
    expect(list.machines).toContain('task');
    const def = (await (
      await fetch(`${hub.url}/debug/machines/task`, { headers: auth })
    ).json()) as { id: string };
    expect(def.id).toBe('task');

    const id = 'task-debug-1';
    await hub.host.send(
      { kind: 'task', id, partition: partitionOf(id, 8) },
      { type: 'task.start', at: 2 },
      {
        input: {
          id,
          contextId: 'ctx-1',
          senderId: 'a',
          recipientId: 'b',
          senderTenantId: 't',
          recipientTenantId: 't',
          message: { role: 'user', messageId: 'm1', parts: [] },
          at: 1,
        },
      }
    );
    const r = await fetch(`${hub.url}/debug/actors/${encodeURIComponent(`task:${id}`)}`, {
      headers: auth,
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      systemId: `task:${id}`,
      snapshot: { value: 'working', status: 'active' },
    });
    expect((await fetch(`${hub.url}/debug/actors/task%3Anope`, { headers: auth })).status).toBe(
      404
    );
  });

  it('reports degraded while NATS is down and recovers by itself', async () => {
    await nats.stop();
    const down = await waitFor(health, (h) => h.status === 503);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      status: 'degraded',
      checks: { nats: 'down', postgres: 'ok' },
    });
    await nats.restart();
    const up = await waitFor(health, (h) => h.status === 200);
    expect(up.body).toMatchObject({ status: 'ok', checks: { nats: 'ok', postgres: 'ok' } });
  });
});
