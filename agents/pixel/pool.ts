// pixel's worker-thread pool (piscina), created at the first image request with
// config.pixel.threads threads and destroyed by the agent's stop(). The worker file is worker.js
// next to this one in a build (dist/), or worker.ts when running from source under tsx; plain
// node cannot load TypeScript, so the threads then import tsx themselves.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Piscina as PiscinaPool } from 'piscina';
import type { ImageJob, ImageOutcome } from './model.js';

let pool: Promise<PiscinaPool> | undefined;

export function workerFile(): { filename: string; execArgv: string[] } {
  const js = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(js)) return { filename: js, execArgv: process.execArgv };
  const ts = fileURLToPath(new URL('./worker.ts', import.meta.url));
  // Under `node --import tsx` the threads inherit the flag; under vitest they need it added.
  const hasTsx = process.execArgv.some((a) => /\btsx\b/.test(a));
  return {
    filename: ts,
    execArgv: hasTsx ? process.execArgv : [...process.execArgv, '--import', 'tsx'],
  };
}

async function create(threads: number): Promise<PiscinaPool> {
  // sharp's docs: on glibc Linux the main thread must load sharp before worker threads do, so its
  // shared libraries stay loaded until every thread is done.
  await import('sharp');
  const { Piscina } = await import('piscina');
  const { filename, execArgv } = workerFile();
  return new Piscina({
    filename,
    execArgv,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
}

/**
 * Run `job` in the pool. A deadline or cancel answers at once; the job itself runs to its end in
 * its thread (terminating a thread inside libvips is not safe) and its result is dropped.
 */
export async function runInPool(
  job: ImageJob,
  threads: number,
  signal: AbortSignal
): Promise<ImageOutcome> {
  pool ??= create(threads).catch((err: unknown) => {
    pool = undefined;
    throw err;
  });
  const p = await pool;
  signal.throwIfAborted();
  const work = p.run(job) as Promise<ImageOutcome>;
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Destroy the threads (the next request makes a new pool). */
export async function stopPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p) await (await p).destroy();
}
