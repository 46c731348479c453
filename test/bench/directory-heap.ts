// Heap per agent and load stall of the in-memory directory, without a hub or clients (issue 31):
//   node --expose-gc --import tsx test/bench/directory-heap.ts
// BENCH_AGENTS sets the size; BENCH_DIRECTORY_DB=<url> measures an already seeded database;
// BENCH_KEEP_DB=1 seeds (or reuses) burrow_bench_keep_<agents> and measures a copy of it
// (seeded-directory.ts).
import { measureDirectoryLoad } from './directory-load.js';
import { seededDirectory } from './seeded-directory.js';

async function main(): Promise<void> {
  const agents = Number(process.env.BENCH_AGENTS ?? 100_000);
  const given = process.env.BENCH_DIRECTORY_DB;
  const db = given === undefined ? await seededDirectory(agents) : undefined;
  if (db !== undefined) {
    process.stderr.write(
      `${db.copied ? 'copied the kept seed' : 'seeded'} in ${db.seedSeconds.toFixed(0)} s\n`
    );
  }
  try {
    const report = await measureDirectoryLoad(given ?? (db?.url as string));
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } finally {
    await db?.drop();
  }
}

await main();
