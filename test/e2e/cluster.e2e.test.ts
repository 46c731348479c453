// Several hub processes against one nats-server: every partition owned exactly once, ownership
// moving within a bounded time when a node is killed (SIGKILL) or stopped (SIGTERM, exit 0 < 10 s),
// and a bad configuration refused before any socket opens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import { connectBus, streams, type Bus } from '../../runtime/bus/index.js';
import { silentLogger } from '../../runtime/log/index.js';

const P = 16;
const ADMIN = 'admin-token-for-tests-0123456789';
let nats: NatsServerHandle;
let db: TestDatabase;
let bus: Bus;
const procs: HubProcess[] = [];

const env = () => ({
  NATS_URL: nats.url,
  DATABASE_URL: db.url,
  ADMIN_TOKEN: ADMIN,
  PARTITIONS: String(P),
  HEARTBEAT_MS: '300',
  NODE_TTL_MS: '2500',
  LOCK_INACTIVE_MS: '2500',
});

async function start(nodeId: string): Promise<HubProcess> {
  const p = await startHubProcess({ env: { ...env(), NODE_ID: nodeId } });
  procs.push(p);
  return p;
}

async function owned(p: HubProcess): Promise<number[]> {
  try {
    const r = await fetch(`${p.url}/debug/cluster`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    return ((await r.json()) as { owned: number[] }).owned;
  } catch {
    return [];
  }
}

/** Lock consumers on the server: partition label → holder node id. */
async function lockHolders(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for await (const c of bus.jsm.consumers.list(streams.locks)) {
    const m = /^p(\d+)-(.+)$/.exec(c.name);
    if (!m) continue;
    out.set(m[1]!, [...(out.get(m[1]!) ?? []), m[2]!]);
  }
  return out;
}

async function until(cond: () => Promise<boolean>, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - t0;
}

const all = Array.from({ length: P }, (_, i) => i);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  bus = await connectBus({ servers: [nats.url], name: 'observer', replicas: 1, log: silentLogger });
});

afterAll(async () => {
  for (const p of procs) p.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await bus?.close();
  await nats?.close();
  await db?.drop();
});

describe('hub nodes sharing one NATS', () => {
  it('refuses a bad configuration with one message naming the variable and exit code 1', async () => {
    const p = await startHubProcess({ env: { ...env(), PORT: 'eighty' }, waitReady: false });
    const { code } = await p.exited;
    expect(code).toBe(1);
    expect(p.log()).toMatch(/invalid configuration: PORT/);
  });

  it('ends with one line naming NATS_URL when NATS does not answer, before touching the database', async () => {
    const closed = `nats://127.0.0.1:9`;
    const p = await startHubProcess({ env: { ...env(), NATS_URL: closed }, waitReady: false });
    const { code } = await p.exited;
    expect(code).toBe(1);
    expect(p.log()).toMatch(/burrow: cannot reach NATS at nats:\/\/127\.0\.0\.1:9 \(NATS_URL\)/);
    expect(p.log()).not.toMatch(/migrations applied|start-up failed/);
  });

  it('owns every partition exactly once across two nodes, and moves them when a node is killed or stopped', async () => {
    const a = await start('node-a');
    const b = await start('node-b');
    // Start-up says, readably, where it listens and what it runs.
    expect(a.log()).toMatch(/INFO: listening on http:\/\/\S+: \d+ official agents, \d+ partitions/);
    const balanced = async () => {
      const [oa, ob] = await Promise.all([owned(a), owned(b)]);
      return oa.length > 0 && ob.length > 0 && sorted([...oa, ...ob]).join() === all.join();
    };
    await until(balanced, 20_000);
    const [oa, ob] = await Promise.all([owned(a), owned(b)]);
    expect(oa.filter((p) => ob.includes(p))).toEqual([]);
    // The server agrees: one lock consumer per partition, held by the node that claims it.
    const holders = await lockHolders();
    expect(holders.size).toBe(P);
    for (const [label, nodes] of holders) {
      expect(nodes).toHaveLength(1);
      expect(nodes[0]).toBe(oa.includes(Number(label)) ? 'node-a' : 'node-b');
    }

    // kill -9 b: a takes everything once the node TTL and the lock threshold have passed.
    b.kill('SIGKILL');
    await b.exited;
    const failover = await until(async () => sorted(await owned(a)).join() === all.join(), 15_000);
    console.log(`failover after SIGKILL: a owns all ${P} partitions ${failover} ms later`);

    // A new node joins: partitions flow to it, still exactly once.
    const c = await start('node-c');
    await until(async () => {
      const [x, y] = await Promise.all([owned(a), owned(c)]);
      return y.length > 0 && sorted([...x, ...y]).join() === all.join();
    }, 20_000);

    // SIGTERM a: it exits 0 (past SHUTDOWN_TIMEOUT_MS its guard exits 1) and c owns everything
    // right after, without waiting for TTLs.
    const t0 = Date.now();
    a.kill('SIGTERM');
    const { code } = await a.exited;
    const shutdownMs = Date.now() - t0;
    console.log(`graceful shutdown took ${shutdownMs} ms`);
    expect(code).toBe(0);
    expect(a.log()).toMatch(/partitions released: \d+ \(shutdown\)/);
    const handover = await until(async () => sorted(await owned(c)).join() === all.join(), 10_000);
    console.log(`handover after SIGTERM: c owns all ${P} partitions ${handover} ms after a exited`);
    c.kill('SIGTERM');
    expect((await c.exited).code).toBe(0);
  });
});
