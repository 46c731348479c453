// `npm run cluster` (infra/cluster/cluster.ts) end to end: start 3 NATS servers and 2 hub nodes on
// free loopback ports in a temp state dir, check both hubs' /health and status, send a message
// from an agent on one hub to an agent connected to the other, then stop and find no process left.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { removeDir, trackDir } from '../support/cleanup.js';
import { connectQueueAgent, sendText } from '../support/queue-helpers.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

interface State {
  nats: Array<{ pid: number; port: number }>;
  hubs: Array<{ pid: number; port: number; nodeId: string }>;
}

let db: TestDatabase;
let dir: string;

/** `npm run cluster -- <args>` without npm: the same script line, through tsx. */
const cluster = (...args: string[]) =>
  run(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'infra/cluster/cluster.ts'), ...args, '--dir', dir],
    {
      cwd: ROOT,
      timeout: 240_000,
    }
  );

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'burrow-cluster-cli-'));
  trackDir(dir);
});

afterAll(async () => {
  // A failed test must not leave the cluster running: stop is idempotent.
  await cluster('stop', '--timeout', '5000').catch(() => undefined);
  removeDir(dir);
  await db?.drop();
});

describe('npm run cluster', () => {
  it('starts 3 NATS servers and 2 hubs, carries a message across them, and stops every process', async () => {
    db = await createTestDatabase('burrow_cluster_cli');
    const started = await cluster(
      'start',
      '--nodes',
      '2',
      '--base-port',
      'auto',
      '--source',
      '--database-url',
      db.url
    );
    process.stdout.write(started.stdout);
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as State;
    expect(state.nats).toHaveLength(3);
    expect(state.hubs).toHaveLength(2);
    expect(new Set(state.hubs.map((h) => h.nodeId)).size).toBe(2);
    const pids = [...state.nats, ...state.hubs].map((p) => p.pid);
    expect(pids.every(alive)).toBe(true);

    const [h1, h2] = state.hubs.map((h) => `http://127.0.0.1:${h.port}`) as [string, string];
    for (const url of [h1, h2]) {
      const res = await fetch(`${url}/health`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: string }).status).toBe('ok');
    }
    const status = JSON.parse((await cluster('status', '--json')).stdout) as {
      processes: Array<{ role: string; alive: boolean; health: string }>;
    };
    expect(status.processes).toHaveLength(5);
    expect(status.processes.every((p) => p.alive)).toBe(true);
    expect(
      status.processes.filter((p) => p.role === 'hub').every((p) => p.health.startsWith('200 ok'))
    ).toBe(true);

    // A round trip across nodes: the recipient is connected to hub 2, the sender calls hub 1.
    const sql = createDb(db.url, { max: 1 });
    try {
      const t = await createTenant(sql, { name: 'Cluster CLI' });
      const a = await createAgent(sql, { tenantId: t.id, name: 'cli-sender' });
      const b = await createAgent(sql, { tenantId: t.id, name: 'cli-recipient' });
      const recipient = await connectQueueAgent(h2, b.apiKey);
      const r = await sendText(h1, a.apiKey, b.agent.id, 'across the cluster', { blocking: true });
      expect(r.error).toBeUndefined();
      expect(r.result?.status.state).toBe('completed');
      expect(recipient.messages.map((m) => m.taskId)).toEqual([r.result!.id]);
      await recipient.close();
    } finally {
      await sql.end({ timeout: 5 });
    }

    const stopped = await cluster('stop');
    process.stdout.write(stopped.stdout);
    expect(stopped.stdout).toMatch(/hub hub-1 \(pid \d+\) stopped/);
    const left = pids.filter(alive);
    expect(left, `processes left after stop: ${left.join(', ')}`).toEqual([]);
  });
});
