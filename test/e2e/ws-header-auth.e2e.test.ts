// WebSockets authenticated by the Authorization header stay open after `welcome` (issue 18 item 4).
// The hub used to finish such upgrades after the key check, through res.cork(() => res.upgrade()),
// and uWS then shut about one socket in a hundred down right after `welcome`, without a close
// frame (1006). Each connect here waits for `welcome`, then for a ping/pong round trip, then
// closes with 1000; anything else is a drop.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionsSettled, testHubConfig } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const CONNECTS = 1000;
// One agent per lane: two sockets of one agent would replace each other (4409).
const LANES = 4;

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: string[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const t = await createTenant(hub.sql, { name: 'Acme' });
  for (let i = 0; i < LANES; i++) {
    keys.push((await createAgent(hub.sql, { tenantId: t.id, name: `lane-${i}` })).apiKey);
  }
  await partitionsSettled([hub], 4);
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

/** One connect by header: undefined when it went welcome → pong → clean close, else what broke. */
function connectOnce(url: string, apiKey: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${apiKey}` } });
    const seen: string[] = [];
    let welcomedAt = 0;
    let settled = false;
    const settle = (outcome: string | undefined) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    ws.on('message', (data) => {
      const type = (JSON.parse((data as Buffer).toString()) as { type?: string }).type ?? '?';
      seen.push(type);
      if (type === 'welcome') {
        welcomedAt = Date.now();
        ws.send(JSON.stringify({ type: 'ping' }));
      } else if (type === 'pong') {
        ws.close(1000);
      }
    });
    ws.on('close', (code) => {
      const clean = code === 1000 && seen.join() === 'welcome,pong';
      const after = welcomedAt ? `, ${Date.now() - welcomedAt} ms after welcome` : '';
      settle(clean ? undefined : `close ${code} after [${seen.join()}]${after}`);
    });
    ws.on('error', (err) => settle(`error ${err.message}`));
  });
}

describe('a WebSocket authenticated by its Authorization header', () => {
  it(`stays open after welcome: ${CONNECTS} connects, no drop`, async () => {
    const url = hub.url.replace(/^http/, 'ws') + '/ws';
    const drops: string[] = [];
    await Promise.all(
      keys.map(async (key, lane) => {
        for (let i = lane; i < CONNECTS; i += LANES) {
          const outcome = await connectOnce(url, key);
          if (outcome !== undefined) drops.push(`connect ${i}: ${outcome}`);
        }
      })
    );
    expect(drops).toEqual([]);
  }, 180_000);
});
