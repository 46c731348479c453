// Credits through a running hub (issue 6): the ledger's integer arithmetic, purchases through the
// admin API and the `burrow` CLI (credits.purchased), the low-balance threshold (credits.low_balance
// exactly once per crossing), bad input 400 with nothing changed, and tenants kept apart. Events are
// read back from HUB_EVENTS, where the outbox relay publishes them.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { DeliverPolicy } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { decodeHubEvent, streams, subjects, type HubEvent } from '../../runtime/bus/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import {
  createAgent,
  createTenant,
  debitCredits,
  getCreditAccount,
  issueAdminKey,
} from '../../infra/db/index.js';
import { isHubError } from '../../runtime/errors/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let acme: { id: string; slug: string };
let other: { id: string };
const keys = { admin: '', otherAdmin: '', agent: '' };

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  acme = await createTenant(hub.sql, { name: 'Acme' });
  other = await createTenant(hub.sql, { name: 'Other' });
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  keys.otherAdmin = (await issueAdminKey(hub.sql, other.id)).key;
  keys.agent = (await createAgent(hub.sql, { tenantId: acme.id, name: 'alice' })).apiKey;
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      error?: { code: string; details?: { field?: string } };
    },
  };
}

/** Every event stored for a tenant, in order. */
async function events(tenantId: string): Promise<HubEvent[]> {
  const consumer = await hub.bus.js.consumers.get(streams.events, {
    filter_subjects: subjects.hubEventsOfTenant(tenantId),
    deliver_policy: DeliverPolicy.All,
  });
  const out: HubEvent[] = [];
  if ((await consumer.info()).num_pending === 0) return out;
  for await (const m of await consumer.consume()) {
    out.push(decodeHubEvent(m.data));
    if (m.info.pending === 0) break;
  }
  return out;
}

/**
 * The tenant's events once all are published. A credit change writes the events it causes to
 * event_outbox in its own transaction, so when none of the tenant's rows is left unpublished,
 * HUB_EVENTS holds every event of the changes made so far, an unexpected extra one too.
 */
async function eventsSettled(tenantId: string): Promise<HubEvent[]> {
  await until(
    async () =>
      (
        await hub.sql`select 1 from event_outbox
                      where tenant_id = ${tenantId} and published_at is null limit 1`
      ).length === 0
  );
  return events(tenantId);
}

function burrow(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [resolve(ROOT, 'infra/bin/burrow.js'), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url, NATS_URL: nats.url } },
      (err, stdout, stderr) =>
        done({
          code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1,
          stdout,
          stderr,
        })
    );
  });
}

async function debit(amount: number): Promise<void> {
  await debitCredits(hub.sql, acme.id, amount, 'test usage');
}

describe('credits', () => {
  it('starts at zero and is only for admin keys', async () => {
    const r = await call('GET', '/api/credits', keys.admin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ balance: 0, currency: 'USD', lowBalanceThreshold: null });
    expect((await call('GET', '/api/credits', keys.agent)).status).toBe(403);
  });

  it.each([
    [{ amount: 1.5 }, 'amount'],
    [{ amount: '100' }, 'amount'],
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{}, 'amount'],
    [{ amount: 5, note: 'x' }, 'note'],
  ])('refuses purchase %j with 400 naming %s, changing nothing', async (body, field) => {
    const r = await call('POST', '/api/credits/purchase', keys.admin, body);
    expect(r.status).toBe(400);
    expect(r.body.error?.details?.field).toBe(field);
    expect((await getCreditAccount(hub.sql, acme.id)).balance).toBe(0);
  });

  it('emits purchased on each purchase and low_balance once per crossing', async () => {
    expect(
      (await call('PUT', '/api/credits/threshold', keys.admin, { threshold: 500 })).body
    ).toMatchObject({ lowBalanceThreshold: 500, belowThreshold: true });
    // Setting a threshold above a balance of 0 is the first crossing.
    const p1 = await call('POST', '/api/credits/purchase', keys.admin, { amount: 1000 });
    expect(p1.body).toMatchObject({ balance: 1000, belowThreshold: false });
    await debit(400); // 600: above
    await debit(200); // 400: crosses → low_balance
    await debit(100); // 300: still below, no second event
    await expect(debit(301)).rejects.toSatisfy(
      (e: unknown) => isHubError(e) && e.code === 'INSUFFICIENT_CREDITS'
    );
    expect((await getCreditAccount(hub.sql, acme.id)).balance).toBe(300);

    // A purchase through the CLI: back above the threshold.
    const cli = await burrow([
      'credits',
      'purchase',
      '--tenant',
      acme.slug,
      '--amount',
      '250',
      '--json',
    ]);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ balance: 550, belowThreshold: false });
    await debit(60); // 490: crosses again → a second low_balance

    const got = await eventsSettled(acme.id);
    expect(got.map((e) => [e.event, e.data])).toEqual([
      ['credits.low_balance', { currentBalance: 0, threshold: 500, currency: 'USD' }],
      ['credits.purchased', { amount: 1000, currency: 'USD', balance: 1000 }],
      ['credits.low_balance', { currentBalance: 400, threshold: 500, currency: 'USD' }],
      ['credits.purchased', { amount: 250, currency: 'USD', balance: 550 }],
      ['credits.low_balance', { currentBalance: 490, threshold: 500, currency: 'USD' }],
    ]);

    const account = await call('GET', '/api/credits', keys.admin);
    expect(account.body.balance).toBe(490);
    // The ledger adds up: 1000 - 400 - 200 - 100 + 250 - 60.
    const ledger = account.body.ledger as Array<{ amount: number; balanceAfter: number }>;
    expect(ledger.map((e) => e.amount)).toEqual([-60, 250, -100, -200, -400, 1000]);
    expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(490);
    expect(ledger[0]?.balanceAfter).toBe(490);
  }, 60_000);

  it('keeps tenants apart', async () => {
    const r = await call('GET', '/api/credits', keys.otherAdmin);
    expect(r.body).toMatchObject({ tenantId: other.id, balance: 0 });
    expect(r.body.ledger).toEqual([]);
    expect(await events(other.id)).toEqual([]);
  });
});
