// The hub the benchmarks start is the one `npm start` runs: dist/, compiled by tsc. The sources
// under tsx cost 16–17% more of the hub's CPU per round trip (round-trip-cost.ts, alternating
// pairs on 2026-11-28): tsx's esbuild output wraps every named function and class in a `__name`
// call and is whitespace-minified; the reference server's code (express, @a2a-js/sdk) comes from
// node_modules, which tsx leaves as published, so it ran as users run it all along.
// BENCH_HUB_SOURCES=1 runs the sources under tsx instead (no build).
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
let built = false;

/** The built hub's entry, built once per benchmark process; undefined: run the sources. */
export function benchHubEntry(): string | undefined {
  if (process.env.BENCH_HUB_SOURCES === '1') return undefined;
  if (!built) {
    process.stderr.write('building the hub (npm run build) to measure what npm start runs\n');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    built = true;
  }
  return join(ROOT, 'dist/infra/bin/hub.js');
}

/** `{ entry }` for startHubProcess: the build, or nothing (the sources). */
export function benchHubOptions(): { entry?: string } {
  const entry = benchHubEntry();
  return entry === undefined ? {} : { entry };
}
