// A closed-loop HTTP load generator: N concurrent callers, each sending its next request when
// the previous one answers, over keep-alive connections; latencies recorded per request.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  throughput: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** CPU time of this process (the load generator) per answered request, in µs. */
  clientMicrosPerRequest: number;
}

export interface LoadOptions {
  url: string;
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
  headers: Record<string, string>;
  /** The body of the i-th request. */
  body: (i: number) => string;
  /** True when the response body is a success. */
  ok: (status: number, body: string) => boolean;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const u = new URL(o.url);
  const post = (payload: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: {
            ...o.headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() })
          );
        }
      );
      req.on('error', reject);
      req.end(payload);
    });

  let i = 0;
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;
  const caller = async () => {
    while (!stop) {
      const t0 = performance.now();
      try {
        const r = await post(o.body(i++));
        const ms = performance.now() - t0;
        if (!measuring) continue;
        if (o.ok(r.status, r.body)) latencies.push(ms);
        else errors++;
      } catch {
        if (measuring) errors++;
      }
    }
  };
  const callers = Array.from({ length: o.concurrency }, caller);
  await new Promise((r) => setTimeout(r, o.warmupSeconds * 1000));
  measuring = true;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, o.seconds * 1000));
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(callers);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    seconds,
    throughput: latencies.length / seconds,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: latencies.at(-1) ?? 0,
    clientMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, latencies.length + errors),
  };
}

/** The i-th hub-dialect SendMessage request body, with a fresh messageId. */
export function sendMessageBody(
  i: number,
  agentId: string,
  text: string,
  configuration: Record<string, unknown> = {}
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: i,
    method: 'SendMessage',
    params: {
      message: { role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text }] },
      configuration: { agentId, ...configuration },
    },
  });
}
