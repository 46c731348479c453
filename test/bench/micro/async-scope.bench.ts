// What an AsyncLocalStorage costs a process that never reads it (issue 19, Must 4): once any store
// has run, promise hooks stamp every promise. A request-shaped chain of awaits, timed before and
// after one store is used.
//   node --import tsx test/bench/micro/async-scope.bench.ts
import { AsyncLocalStorage } from 'node:async_hooks';
import { report, type Timing } from './measure.js';

async function step(n: number): Promise<number> {
  await Promise.resolve();
  return n + 1;
}

/** About what one request awaits in the gateway and the task service: 20 awaits, 20 promises. */
async function request(): Promise<number> {
  let n = 0;
  for (let i = 0; i < 20; i++) n = await step(n);
  return n;
}

async function time(name: string, ops = 20_000, rounds = 7): Promise<Timing> {
  for (let i = 0; i < ops; i++) await request();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) await request();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / ops);
  }
  return { name, nsPerOp: best };
}

const rows = [await time('20 awaits, no AsyncLocalStorage')];
const store = new AsyncLocalStorage<object>();
await store.run({}, () => request());
rows.push(await time('20 awaits, an AsyncLocalStorage enabled'));
await store.run({}, () => time('20 awaits, inside store.run').then((t) => rows.push(t)));
report(rows);
