// GET /metrics is protected and names no agent or tenant by default (issue 18, item 6): the hub
// binds 0.0.0.0, so a scrape needs METRICS_TOKEN (else ADMIN_TOKEN) as a bearer token, and the
// queue gauges are totals unless METRICS_PER_AGENT=true.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import { testHubConfig } from '../support/test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const METRICS = 'metrics-token-for-tests-0123456789';
const ADMIN = 'admin-token-for-tests-0123456789';
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;

const scrape = (authorization?: string) =>
  fetch(`${hub.url}/metrics`, { headers: authorization ? { authorization } : {} });

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, { PARTITIONS: '4', METRICS_TOKEN: METRICS, ADMIN_TOKEN: ADMIN }),
    silentLogger
  );
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('GET /metrics', () => {
  it('refuses a scrape without the metrics token with 401 and a Bearer challenge', async () => {
    for (const authorization of [undefined, 'Bearer not-the-token-0123456789', `Bearer ${ADMIN}`]) {
      const r = await scrape(authorization);
      const body = (await r.json()) as { error: { code: string; message: string } };
      console.log(`scrape with ${authorization ?? 'no header'}: ${r.status} ${body.error.message}`);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers the metrics token, and names no agent or tenant after traffic', async () => {
    const tenant = await createTenant(hub.sql, { name: 'Metered' });
    const alice = await createAgent(hub.sql, { tenantId: tenant.id, name: 'alice' });
    // A WebSocket agent that is not connected: messages to it wait in its queue.
    const bob = await createAgent(hub.sql, { tenantId: tenant.id, name: 'bob' });
    const echoed = await rpc(hub.url, alice.apiKey, 'SendMessage', {
      message: text('hello'),
      configuration: { agentId: 'echo', blocking: true },
    });
    expect(echoed.error).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const queued = await rpc(hub.url, alice.apiKey, 'SendMessage', {
        message: text(`for bob #${i}`),
        configuration: { agentId: bob.agent.id, 'x-ttl': 300 },
      });
      expect(queued.error).toBeUndefined();
    }
    await rpc(hub.url, alice.apiKey, 'GetTask', { id: 'task-unknown' });
    await fetch(`${hub.url}/api/discover/agents/${bob.agent.id}`);

    const r = await scrape(`Bearer ${METRICS}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    const body = await r.text();
    const queueLines = body.split('\n').filter((l) => l.startsWith('burrow_queue_'));
    console.log(`queue series without METRICS_PER_AGENT:\n${queueLines.join('\n')}`);
    expect(body).toContain('burrow_rpc_requests_total');
    for (const secret of [alice.agent.id, bob.agent.id, tenant.id, 'echo"']) {
      expect(body).not.toContain(secret);
    }
    expect(body).not.toMatch(/recipient="|tenant="/);
    expect(body).toMatch(/^burrow_queue_pending\{node="[^"]+"\} 2$/m);
    expect(body).toMatch(/^burrow_queue_tenant_pending\{node="[^"]+"\} 2$/m);
  });
});
