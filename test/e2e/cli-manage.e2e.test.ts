// `burrow --url <hub> --key <admin key> …`: the management commands through a running hub's API
// (issue 25), as the real binary runs them with no database or NATS reachable: agents, keys,
// webhooks, credits, and the API-only discover, usage and alerts. The hub's errors come back as
// the CLI's, JSON under --json.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey, listAgents } from '../../infra/db/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let tenantId: string;
let adminKey: string;
let agentKey: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real `burrow` binary (through tsx), given the hub's URL and a key before the command. */
function burrow(args: string[], key: string | null = adminKey): Promise<Run> {
  const hubArgs = ['--url', hub.url, ...(key === null ? [] : ['--key', key])];
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'infra/bin/burrow.ts', ...hubArgs, ...args],
      {
        cwd: ROOT,
        // No database or NATS reachable: over --url the commands must not need them.
        env: {
          ...process.env,
          DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
          NATS_URL: 'nats://127.0.0.1:9',
          BURROW_API_KEY: '',
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        if (err === null) done({ code: 0, stdout, stderr });
        else if (typeof err.code === 'number') done({ code: err.code, stdout, stderr });
        else fail(new Error(`could not run burrow: ${err.message}`, { cause: err }));
      }
    );
  });
}

function json<T>(r: Run): T {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}

function jsonError(r: Run): { code: string; message: string } {
  expect(r.code).toBe(1);
  return (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error;
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db), silentLogger);
  await until(() => hub.partitions.ownedPartitions().length === 8, 30_000);
  const tenant = await createTenant(hub.sql, { name: 'Acme Remote' });
  tenantId = tenant.id;
  adminKey = (await issueAdminKey(hub.sql, tenant.id)).key;
  agentKey = (await createAgent(hub.sql, { tenantId, name: 'worker' })).apiKey;
}, 60_000);

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

// Each run of the binary starts tsx: seconds apiece on a busy 2-core machine.
describe('burrow --url: management through the hub API', { timeout: 240_000 }, () => {
  it('creates, lists, updates, re-keys and deletes an agent, as stored in the hub', async () => {
    const created = json<{ agentId: string; apiKey: string }>(
      await burrow(['agents', 'create', '--name', 'scout', '--public', '--tag', 'maps', '--json'])
    );
    expect(created.apiKey).toMatch(/\S{20,}/);
    const stored = (await listAgents(hub.sql, tenantId)).find((a) => a.id === created.agentId);
    expect(stored).toMatchObject({ name: 'scout', visibility: 'public', tags: ['maps'] });

    const listed = await burrow(['agents', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${created.agentId}\\s+\\S+\\s+public\\s+scout`));

    json(
      await burrow([
        'agents',
        'update',
        '--agent',
        created.agentId,
        '--private',
        '--description',
        'finds things',
        '--queue-max-pending',
        '50',
        '--json',
      ])
    );
    const after = (await listAgents(hub.sql, tenantId)).find((a) => a.id === created.agentId);
    expect(after).toMatchObject({
      visibility: 'private',
      description: 'finds things',
      queueMaxPending: 50,
    });

    const rotated = json<{ apiKey: string }>(
      await burrow(['keys', 'rotate', '--agent', created.agentId, '--json'])
    );
    expect(rotated.apiKey).not.toBe(created.apiKey);
    const oldKey = await fetch(`${hub.url}/api/agents/${created.agentId}`, {
      headers: { authorization: `Bearer ${created.apiKey}` },
    });
    expect(oldKey.status).toBe(401);

    expect(json(await burrow(['agents', 'delete', '--agent', created.agentId, '--json']))).toEqual({
      agentId: created.agentId,
      deleted: true,
    });
    const gone = jsonError(
      await burrow(['agents', 'delete', '--agent', created.agentId, '--json'])
    );
    expect(gone.code).toBe('NOT_FOUND');
  });

  it('manages webhooks and credits', async () => {
    const made = json<{ webhook: { id: string }; secret: string }>(
      await burrow([
        'webhooks',
        'create',
        '--url',
        'https://hooks.example.com/burrow',
        '--event',
        'credits.low_balance',
        '--json',
      ])
    );
    expect(made.secret.length).toBeGreaterThan(10);
    const hooks = json<{ id: string; events: string[] }[]>(
      await burrow(['webhooks', 'list', '--json'])
    );
    expect(hooks.map((h) => h.id)).toEqual([made.webhook.id]);
    json(await burrow(['webhooks', 'delete', '--id', made.webhook.id, '--json']));
    expect(json<unknown[]>(await burrow(['webhooks', 'list', '--json']))).toEqual([]);

    const before = json<{ balance: number }>(await burrow(['credits', 'show', '--json'])).balance;
    const bought = json<{ balance: number }>(
      await burrow(['credits', 'purchase', '--amount', '1500', '--reason', 'cli', '--json'])
    );
    expect(bought.balance).toBe(before + 1500);
    const t = json<{ lowBalanceThreshold: number | null }>(
      await burrow(['credits', 'threshold', '--amount', '300', '--json'])
    );
    expect(t.lowBalanceThreshold).toBe(300);
    const shown = await burrow(['credits', 'show']);
    expect(shown.stdout).toMatch(/low-balance threshold 300/);
    expect(shown.stdout).toMatch(/purchase\s+1500/);
  });

  it('searches the directory, and shows usage and alerts', async () => {
    const found = json<{ agents: { id: string }[] }>(
      await burrow(['discover', 'echo', '--json'], null)
    );
    expect(found.agents.map((a) => a.id)).toContain('agent-echo-official');
    const table = await burrow(['discover', 'echo'], agentKey);
    expect(table.stdout).toMatch(/^ID\s+NAME/m);
    expect(table.stdout).toContain('agent-echo-official');
    expect(
      json<{ usage: unknown[] }>(await burrow(['usage', '--days', '7', '--json'])).usage
    ).toBeInstanceOf(Array);
    expect(json<{ alerts: unknown[] }>(await burrow(['alerts', '--json'])).alerts).toBeInstanceOf(
      Array
    );
  });

  it("refuses what the API would not do, with the hub's own error", async () => {
    // An agent key cannot manage its tenant.
    const forbidden = jsonError(await burrow(['agents', 'list', '--json'], agentKey));
    expect(forbidden.code).toBe('FORBIDDEN');
    // No key at all: the hub says so.
    const anonymous = jsonError(await burrow(['agents', 'list', '--json'], null));
    expect(anonymous.code).toBe('UNAUTHENTICATED');
    // The key says which tenant; --tenant alongside it is a mistake, named.
    const tenant = jsonError(await burrow(['agents', 'list', '--tenant', 'acme', '--json']));
    expect(tenant).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(tenant.message).toMatch(/--tenant/);
    // A database-only command does not silently go elsewhere.
    const dbOnly = jsonError(await burrow(['tenants', 'list', '--json']));
    expect(dbOnly.message).toMatch(/database only/);
    // A bad field is the hub's 400, named.
    const bad = jsonError(
      await burrow(['agents', 'update', '--agent', 'nope', '--queue-max-pending', '0', '--json'])
    );
    expect(['INVALID_PARAMS', 'NOT_FOUND']).toContain(bad.code);
  });
});
