// The `burrow` CLI's operations commands as operators run them (a child process on a real
// PostgreSQL): webhooks create/list/delete with --json, rate-limit, credits, agents feature, and
// bad input.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDb,
  createTenant,
  migrate,
  upsertOfficialAgents,
  type Db,
} from '../../infra/db/index.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

const ROOT = resolve(import.meta.dirname, '../..');
let testDb: TestDatabase;
let db: Db;
let nats: NatsServerHandle;
let slug: string;

function burrow(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [resolve(ROOT, 'infra/bin/burrow.js'), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: testDb.url, NATS_URL: nats.url } },
      (err, stdout, stderr) =>
        done({
          code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1,
          stdout,
          stderr,
        })
    );
  });
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  nats = await startNatsServer();
  db = createDb(testDb.url, { max: 2 });
  await migrate(db);
  slug = (await createTenant(db, { name: 'Ops Org' })).slug;
});

afterAll(async () => {
  await db?.end({ timeout: 5 });
  await nats?.close();
  await testDb?.drop();
});

describe('burrow webhooks', () => {
  it('creates (secret shown once), lists and deletes', async () => {
    const created = await burrow([
      'webhooks',
      'create',
      '--tenant',
      slug,
      '--url',
      'https://example.org/hook',
      '--event',
      'credits.purchased',
      '--event',
      'message.failed',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout) as { webhook: { id: string }; secret: string };
    expect(out.secret).toMatch(/^whsec_/);
    const list = await burrow(['webhooks', 'list', '--tenant', slug, '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject([
      {
        id: out.webhook.id,
        events: ['credits.purchased', 'message.failed'],
        status: 'active',
      },
    ]);
    expect(list.stdout).not.toContain(out.secret);
    const del = await burrow([
      'webhooks',
      'delete',
      '--tenant',
      slug,
      '--id',
      out.webhook.id,
      '--json',
    ]);
    expect(JSON.parse(del.stdout)).toEqual({ id: out.webhook.id, deleted: true });
    expect(
      JSON.parse((await burrow(['webhooks', 'list', '--tenant', slug, '--json'])).stdout)
    ).toEqual([]);
  });

  it('refuses an unknown event, naming it, and creates nothing', async () => {
    const r = await burrow([
      'webhooks',
      'create',
      '--tenant',
      slug,
      '--url',
      'https://example.org/hook',
      '--event',
      'credits.stolen',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('events');
    expect(
      JSON.parse((await burrow(['webhooks', 'list', '--tenant', slug, '--json'])).stdout)
    ).toEqual([]);
  });
});

describe('burrow rate-limit and credits', () => {
  it('sets and clears a tenant rate limit', async () => {
    const set = await burrow(['rate-limit', '--tenant', slug, '--per-minute', '42', '--json']);
    expect(JSON.parse(set.stdout)).toMatchObject({ perMinute: 42 });
    const [row] = await db<{ rateLimitPerMinute: number | null }[]>`
      select rate_limit_per_minute from tenants where slug = ${slug}`;
    expect(row?.rateLimitPerMinute).toBe(42);
    await burrow(['rate-limit', '--tenant', slug, '--default']);
    const [after] = await db<{ rateLimitPerMinute: number | null }[]>`
      select rate_limit_per_minute from tenants where slug = ${slug}`;
    expect(after?.rateLimitPerMinute).toBeNull();
  });

  it('refuses a fractional amount and shows the balance', async () => {
    const bad = await burrow(['credits', 'purchase', '--tenant', slug, '--amount', '1.5']);
    expect(bad.code).not.toBe(0);
    const show = await burrow(['credits', 'show', '--tenant', slug, '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({ balance: 0, ledger: [] });
  });
});

describe('burrow agents feature', () => {
  it('marks an agent featured by id or official alias, takes it off with --off, and names an unknown one', async () => {
    const featured = async (id: string) =>
      (await db<{ featured: boolean }[]>`select featured from agents where id = ${id}`)[0]
        ?.featured;
    await upsertOfficialAgents(db, [
      { id: 'agent-echo-official', alias: 'echo', name: 'Echo', description: 'Echoes' },
    ]);
    const on = await burrow(['agents', 'feature', 'echo', '--json']);
    expect(on.code).toBe(0);
    const { agentId } = JSON.parse(on.stdout) as { agentId: string; featured: boolean };
    expect(JSON.parse(on.stdout)).toEqual({ agentId, featured: true });
    expect(await featured(agentId)).toBe(true);
    const off = await burrow(['agents', 'feature', agentId, '--off']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(`unfeatured agent ${agentId}`);
    expect(await featured(agentId)).toBe(false);
    const unknown = await burrow(['agents', 'feature', 'agent-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('agent-000000000000');
  });
});
