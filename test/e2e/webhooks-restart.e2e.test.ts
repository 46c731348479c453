// A hub restart between webhook retries: the first attempt fails, the only hub stops, a new hub
// starts on the same NATS and database, and the 1 s retry arrives from it with the same
// X-Hub-Delivery; the delivery is then never repeated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createTenant, createWebhook, purchaseCredits } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub | undefined;
let receiver: WebhookReceiver;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await hub?.stop();
  await receiver?.close();
  await nats?.close();
  await db?.drop();
});

describe('webhook deliveries across a hub restart', () => {
  it('resumes the retry schedule on the restarted hub', async () => {
    const config = testHubConfig(nats, db, { PARTITIONS: '4' });
    hub = await startHub(config, silentLogger);
    const tenant = await createTenant(hub.sql, { name: 'Acme' });
    receiver.secret = (
      await createWebhook(hub.sql, {
        tenantId: tenant.id,
        url: receiver.url,
        events: ['credits.purchased'],
      })
    ).secret;
    receiver.respond = 500;
    await purchaseCredits(hub.sql, tenant.id, 700);
    await until(() => receiver.received.length === 1);
    await hub.stop();
    hub = undefined;

    receiver.respond = 200;
    hub = await startHub(config, silentLogger);
    await until(() => receiver.received.length === 2);
    // No third POST follows a success: only pending rows are claimed, and once the row records
    // the success it is not pending (and no claim is left in flight).
    await until(async () => {
      const [r] = await hub!.sql<{ status: string }[]>`select status from webhook_deliveries`;
      return r?.status === 'delivered';
    });
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second?.headers['x-hub-delivery']).toBe(first?.headers['x-hub-delivery']);
    expect(second?.body).toBe(first?.body);
    expect(second?.signatureValid).toBe(true);
    expect(second?.json.data).toEqual({ amount: 700, currency: 'USD', balance: 700 });
    const [row] = await hub.sql<{ status: string; attempts: number }[]>`
      select status, attempts from webhook_deliveries`;
    expect(row).toEqual({ status: 'delivered', attempts: 2 });
  }, 60_000);
});
