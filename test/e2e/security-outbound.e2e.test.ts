// The outbound URL guard (issue 10, Must 5): with OUTBOUND_ALLOW_PRIVATE=false the hub calls no
// loopback, private, link-local or metadata address for an HTTP agent or a webhook — by literal,
// by IPv4-mapped IPv6, or by a name that resolves there — and says why: the task fails with the
// reason, a webhook delivery is recorded as failed with it. The receivers count what reached them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, createWebhook, issueAdminKey } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let agentServer: Server;
let agentHits = 0;
let port = 0;
let receiver: WebhookReceiver;
let tenantId = '';
const keys = { sender: '', admin: '' };

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  agentServer = createServer((req, res) => {
    agentHits++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'reached' }));
  });
  await new Promise<void>((r) => agentServer.listen(0, '127.0.0.1', r));
  port = (agentServer.address() as AddressInfo).port;
  receiver = await startWebhookReceiver();
  hub = await startHub(
    testHubConfig(nats, db, { PARTITIONS: '4', OUTBOUND_ALLOW_PRIVATE: 'false' }),
    silentLogger
  );
  const tenant = await createTenant(hub.sql, { name: 'Guarded' });
  tenantId = tenant.id;
  keys.sender = (await createAgent(hub.sql, { tenantId, name: 'sender' })).apiKey;
  keys.admin = (await issueAdminKey(hub.sql, tenantId)).key;
  // Until the hub has read the tenant's queue partition, a new recipient counts as backed up and
  // a send queues behind it (FIFO), answering `submitted`: the first case met that once in CI.
  await until(() => !hub.queues.hasBacklog('agent-probe', tenantId));
});

afterAll(async () => {
  await hub?.stop();
  agentServer?.close();
  await receiver?.close();
  await nats?.close();
  await db?.drop();
});

describe('HTTP agents behind the outbound guard', () => {
  it.each([
    ['a loopback literal', () => `http://127.0.0.1:${port}/a2a`],
    ['a name resolving to loopback', () => `http://localhost:${port}/a2a`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port}/a2a`],
    ['IPv6 loopback', () => `http://[::1]:${port}/a2a`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private range', () => 'http://10.0.0.1:8080/a2a'],
    ['a CGNAT address', () => 'http://100.64.0.1/a2a'],
  ])('fails the task with the reason when the agent URL is %s', async (_what, url) => {
    const before = agentHits;
    const agent = await createAgent(hub.sql, { tenantId, name: 'guarded', url: url() });
    const r = await rpc(hub.url, keys.sender, 'SendMessage', {
      message: text('hello'),
      configuration: { agentId: agent.agent.id, blocking: true },
    });
    expect(r.error).toBeUndefined();
    const task = r.result as { status: { state: string } };
    expect(task.status.state).toBe('failed');
    const shown = JSON.stringify(task.status);
    expect(shown).toMatch(/agent URL resolves to a private address/);
    expect(shown).toMatch(/OUTBOUND_ALLOW_PRIVATE=true/);
    expect(agentHits).toBe(before);
  });

  it('never connected to the agent server', () => {
    console.log(`requests that reached the loopback HTTP agent: ${agentHits}`);
    expect(agentHits).toBe(0);
  });
});

describe('webhooks behind the outbound guard', () => {
  let hookId = '';

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${hub.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('refuses to register a webhook or an HTTP agent at a loopback or private literal', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:8080/hook',
      'http://[::1]/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
    ]) {
      const hook = await call('POST', '/api/webhooks', { url, events: ['credits.purchased'] });
      expect(hook.status, url).toBe(400);
      expect(hook.body.error).toMatchObject({
        code: 'INVALID_PARAMS',
        details: { field: 'url' },
        message: expect.stringMatching(/OUTBOUND_ALLOW_PRIVATE=true|never called/),
      });
      const agent = await call('POST', '/api/agents', { name: 'local agent', url });
      expect(agent.status, url).toBe(400);
      expect(agent.body.error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'url' } });
    }
    // A name is judged when the hub calls it (DNS may change after registration).
    const named = await call('POST', '/api/webhooks', {
      url: 'http://hooks.example.com/in',
      events: ['credits.purchased'],
    });
    expect(named.status).toBe(201);
    await call('DELETE', `/api/webhooks/${(named.body.webhook as { id: string }).id}`);
  });

  it('refuses the test delivery to a loopback receiver registered earlier, and says why', async () => {
    // Registered directly, as if while OUTBOUND_ALLOW_PRIVATE was still true.
    hookId = (
      await createWebhook(hub.sql, { tenantId, url: receiver.url, events: ['credits.purchased'] })
    ).webhook.id;
    const test = await call('POST', `/api/webhooks/${hookId}/test`);
    expect(test.body).toMatchObject({ delivered: false });
    expect(String(test.body.error)).toMatch(
      /webhook URL refused: 127\.0\.0\.1 is a loopback address .*OUTBOUND_ALLOW_PRIVATE=true/
    );
  });

  it('records an event delivery as failed with the reason, without a retry', async () => {
    expect((await call('POST', '/api/credits/purchase', { amount: 100 })).status).toBe(200);
    const rows = await until(async () => {
      const r = await hub.sql<Array<{ status: string; attempts: number; lastError: string }>>`
        select status, attempts, last_error from webhook_deliveries where webhook_id = ${hookId}`;
      return r.length > 0 && r[0]!.status === 'failed';
    }, 20_000).then(
      () =>
        hub.sql<Array<{ status: string; attempts: number; lastError: string }>>`
          select status, attempts, last_error from webhook_deliveries where webhook_id = ${hookId}`
    );
    console.log(`webhook deliveries: ${JSON.stringify(rows)}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(rows[0]!.lastError).toMatch(/webhook URL refused: .*loopback/);
    const list = await call('GET', '/api/webhooks');
    expect(list.body.webhooks).toMatchObject([
      { id: hookId, status: 'failing', lastError: expect.stringMatching(/webhook URL refused/) },
    ]);
    console.log(`webhook requests that reached the loopback receiver: ${receiver.received.length}`);
    expect(receiver.received).toHaveLength(0);
  });
});
