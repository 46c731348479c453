// A database holding the bench directory of a given size, for one run. Seeding goes through the
// real triggers (the directory's derived columns, lexicon and generation are what they are in
// production), which at 1,000,000 agents takes tens of minutes; with BENCH_KEEP_DB=1 that is paid
// once per machine: the seed is kept as burrow_bench_keep_<agents> and each run gets a copy made
// by PostgreSQL from it as a template (a file copy: seconds), which the run may write to and drops.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createDb, ensureDatabase, migrate } from '../../infra/db/index.js';
import { atExit } from '../support/cleanup.js';
import { createTestDatabase, databaseUrl } from '../support/postgres.js';
import { seedDirectory } from './discover.js';

export interface SeededDirectory {
  url: string;
  locations: number;
  /** Seconds spent seeding, or copying the kept seed. */
  seedSeconds: number;
  /** True when this run's database is a copy of a kept seed. */
  copied: boolean;
  drop(): Promise<void>;
}

export async function seededDirectory(agents: number): Promise<SeededDirectory> {
  const t0 = performance.now();
  const seconds = () => (performance.now() - t0) / 1000;
  if (process.env.BENCH_KEEP_DB !== '1') {
    const db = await createTestDatabase('burrow_bench_d');
    const sql = createDb(db.url, { max: 2 });
    try {
      await migrate(sql);
      const { locations } = await seedDirectory(sql, agents);
      return {
        url: db.url,
        locations,
        seedSeconds: seconds(),
        copied: false,
        drop: () => db.drop(),
      };
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
  const kept = await keptSeed(agents);
  const name = `burrow_bench_c_${randomBytes(6).toString('hex')}`;
  const admin = createDb(databaseUrl('postgres'), { max: 1 });
  const dropSql = `drop database if exists "${name}" with (force)`;
  try {
    // A template must have no other session: the kept seed is only ever opened to be seeded.
    await admin.unsafe(`create database "${name}" template "${kept.name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const forget = atExit(() => {
    spawnSync('psql', ['-X', '-q', databaseUrl('postgres'), '-c', dropSql], { stdio: 'ignore' });
  });
  return {
    url: databaseUrl(name),
    locations: kept.locations,
    seedSeconds: seconds(),
    copied: true,
    async drop() {
      const a = createDb(databaseUrl('postgres'), { max: 1 });
      try {
        await a.unsafe(dropSql);
      } finally {
        await a.end({ timeout: 5 });
      }
      forget();
    },
  };
}

/** burrow_bench_keep_<agents>, seeded now unless a complete seed is there already. */
export async function keptSeed(agents: number): Promise<{ name: string; locations: number }> {
  const name = `burrow_bench_keep_${agents}`;
  const url = databaseUrl(name);
  await ensureDatabase(url);
  const sql = createDb(url, { max: 2 });
  try {
    await migrate(sql);
    // The seed's statements each commit whole: agents all there and some places means complete.
    const [have] = await sql<Array<{ agents: number; locations: number }>>`
      select (select count(*)::int from agents) as agents,
        (select count(*)::int from agent_locations) as locations`;
    if (have !== undefined && have.agents === agents && have.locations > 0) {
      return { name, locations: have.locations };
    }
    if (have !== undefined && have.agents > 0) {
      throw new Error(`${name} holds ${have.agents} agents, not ${agents}: drop it to reseed`);
    }
    const t0 = performance.now();
    const { locations } = await seedDirectory(sql, agents);
    process.stderr.write(
      `seeded ${agents} agents in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${name}\n`
    );
    return { name, locations };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
