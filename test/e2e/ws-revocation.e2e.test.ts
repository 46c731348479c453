// Revoked keys end open WebSockets (issue 18 item 3): after a key rotation or an agent's deletion,
// through the management API or the `burrow` CLI, every socket opened with the old key closes with
// 4401 (after an `auth_error` frame) within 1 s, on whichever of two hub nodes it is; sockets of
// other agents stay open, and the new key connects. A revocation whose broadcast never came is
// caught by each node's periodic re-check (WS_KEY_RECHECK_MS).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionsSettled, testHubConfig } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey, revokeAgentKeys } from '../../infra/db/index.js';

const BIN = resolve(import.meta.dirname, '../../infra/bin/burrow.js');

let nats: NatsServerHandle;
let db: TestDatabase;
let a: Hub;
let b: Hub;
let tenantId = '';
let adminKey = '';

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  const env = (node: string) => testHubConfig(nats, db, { NODE_ID: node });
  a = await startHub(env('node-a'), silentLogger);
  b = await startHub(env('node-b'), silentLogger);
  await partitionsSettled([a, b], 8);
  tenantId = (await createTenant(a.sql, { name: 'Acme' })).id;
  adminKey = (await issueAdminKey(a.sql, tenantId)).key;
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await nats?.close();
  await db?.drop();
});

async function newAgent(name: string): Promise<{ id: string; key: string }> {
  const c = await createAgent(a.sql, { tenantId, name });
  return { id: c.agent.id, key: c.apiKey };
}

interface Closed {
  code: number;
  reason: string;
  at: number;
}

/** How the socket closed; code 0 if it is still open after `ms` (well past the 1 s allowed). */
function closeOf(agent: TestWsAgent, ms = 3000): Promise<Closed> {
  return new Promise((r) => {
    const timer = setTimeout(() => r({ code: 0, reason: 'still open', at: Date.now() }), ms);
    agent.ws.once('close', (code, reason) => {
      clearTimeout(timer);
      r({ code, reason: reason.toString(), at: Date.now() });
    });
  });
}

/** The agent's socket answers a ping: it is open and served. */
async function stillServed(agent: TestWsAgent): Promise<void> {
  agent.send({ type: 'ping' });
  await agent.next('pong', 2000);
}

function api(hub: Hub, method: string, path: string): Promise<Response> {
  return fetch(`${hub.url}${path}`, { method, headers: { authorization: `Bearer ${adminKey}` } });
}

/** Run the CLI against the test database and NATS; resolves with its stdout (exit 0 expected). */
function burrow(args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, DATABASE_URL: db.url, NATS_URL: nats.url }, timeout: 30_000 },
      (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : done(stdout))
    );
  });
}

/**
 * One revoked socket per node, each revoked through the other node: every socket gets 4401 within
 * 1 s of when `change` began; the bystanders (one per node) keep being served.
 */
async function expectRevoked(
  change: (agentId: string, via: Hub) => Promise<void>
): Promise<Array<{ id: string; key: string }>> {
  const victims = [await newAgent('victim-a'), await newAgent('victim-b')];
  const bystanders = [await newAgent('bystander-a'), await newAgent('bystander-b')];
  const nodes = [a, b];
  const sockets = await Promise.all(victims.map((v, i) => connectWsAgent(nodes[i]!.url, v.key)));
  const others = await Promise.all(bystanders.map((o, i) => connectWsAgent(nodes[i]!.url, o.key)));
  for (const [i, v] of victims.entries()) {
    const closed = closeOf(sockets[i]!);
    const started = Date.now();
    await change(v.id, nodes[1 - i]!);
    const c = await closed;
    expect({ code: c.code, reason: c.reason }).toEqual({ code: 4401, reason: 'API key revoked' });
    expect(c.at - started).toBeLessThan(1000);
    expect(sockets[i]!.frames.at(-1)).toEqual({ type: 'auth_error', error: 'API key revoked' });
  }
  for (const o of others) await stillServed(o);
  await Promise.all(others.map((o) => o.close()));
  return victims;
}

describe('a revoked key ends the sockets opened with it, on every node', () => {
  it('on key rotation through the API; the new key connects, the old one no longer', async () => {
    const fresh = new Map<string, string>();
    const victims = await expectRevoked(async (agentId, via) => {
      const res = await api(via, 'POST', `/api/agents/${agentId}/keys`);
      expect(res.status).toBe(201);
      fresh.set(agentId, ((await res.json()) as { apiKey: string }).apiKey);
    });
    for (const [i, hub] of [a, b].entries()) {
      const v = victims[i]!;
      const again = await connectWsAgent(hub.url, fresh.get(v.id));
      await stillServed(again);
      await again.close();
      const old = await connectWsAgent(hub.url, v.key, { waitWelcome: false });
      expect((await old.next('auth_error')).error).toBe('unknown API key');
      expect((await rpc(hub.url, v.key, 'GetTask', { id: 'task-x' })).error).toBeDefined();
    }
  });

  it('on deletion through the API', async () => {
    await expectRevoked(async (agentId, via) => {
      expect((await api(via, 'DELETE', `/api/agents/${agentId}`)).status).toBe(200);
    });
  });

  it('on key rotation and deletion through the CLI', async () => {
    // The CLI broadcasts after its change is committed, then exits: measured from the broadcast's
    // upper bound (its exit) the sockets are already closed or close within 1 s.
    for (const command of [
      ['keys', 'rotate'],
      ['agents', 'delete'],
    ]) {
      const victim = await newAgent('cli-victim');
      const socket = await connectWsAgent(b.url, victim.key);
      const closed = closeOf(socket);
      await burrow([...command, '--agent', victim.id, '--json']);
      const exited = Date.now();
      const c = await closed;
      expect(c.code).toBe(4401);
      expect(c.at - exited).toBeLessThan(1000);
    }
  });

  it('keeps a socket whose agent changed something else (its card)', async () => {
    const agent = await newAgent('card-changer');
    const socket = await connectWsAgent(a.url, agent.key);
    socket.send({
      type: 'update_card',
      agentCard: {
        name: 'Card changer',
        description: 'still me',
        url: 'ws://card-changer',
        version: '1.0.0',
        capabilities: {},
        skills: [],
      },
    });
    await socket.next('card_updated');
    // The card's broadcast makes each node re-check the key. A revocation broadcast after it,
    // re-checked the same way on the same node, closing its socket marks that check as done.
    const victim = await newAgent('later-victim');
    const victimSocket = await connectWsAgent(a.url, victim.key);
    const closed = closeOf(victimSocket);
    expect((await api(b, 'POST', `/api/agents/${victim.id}/keys`)).status).toBe(201);
    expect((await closed).code).toBe(4401);
    const sender = await newAgent('sender');
    const pending = rpc(b.url, sender.key, 'SendMessage', {
      message: text('still there?'),
      configuration: { agentId: agent.id, blocking: true },
    });
    const m = await socket.next('message');
    socket.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
    expect((await pending).result).toMatchObject({ status: { state: 'completed' } });
    await stillServed(socket);
    await socket.close();
  });

  it('at the next periodic re-check when no broadcast came', async () => {
    const RECHECK_MS = 300;
    const c = await startHub(
      testHubConfig(nats, db, { NODE_ID: 'node-c', WS_KEY_RECHECK_MS: String(RECHECK_MS) }),
      silentLogger
    );
    try {
      const victim = await newAgent('quiet-victim');
      const bystander = await newAgent('quiet-bystander');
      const socket = await connectWsAgent(c.url, victim.key);
      const other = await connectWsAgent(c.url, bystander.key);
      const closed = closeOf(socket);
      // Straight in the database, as a CLI that could not reach NATS leaves it.
      const started = Date.now();
      expect(await revokeAgentKeys(c.sql, victim.id)).toHaveLength(1);
      const got = await closed;
      expect({ code: got.code, reason: got.reason }).toEqual({
        code: 4401,
        reason: 'API key revoked',
      });
      expect(got.at - started).toBeLessThan(RECHECK_MS + 1000);
      // The same sweep checked the bystander's key and kept it.
      await stillServed(other);
      await other.close();
    } finally {
      await c.stop();
    }
  });
});
