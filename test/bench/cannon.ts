// The light load generator of issue 19's targets: autocannon, closed loop, one request in flight
// per connection, each request body built afresh (a distinct messageId). Only answers the caller's
// `ok` accepts count as successes; their latencies are the percentiles. A warm-up run on its own
// connections comes first, so the measured window (and the CPU window the caller opens in
// `onMeasureStart`) holds only measured requests.
import autocannon from 'autocannon';

export interface CannonOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  /** Measured duration; or `amount`: exactly that many requests, however long they take. */
  seconds?: number;
  amount?: number;
  headers: Record<string, string>;
  /** Requests per second in all (open loop at that rate while the server keeps up); none: closed. */
  overallRate?: number;
  /** The body of the i-th request (i counts from 0 across the warm-up and the measured run). */
  body: (i: number) => string;
  /** True when the answer to the i-th request is a success. */
  ok: (status: number, body: string, i: number) => boolean;
  /** Called between the warm-up and the measured run. */
  onMeasureStart?: () => Promise<void> | void;
  /** Called when the measured run has finished. */
  onMeasureEnd?: () => Promise<void> | void;
}

export interface CannonResult {
  /** Answers `ok` accepted in the measured run. */
  successes: number;
  /** Answers it refused, and requests that got no answer (socket errors, 10 s timeouts). */
  failures: number;
  errors: number;
  /** Successes of the warm-up run (for counts that must include every accepted request). */
  warmupSuccesses: number;
  seconds: number;
  throughput: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Every success's latency in ms, sorted (to merge runs; left out of the saved JSON). */
  latencies: number[];
}

interface Context {
  i?: number;
}

export const quantile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export async function cannon(o: CannonOptions): Promise<CannonResult> {
  let next = 0;
  const run = (
    limit: { duration: number } | { amount: number }
  ): Promise<{
    successes: number;
    failures: number;
    errors: number;
    latencies: number[];
    seconds: number;
  }> => {
    let successes = 0;
    let failures = 0;
    let lastOk = false;
    const latencies: number[] = [];
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const instance = autocannon(
        {
          url: o.url,
          connections: o.connections,
          pipelining: 1,
          ...limit,
          ...(o.overallRate !== undefined ? { overallRate: o.overallRate } : {}),
          method: 'POST',
          headers: { ...o.headers, 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (req, context) => {
                const i = next++;
                (context as Context).i = i;
                return { ...req, body: o.body(i) };
              },
              onResponse: (status, body, context) => {
                lastOk = o.ok(status, body, (context as Context).i ?? -1);
                if (lastOk) successes++;
                else failures++;
              },
            },
          ],
        },
        (err: unknown, result: autocannon.Result) => {
          if (err)
            return reject(
              err instanceof Error ? err : new Error('autocannon failed', { cause: err })
            );
          resolve({
            successes,
            failures,
            errors: result.errors + result.timeouts,
            latencies,
            seconds: (performance.now() - t0) / 1000,
          });
        }
      );
      // autocannon emits (client, status, bytes, ms), right after the request's onResponse;
      // its typings leave out the client.
      (instance as unknown as NodeJS.EventEmitter).on('response', (...args: unknown[]) => {
        if (lastOk) latencies.push(args[3] as number);
      });
    });
  };

  const warm =
    o.warmupSeconds > 0 ? await run({ duration: o.warmupSeconds }) : { successes: 0, failures: 0 };
  await o.onMeasureStart?.();
  const r = await run(
    o.amount !== undefined ? { amount: o.amount } : { duration: o.seconds ?? 10 }
  );
  await o.onMeasureEnd?.();
  r.latencies.sort((a, b) => a - b);
  return {
    successes: r.successes,
    failures: r.failures + r.errors,
    errors: r.errors,
    warmupSuccesses: warm.successes,
    seconds: r.seconds,
    throughput: r.successes / r.seconds,
    p50: quantile(r.latencies, 0.5),
    p90: quantile(r.latencies, 0.9),
    p99: quantile(r.latencies, 0.99),
    max: r.latencies.at(-1) ?? 0,
    latencies: r.latencies,
  };
}
