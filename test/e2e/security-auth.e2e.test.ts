// API-key guessing meets a limit (issue 10, Must 5): wrong keys from one client address are
// answered 401 until FAILED_AUTH_DEFAULTS.maxFailures in a minute, then 429 with Retry-After for
// every request from that address — the right key included, so a guess cannot be told right from
// wrong — on JSON-RPC, REST and the WebSocket alike. Other addresses are unaffected.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import { testHubConfig } from '../support/test-hub.js';
import { FAILED_AUTH_DEFAULTS } from '../../gateway/ratelimit/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let goodKey = '';
const GUESSER = '127.0.0.5';

/** One request from a chosen loopback address (the limit is per client address). */
function request(
  from: string,
  method: string,
  path: string,
  key: string | undefined,
  body?: unknown
): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: Record<string, unknown> }> {
  const u = new URL(hub.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
      },
      (res) => {
        let s = '';
        res.on('data', (c: Buffer) => (s += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: JSON.parse(s) as Record<string, unknown>,
          })
        );
      }
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const guess = () => `bk_${randomBytes(32).toString('base64url')}`;
const getTask = { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'task-x' } };

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const tenant = await createTenant(hub.sql, { name: 'Keys' });
  goodKey = (await createAgent(hub.sql, { tenantId: tenant.id, name: 'owner' })).apiKey;
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('guessing API keys', () => {
  const max = FAILED_AUTH_DEFAULTS.maxFailures;

  it(`answers ${max} wrong keys with 401, then 429 with Retry-After`, async () => {
    const statuses: number[] = [];
    const codes: unknown[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < max + 10; i++) {
      // Wrong keys, a missing one and malformed ones all count.
      const key = i % 10 === 3 ? undefined : i % 10 === 7 ? 'not-a-key' : guess();
      const r = await request(GUESSER, 'POST', '/a2a', key, getTask);
      statuses.push(r.status);
      codes.push((r.json.error as { code?: unknown } | undefined)?.code);
      if (r.status === 429) retryAfter ??= r.headers['retry-after'];
    }
    const unauthorized = statuses.filter((s) => s === 401).length;
    const limited = statuses.filter((s) => s === 429).length;
    console.log(
      `from ${GUESSER}: ${unauthorized} × 401, then ${limited} × 429 (retry-after ${retryAfter} s)`
    );
    expect(statuses.slice(0, max)).toEqual(Array(max).fill(401));
    expect(codes.slice(0, max)).toEqual(Array(max).fill(-32010));
    expect(statuses.slice(max)).toEqual(Array(10).fill(429));
    expect(codes.slice(max)).toEqual(Array(10).fill(-32017));
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  });

  it('refuses the blocked address even with the right key, on REST and JSON-RPC', async () => {
    const viaRpc = await request(GUESSER, 'POST', '/a2a', goodKey, getTask);
    expect(viaRpc.status).toBe(429);
    expect((viaRpc.json.error as { code: number }).code).toBe(-32017);
    const viaRest = await request(GUESSER, 'GET', '/api/discover/agents', goodKey);
    expect(viaRest.status).toBe(429);
    expect(viaRest.json.error).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('refuses a WebSocket from the blocked address', async () => {
    const ws = new WebSocket(hub.url.replace(/^http/, 'ws') + '/ws', {
      headers: { authorization: `Bearer ${goodKey}` },
      localAddress: GUESSER,
    });
    const frames: string[] = [];
    ws.on('message', (d: Buffer) => frames.push(d.toString()));
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    expect(frames.map((f) => JSON.parse(f) as { type: string; error: string })).toMatchObject([
      { type: 'auth_error', error: expect.stringMatching(/Too many failed authentications/) },
    ]);
    console.log(`websocket from ${GUESSER} closed with ${code}`);
  });

  it('leaves other addresses alone', async () => {
    const other = await request('127.0.0.6', 'POST', '/a2a', guess(), getTask);
    expect(other.status).toBe(401);
    const r = await rpc(hub.url, goodKey, 'SendMessage', {
      message: text('still fine'),
      configuration: { agentId: 'echo', blocking: true },
    });
    expect(r.result).toMatchObject({ status: { state: 'completed' } });
  });
});
