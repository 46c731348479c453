// The per-key rate limiter alone against PostgreSQL (issue 19, Must 3): CPU of this process and of
// the PostgreSQL backends, and statements sent, per request. `ROOT=/path/to/checkout` measures
// another checkout's limiter (e.g. main's one-upsert-per-request) on the same database server.
//   node --import tsx test/bench/rate-limit.ts            (this checkout)
//   ROOT=/work/main node --import tsx test/bench/rate-limit.ts
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTestDatabase } from '../support/postgres.js';
import type * as DbModule from '../../infra/db/index.js';

const root = resolve(process.env.ROOT ?? resolve(import.meta.dirname, '../..'));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);

type Db = DbModule.Db;
type Limiter = {
  hit(keyHash: string, p: unknown): Promise<{ retryAfter: number | undefined }>;
  start(): void;
  stop(): void | Promise<void>;
};

const dbMod = (await import(resolve(root, 'infra/db/index.ts'))) as typeof DbModule;
const rl = (await import(resolve(root, 'gateway/ratelimit/index.ts'))) as {
  createRateLimiter(o: { sql: unknown; defaultLimit: number; log: unknown }): Limiter;
};
const { silentLogger } = await import(resolve(root, 'runtime/log/index.ts'));

/** CPU seconds (user + system) of a process so far, from /proc. */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function scenario(name: string, limit: number): Promise<void> {
  const db = await createTestDatabase('burrow_bench_rl');
  const sql: Db = dbMod.createDb(db.url, { max: 4 });
  try {
    await dbMod.migrate(sql);
    const tenant = await dbMod.createTenant(sql, { name: 'Bench' });
    await dbMod.setTenantRateLimit(sql, tenant.id, limit);
    const agent = await dbMod.createAgent(sql, { tenantId: tenant.id, name: 'sender' });
    const keyHash = dbMod.hashApiKey(agent.apiKey);
    let statements = 0;
    // Count every statement the limiter sends: a tagged-template call on the pool is one.
    const counted = new Proxy(sql, {
      apply(target, self, args: unknown[]) {
        statements += 1;
        return Reflect.apply(target, self, args) as unknown;
      },
    });
    const limiter = rl.createRateLimiter({ sql: counted, defaultLimit: limit, log: silentLogger });
    limiter.start();
    const principal = { kind: 'agent', tenantId: tenant.id, agentId: agent.agent.id };
    await limiter.hit(keyHash, principal); // warm the pool's connections and the statements
    const backends = (
      await sql<{ pid: number }[]>`
        select pid from pg_stat_activity where datname = ${db.name} and pid <> pg_backend_pid()`
    ).map((r) => r.pid);
    const own = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    backends.push(own[0]!.pid);
    statements = 0;
    const pg0 = backends.reduce((s, p) => s + cpuSeconds(p), 0);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let next = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next += 1;
          if ((await limiter.hit(keyHash, principal)).retryAfter !== undefined) refused += 1;
        }
      })
    );
    await limiter.stop();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const pg = backends.reduce((s, p) => s + cpuSeconds(p), 0) - pg0;
    const [row] = await sql<
      { hits: number }[]
    >`select sum(hits)::int as hits from rate_limit_windows`;
    process.stdout.write(
      `${name}: ${REQUESTS} hits (${refused} refused) in ${ms.toFixed(0)} ms = ` +
        `${((REQUESTS / ms) * 1000).toFixed(0)}/s; statements/hit ${(statements / REQUESTS).toFixed(4)}; ` +
        `node CPU µs/hit ${((cpu.user + cpu.system) / REQUESTS).toFixed(1)}; ` +
        `PostgreSQL backend CPU µs/hit ${((pg * 1e6) / REQUESTS).toFixed(1)}; hits recorded ${row?.hits ?? 0}\n`
    );
  } finally {
    await sql.end({ timeout: 2 });
    await db.drop();
  }
}

process.stdout.write(`root ${root}, ${CONCURRENCY} concurrent callers\n`);
await scenario('admitted (limit 1,000,000)', 1_000_000);
await scenario('mostly refused (limit 100)', 100);
