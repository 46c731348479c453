// Issue 3's benchmark: blocking SendMessage round trips from 50 concurrent HTTP senders to a
// WebSocket echo agent in another process, every accepted task durable in JetStream; then the
// same load against @a2a-js/sdk's in-memory express echo server as the reference.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { startHubProcess } from '../support/hub-process.js';
import { freePorts } from '../support/nats-process.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';
import { runLoad, sendMessageBody, type LoadResult } from './load.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

function child(
  script: string,
  args: string[],
  ready: RegExp
): Promise<{ proc: ChildProcess; line: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((res, rej) => {
    const rl = createInterface({ input: proc.stdout });
    rl.on('line', (line) => {
      if (ready.test(line)) res({ proc, line });
    });
    proc.once('exit', (code) => rej(new Error(`${script} exited with ${code}`)));
  });
}

export interface RoundTripReport {
  hub: LoadResult;
  reference: LoadResult;
  ratio: number;
  durableTasks: number;
}

export async function roundTrip(): Promise<RoundTripReport> {
  const nats = await startNatsServer();
  const db = await createTestDatabase('burrow_bench');
  const hub = await startHubProcess({
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      // The benchmark measures the hub, not the per-key rate limit.
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
  });
  const sql = createDb(db.url, { max: 2 });
  let agentProc: ChildProcess | undefined;
  let refProc: ChildProcess | undefined;
  try {
    const tenant = await createTenant(sql, { name: 'Bench' });
    const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
    const echo = await createAgent(sql, { tenantId: tenant.id, name: 'ws-echo' });
    agentProc = (await child('test/bench/ws-echo-agent.ts', [hub.url, echo.apiKey], /^ready$/))
      .proc;

    const hubResult = await runLoad({
      url: `${hub.url}/a2a`,
      concurrency: CONCURRENCY,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
      headers: { authorization: `Bearer ${sender.apiKey}`, 'a2a-version': '1.0' },
      body: (i) => sendMessageBody(i, echo.agent.id, `hello ${i}`, { blocking: true }),
      ok: (status, body) => status === 200 && body.includes('"state":"completed"'),
    });
    // Every accepted task is in the durable log; the index in PostgreSQL trails it briefly.
    await new Promise((r) => setTimeout(r, 2000));
    const rows = await sql<
      Array<{ n: string }>
    >`select count(*) as n from tasks where sender_id = ${sender.agent.id}`;
    const n = rows[0]?.n ?? '0';

    if (process.env.BENCH_SKIP_REFERENCE) {
      return { hub: hubResult, reference: hubResult, ratio: 1, durableTasks: Number(n) };
    }
    const [port] = await freePorts(1);
    refProc = (await child('test/bench/reference-server.ts', [String(port)], /^listening/)).proc;
    const reference = await runLoad({
      url: `http://127.0.0.1:${port}/`,
      concurrency: CONCURRENCY,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
      headers: { 'a2a-version': '1.0' },
      body: (i) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'SendMessage',
          params: {
            message: {
              messageId: randomUUID(),
              role: 'ROLE_USER',
              parts: [{ text: `hello ${i}` }],
            },
            configuration: { returnImmediately: false },
          },
        }),
      ok: (status, body) => status === 200 && body.includes('TASK_STATE_COMPLETED'),
    });
    return {
      hub: hubResult,
      reference,
      ratio: hubResult.throughput / reference.throughput,
      durableTasks: Number(n),
    };
  } finally {
    agentProc?.kill('SIGTERM');
    refProc?.kill('SIGTERM');
    await sql.end({ timeout: 2 });
    hub.kill('SIGTERM');
    await hub.exited;
    await nats.close();
    await db.drop();
  }
}
