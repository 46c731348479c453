// The `burrow` operator CLI as operators run it: a child process (`node infra/bin/burrow.js`) on a
// real PostgreSQL and NATS; JSON output, exit codes and messages, card fetching, and the broadcasts.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { connect, type Subscription } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDb,
  findPrincipalByKeyHash,
  getAgent,
  hashApiKey,
  migrate,
  type Db,
} from '../../infra/db/index.js';
import { decodeJson, subjects } from '../../runtime/bus/index.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, databaseUrl, type TestDatabase } from '../support/postgres.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = resolve(ROOT, 'infra/bin/burrow.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let testDb: TestDatabase;
let db: Db;
let nats: NatsServerHandle;
let cardServer: Server;
let cardBase: string;
const cardRequests: string[] = [];
const CARD = {
  name: 'Weather',
  description: 'Forecasts by city',
  url: 'http://example.invalid/a2a',
  version: '1.0.0',
  capabilities: { streaming: false, pushNotifications: false },
  skills: [{ id: 'forecast', name: 'Forecast', description: 'x', tags: [], examples: [] }],
  snake_case_key: { nested_key: 1 },
};

/** Run the CLI; resolves with its exit code and output (never rejects on a non-zero exit). */
function burrow(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: testDb.url, NATS_URL: nats.url, ...env },
        timeout: 30_000,
      },
      (err, stdout, stderr) => {
        if (err === null) done({ code: 0, stdout, stderr });
        else if (typeof err.code === 'number') done({ code: err.code, stdout, stderr });
        else fail(new Error(`could not run burrow: ${err.message}`, { cause: err }));
      }
    );
  });
}

/** The JSON a successful `--json` run printed. */
function json<T>(run: Run): T {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  [testDb, nats] = await Promise.all([createTestDatabase('burrow_test_cli'), startNatsServer()]);
  db = createDb(testDb.url, { max: 2 });
  await migrate(db);
  cardServer = createServer((req, res) => {
    cardRequests.push(req.url ?? '');
    if (req.url === '/agent/.well-known/agent.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(CARD));
    } else if (req.url === '/noversion/.well-known/agent.json') {
      const { version: _v, ...card } = CARD;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(card));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => cardServer.listen(0, '127.0.0.1', r));
  cardBase = `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => cardServer?.close(r));
  await db?.end({ timeout: 5 });
  await testDb?.drop();
  await nats?.close();
});

describe('burrow CLI', () => {
  let tenantId = '';
  let wsAgent = { agentId: '', apiKey: '' };

  it('creates a tenant and prints {"tenantId","slug"}', async () => {
    const out = json<{ tenantId: string; slug: string }>(
      await burrow(['tenants', 'create', '--name', 'Cli Test Org', '--json'])
    );
    expect(out).toEqual({
      tenantId: expect.stringMatching(/^ten-[0-9a-f]{12}$/),
      slug: 'cli-test-org',
    });
    tenantId = out.tenantId;
    const again = await burrow(['tenants', 'create', '--name', 'Cli Test Org']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('creates a WebSocket agent whose key is stored hashed and authenticates', async () => {
    wsAgent = json<{ agentId: string; apiKey: string }>(
      await burrow(['agents', 'create', '--tenant', 'cli-test-org', '--name', 'Socket', '--json'])
    );
    expect(Object.keys(wsAgent).sort()).toEqual(['agentId', 'apiKey']);
    expect(wsAgent.agentId).toMatch(/^agent-[0-9a-f]{12}$/);
    expect(await findPrincipalByKeyHash(db, hashApiKey(wsAgent.apiKey))).toEqual({
      kind: 'agent',
      agentId: wsAgent.agentId,
      tenantId,
      keyId: expect.stringMatching(/^key-/),
      scopes: ['messages', 'discovery', 'manage'],
    });
    expect(await getAgent(db, wsAgent.agentId)).toMatchObject({
      transport: 'websocket',
      visibility: 'private',
    });
  });

  it('creates an HTTP agent, storing the card fetched from its URL', async () => {
    const out = json<{ agentId: string; apiKey: string; webhookSecret: string }>(
      await burrow([
        'agents',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'Weather',
        '--url',
        `${cardBase}/agent/`,
        '--public',
        '--category',
        'weather',
        '--json',
      ])
    );
    expect(out.webhookSecret).toMatch(/^whsec_/);
    expect(cardRequests).toContain('/agent/.well-known/agent.json');
    expect(await getAgent(db, out.agentId)).toMatchObject({
      transport: 'http',
      url: `${cardBase}/agent/`,
      visibility: 'public',
      category: 'weather',
      description: CARD.description,
      webhookSecret: out.webhookSecret,
      card: CARD,
    });
  });

  it('lists the agents as {agentId, name, transport, visibility, url}', async () => {
    const list = json<Record<string, unknown>[]>(
      await burrow(['agents', 'list', '--tenant', 'cli-test-org', '--json'])
    );
    expect(list).toEqual([
      {
        agentId: wsAgent.agentId,
        name: 'Socket',
        transport: 'websocket',
        visibility: 'private',
        url: null,
      },
      {
        agentId: expect.any(String),
        name: 'Weather',
        transport: 'http',
        visibility: 'public',
        url: `${cardBase}/agent/`,
      },
    ]);
    const text = await burrow(['agents', 'list', '--tenant', 'cli-test-org']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(wsAgent.agentId);
  });

  it('exits 1 naming the tenant when it does not exist', async () => {
    const run = await burrow([
      'agents',
      'create',
      '--tenant',
      'no-such-org',
      '--name',
      'X',
      '--json',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    // Under --json the failure is JSON too: the catalog's code and the message.
    const { error } = JSON.parse(run.stderr) as { error: { code: string; message: string } };
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toMatch(/tenant "no-such-org" not found/);
  });

  it('exits 1 naming the missing card field, and creates nothing', async () => {
    const before = await burrow(['agents', 'list', '--tenant', tenantId, '--json']);
    const r = await burrow([
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'No Version',
      '--url',
      `${cardBase}/noversion`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${cardBase}/noversion/.well-known/agent.json`);
    expect(r.stderr).toMatch(/version/);
    const after = await burrow(['agents', 'list', '--tenant', tenantId, '--json']);
    expect(after.stdout).toBe(before.stdout);
  });

  it('exits 1 naming the card URL when the card cannot be fetched, and creates nothing', async () => {
    const missing = await burrow([
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'Y',
      '--url',
      `${cardBase}/nothing`,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${cardBase}/nothing/.well-known/agent.json`);
    expect(missing.stderr).toContain('HTTP 404');

    const closed = await freePort();
    const refused = await burrow([
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'Y',
      '--url',
      `http://127.0.0.1:${closed}`,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`http://127.0.0.1:${closed}/.well-known/agent.json`);

    const rows = await db<
      { name: string }[]
    >`select name from agents where tenant_id = ${tenantId}`;
    const names = rows.map((r) => r.name);
    expect(names).not.toContain('Y');

    const skipped = json<{ agentId: string; webhookSecret: string }>(
      await burrow([
        'agents',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'Z',
        '--url',
        `${cardBase}/nothing`,
        '--skip-card',
        '--json',
      ])
    );
    expect((await getAgent(db, skipped.agentId))?.card).toBeNull();
  });

  it('issues a tenant admin key', async () => {
    const { apiKey } = json<{ apiKey: string }>(
      await burrow(['keys', 'create-admin', '--tenant', 'cli-test-org', '--json'])
    );
    expect(await findPrincipalByKeyHash(db, hashApiKey(apiKey))).toEqual({
      kind: 'admin',
      tenantId,
      keyId: expect.stringMatching(/^key-/),
      scopes: ['messages', 'discovery', 'manage'],
    });
  });

  it('rotates an agent key and tells the hub nodes over NATS', async () => {
    const nc = await connect({ servers: nats.url });
    try {
      const revoked = collect(nc.subscribe(subjects.keyRevoked));
      const changed = collect(nc.subscribe(subjects.agentChanged(wsAgent.agentId)));
      await nc.flush();
      const { apiKey } = json<{ apiKey: string }>(
        await burrow(['keys', 'rotate', '--agent', wsAgent.agentId, '--json'])
      );
      expect(apiKey).not.toBe(wsAgent.apiKey);
      expect(await findPrincipalByKeyHash(db, hashApiKey(wsAgent.apiKey))).toBeNull();
      expect(await findPrincipalByKeyHash(db, hashApiKey(apiKey))).toMatchObject({
        agentId: wsAgent.agentId,
      });
      await nc.flush();
      expect(await revoked.first()).toEqual({ keyHash: hashApiKey(wsAgent.apiKey) });
      expect(await changed.first()).toEqual({ agentId: wsAgent.agentId });
    } finally {
      await nc.close();
    }
  });

  it('still succeeds, with a warning, when NATS is down', async () => {
    const closed = await freePort();
    const run = await burrow(['keys', 'rotate', '--agent', wsAgent.agentId, '--json'], {
      NATS_URL: `nats://127.0.0.1:${closed}`,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ apiKey: expect.stringMatching(/^bk_/) });
    expect(run.stderr).toContain('could not notify hub nodes over NATS');
  });

  it('changes settings with agents update and refuses invalid values', async () => {
    const out = json<Record<string, unknown>>(
      await burrow([
        'agents',
        'update',
        '--agent',
        wsAgent.agentId,
        '--public',
        '--tag',
        'a',
        '--queue-max-pending',
        '25',
        '--json',
      ])
    );
    expect(out).toMatchObject({ visibility: 'public', tags: ['a'], queueMaxPending: 25 });
    const bad = await burrow([
      'agents',
      'update',
      '--agent',
      wsAgent.agentId,
      '--queue-ttl-seconds',
      '0',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('queue_ttl_seconds');
  });

  it('exits 1 with a message on a configuration error, an unknown agent and bad usage', async () => {
    const config = await burrow(['tenants', 'list'], { DATABASE_URL: 'mysql://x/y' });
    expect(config.code).toBe(1);
    expect(config.stderr).toContain('DATABASE_URL');
    const agent = await burrow(['keys', 'rotate', '--agent', 'agent-000000000000']);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain('agent agent-000000000000 not found');
    const usage = await burrow(['tenants', 'create']);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("required option '--name <name>' not specified");
  });

  it('creates and migrates a database that does not exist yet', async () => {
    const name = `burrow_test_cli_fresh_${randomBytes(6).toString('hex')}`;
    try {
      const run = await burrow(['tenants', 'list', '--json'], { DATABASE_URL: databaseUrl(name) });
      expect(json(run)).toEqual([]);
    } finally {
      const admin = createDb(databaseUrl('postgres'), { max: 1 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    }
  });
});

/** The first message of a subscription, decoded (fails after 5 s). */
function collect(sub: Subscription): { first(): Promise<unknown> } {
  const first = (async () => {
    for await (const m of sub) return decodeJson<unknown>(m.data);
    return undefined;
  })();
  return {
    first: () =>
      Promise.race([
        first,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('no message within 5 s')), 5000)
        ),
      ]),
  };
}

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
