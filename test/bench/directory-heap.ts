// Heap per agent and load stall of the in-memory directory, without a hub or clients (issue 31):
//   node --expose-gc --import tsx test/bench/directory-heap.ts
// BENCH_AGENTS sets the size; BENCH_DIRECTORY_DB=<url> measures an already seeded database;
// BENCH_KEEP_DB=1 seeds (or reuses) burrow_bench_keep_<agents> and leaves it for the next run.
import { createDb, ensureDatabase, migrate } from '../../infra/db/index.js';
import { createTestDatabase, databaseUrl } from '../support/postgres.js';
import { seedDirectory } from './discover.js';
import { measureDirectoryLoad } from './directory-load.js';

async function main(): Promise<void> {
  const agents = Number(process.env.BENCH_AGENTS ?? 100_000);
  let url = process.env.BENCH_DIRECTORY_DB;
  let drop: (() => Promise<void>) | undefined;
  let seeded = url !== undefined;
  if (url === undefined) {
    if (process.env.BENCH_KEEP_DB === '1') {
      url = databaseUrl(`burrow_bench_keep_${agents}`);
      // An existing one was seeded by an earlier run.
      seeded = !(await ensureDatabase(url));
    } else {
      const db = await createTestDatabase('burrow_bench_h');
      url = db.url;
      drop = () => db.drop();
    }
  }
  if (!seeded) {
    const sql = createDb(url, { max: 2 });
    const t0 = performance.now();
    await migrate(sql);
    await seedDirectory(sql, agents);
    await sql.end({ timeout: 5 });
    process.stderr.write(
      `seeded ${agents} agents in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${url}\n`
    );
  }
  try {
    process.stdout.write(JSON.stringify(await measureDirectoryLoad(url), null, 2) + '\n');
  } finally {
    await drop?.();
  }
}

await main();
