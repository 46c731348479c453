// Fuzzing every entry point of a running hub (issue 10, Must 4): 10,000 random and malformed
// JSON-RPC bodies, headers, query strings and WebSocket frames from a seeded PRNG. The seed is
// printed; FUZZ_SEED=<seed> replays the same inputs (FUZZ_COUNT changes how many). Every answer
// must be a JSON-RPC error envelope or an HTTP error in the REST shape (or, for the odd input that
// turns out valid, a well-formed success), never a 500 or "Internal error"; at the end the hub is
// healthy and an ordinary round trip still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzSeed } from '../support/fuzz/prng.js';
import { runFuzz, type FuzzReport } from '../support/fuzz/run.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import { testHubConfig } from '../support/test-hub.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';

const SEED = fuzzSeed(process.env.FUZZ_SEED);
const COUNT = Number(process.env.FUZZ_COUNT ?? 10_000);

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys = { agentKey: '', agentId: '', adminKey: '' };
const wsKeys: string[] = [];
let report: FuzzReport;

beforeAll(async () => {
  console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${COUNT} inputs`);
  nats = await startNatsServer();
  db = await createTestDatabase();
  // The per-key limit would turn the fuzz key's requests into 429s after a minute's budget.
  hub = await startHub(
    testHubConfig(nats, db, { PARTITIONS: '4', RATE_LIMIT_PER_MINUTE: '1000000' }),
    silentLogger
  );
  const tenant = await createTenant(hub.sql, { name: 'Fuzz' });
  const agent = await createAgent(hub.sql, { tenantId: tenant.id, name: 'fuzzer' });
  keys.agentKey = agent.apiKey;
  keys.agentId = agent.agent.id;
  keys.adminKey = (await issueAdminKey(hub.sql, tenant.id)).key;
  for (let i = 0; i < 4; i++) {
    wsKeys.push(
      (await createAgent(hub.sql, { tenantId: tenant.id, name: `ws-fuzzer-${i}` })).apiKey
    );
  }
}, 120_000);

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe(`fuzzing the hub (seed ${SEED})`, () => {
  it('answers every malformed input with an error envelope or an HTTP error', async () => {
    report = await runFuzz({
      hubUrl: hub.url,
      keys,
      wsKeys,
      seed: SEED,
      count: COUNT,
      concurrency: Number(process.env.FUZZ_CONCURRENCY ?? 20),
    });
    console.log(
      `fuzz seed ${SEED}: ${report.total} inputs in ${report.elapsedMs} ms; by target ` +
        JSON.stringify(report.byTarget)
    );
    console.log(`fuzz outcomes ${JSON.stringify(report.outcomes)}`);
    console.log(`fuzz problems ${report.problems.length}`);
    for (const p of report.problems.slice(0, 20)) {
      console.log(`  #${p.index} [${p.target}] ${p.problem}\n    input: ${p.input}`);
    }
    // The generator shares this process with the hub: it must not have touched Object.prototype.
    const inherited: string[] = [];
    for (const k in {}) inherited.push(k);
    expect(inherited).toEqual([]);
    expect(report.total).toBe(COUNT);
    // Every entry point got its share.
    for (const t of ['a2a', 'agent-endpoint', 'rest', 'sse', 'ws']) {
      expect(report.byTarget[t] ?? 0, t).toBeGreaterThan(COUNT / 20);
    }
    expect(report.problems.map((p) => `#${p.index} [${p.target}] ${p.problem}`)).toEqual([]);
  }, 300_000);

  it('is still healthy, and a normal round trip still works', async () => {
    const health = await fetch(`${hub.url}/health`);
    expect(health.status).toBe(200);
    const r = await rpc(hub.url, keys.agentKey, 'SendMessage', {
      message: text('still there?'),
      configuration: { agentId: 'echo', blocking: true },
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({ status: { state: 'completed' } });
    const ws = await connectWsAgent(hub.url, keys.agentKey);
    ws.send({ type: 'ping' });
    expect(await ws.next('pong')).toEqual({ type: 'pong' });
    await ws.close();
    console.log(`after fuzzing: health ${health.status}, echo round trip completed, ws ping ok`);
  });
});
