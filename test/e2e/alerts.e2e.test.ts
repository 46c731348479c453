// GET /api/alerts through a running hub, each alert raised by traffic the test makes: failed
// messages above 5% (error_rate), a burst with no history (unusual_traffic), a disconnected
// WebSocket agent (agent_offline), and a key over its limit (rate_limit_exceeded); tenants apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import {
  createAgent,
  createTenant,
  hashApiKey,
  issueAdminKey,
  setTenantRateLimit,
} from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let bob: TestWsAgent;
const keys = { alice: '', bob: '', admin: '', gammaAdmin: '', gammaReader: '' };
const ids = { alice: '', bob: '', idle: '' };

interface AlertList {
  alerts: Array<{ type: string; details: Record<string, unknown> }>;
}

async function alerts(key: string): Promise<AlertList['alerts']> {
  const res = await fetch(`${hub.url}/api/alerts`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as AlertList).alerts;
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const gamma = await createTenant(hub.sql, { name: 'Gamma' });
  for (const name of ['alice', 'bob', 'idle'] as const) {
    const c = await createAgent(hub.sql, { tenantId: acme.id, name });
    ids[name] = c.agent.id;
    if (name !== 'idle') keys[name] = c.apiKey;
  }
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  keys.gammaAdmin = (await issueAdminKey(hub.sql, gamma.id)).key;
  keys.gammaReader = (await issueAdminKey(hub.sql, gamma.id)).key;
  await setTenantRateLimit(hub.sql, gamma.id, 2);
  bob = await connectWsAgent(hub.url, keys.bob);
  // Bob fails 3 of 50 messages: 6% > 5%, and 50 messages with no history is unusual traffic.
  let n = 0;
  bob.ws.on('message', (data) => {
    const f = JSON.parse((data as Buffer).toString()) as { type?: string; taskId?: string };
    if (f.type !== 'message') return;
    n += 1;
    const state = n % 16 === 0 ? 'failed' : 'completed';
    bob.send({ type: 'task_response', taskId: f.taskId, status: { state } });
  });
  for (let i = 0; i < 50; i++) {
    await rpc(hub.url, keys.alice, 'SendMessage', {
      message: text(`m${i}`),
      configuration: { agentId: ids.bob, blocking: true },
    });
  }
}, 60_000);

afterAll(async () => {
  await bob?.close();
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('GET /api/alerts', () => {
  it('raises error_rate and unusual_traffic from the traffic sent', async () => {
    // The task index trails the log by a batch: wait until all 50 sent tasks are counted, not
    // just until the alert's threshold is crossed.
    await until(async () => {
      const d = (await alerts(keys.admin)).find((a) => a.type === 'error_rate')?.details as
        { finished?: number } | undefined;
      return d?.finished === 50;
    });
    const got = await alerts(keys.admin);
    expect(got.find((a) => a.type === 'error_rate')?.details).toMatchObject({
      failed: 3,
      finished: 50,
    });
    expect(got.find((a) => a.type === 'unusual_traffic')?.details).toMatchObject({
      lastHour: 50,
    });
  });

  it('lists WebSocket agents that are not connected, and drops one once it connects', async () => {
    const offline = (await alerts(keys.admin))
      .filter((a) => a.type === 'agent_offline')
      .map((a) => a.details.agentId);
    expect(offline.sort()).toEqual([ids.alice, ids.idle].sort());
    const alice = await connectWsAgent(hub.url, keys.alice);
    await until(async () =>
      (await alerts(keys.admin)).every((a) => a.details.agentId !== ids.alice)
    );
    await alice.close();
  });

  it('raises rate_limit_exceeded for a key over its limit, for its tenant only', async () => {
    expect((await alerts(keys.gammaReader)).some((a) => a.type === 'rate_limit_exceeded')).toBe(
      false
    );
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${hub.url}/api/credits`, {
        headers: { authorization: `Bearer ${keys.gammaAdmin}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // The node writes its counts back in batches, about once a second
    // (gateway/ratelimit/lease-limiter.ts): wait for the refused request to be recorded (polling
    // through the reader's key would spend its own limit of 2).
    await until(async () => {
      const [w] = await hub.sql<{ hits: number }[]>`
        select hits from rate_limit_windows where key_hash = ${hashApiKey(keys.gammaAdmin)}
        order by window_start desc limit 1`;
      return w?.hits === 3;
    });
    // Another key of the tenant has its own count, and sees the alert.
    const got = await alerts(keys.gammaReader);
    expect(got.find((a) => a.type === 'rate_limit_exceeded')?.details).toMatchObject({
      hits: 3,
      limit: 2,
    });
    expect((await alerts(keys.admin)).some((a) => a.type === 'rate_limit_exceeded')).toBe(false);
  });
});
