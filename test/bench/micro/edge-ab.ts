// Hub CPU per request, A/B between source trees (issue 19, Must 4): one nats-server and one
// database, then for each tree in turn (interleaved, `rounds` times) a hub process from that tree
// under closed-loop load: SendMessage refused for a bad part (-32602), and blocking SendMessage
// round trips to a WebSocket echo agent. The hub's CPU comes from /proc/<pid>/stat.
//   node --import tsx test/bench/micro/edge-ab.ts /work/main /work/wt-edge
// BENCH_SECONDS (default 8), BENCH_ROUNDS (default 2), HUB_NODE_ARGS (e.g. "--cpu-prof
// --cpu-prof-dir=/tmp/prof", for the last tree's last round only).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { createAgent, createDb, createTenant } from '../../../infra/db/index.js';
import { freePorts } from '../../support/nats-process.js';
import { startNatsServer } from '../../support/nats-server.js';
import { createTestDatabase } from '../../support/postgres.js';
import { runLoad, sendMessageBody } from '../load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONCURRENCY = 20;
const TICK_US = 1_000_000 / 100; // USER_HZ

function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

function waitLine(proc: ChildProcess, ready: RegExp): Promise<void> {
  return new Promise((res, rej) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => ready.test(l) && res());
    proc.once('exit', (code) => rej(new Error(`exited with ${code}`)));
  });
}

async function startHub(root: string, env: Record<string, string>, nodeArgs: string[]) {
  const [port] = await freePorts(1);
  const proc = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(root, 'infra/bin/hub.ts')],
    {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(port), NODE_ID: `ab${port}` },
      stdio: ['ignore', 'ignore', 'inherit'],
    }
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/health`);
      break;
    } catch {
      if (i > 200) throw new Error(`hub from ${root} did not start`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  return { proc, url, pid: proc.pid! };
}

/** Closed-loop load after a warm-up; the hub's CPU per answered request, in µs. */
async function measured(pid: number, o: Parameters<typeof runLoad>[0]) {
  await runLoad({ ...o, seconds: 2, warmupSeconds: 0 });
  const cpu0 = cpuMicros(pid);
  const r = await runLoad({ ...o, seconds: SECONDS, warmupSeconds: 0 });
  const cpu = cpuMicros(pid) - cpu0;
  return {
    perRequest: cpu / Math.max(1, r.requests + r.errors),
    rps: r.throughput,
    errors: r.errors,
  };
}

async function main(): Promise<void> {
  const roots = process.argv.slice(2);
  if (roots.length === 0) throw new Error('usage: edge-ab.ts <tree> [<tree> …]');
  const nats = await startNatsServer();
  const db = await createTestDatabase('burrow_edge_ab');
  const sql = createDb(db.url, { max: 2 });
  const env = {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SMTP_LISTEN_PORT: '0',
  };
  try {
    // The first hub to start migrates the database; the agents are made after it.
    let ids: { headers: Record<string, string>; echoId: string; echoKey: string } | undefined;
    const agents = async () => {
      if (ids !== undefined) return ids;
      const tenant = await createTenant(sql, { name: 'AB' });
      const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
      const echo = await createAgent(sql, { tenantId: tenant.id, name: 'ws-echo' });
      ids = {
        headers: { authorization: `Bearer ${sender.apiKey}` },
        echoId: echo.agent.id,
        echoKey: echo.apiKey,
      };
      return ids;
    };
    const bad = (i: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'SendMessage',
        params: { message: { role: 'user', parts: [{ kind: 'text', text: 5 }] } },
      });
    for (let round = 0; round < ROUNDS; round++) {
      for (const root of roots) {
        const last = round === ROUNDS - 1 && root === roots.at(-1);
        const nodeArgs =
          last && process.env.HUB_NODE_ARGS ? process.env.HUB_NODE_ARGS.split(' ') : [];
        const hub = await startHub(root, env, nodeArgs);
        const { headers, echoId, echoKey } = await agents();
        const agent = spawn(
          process.execPath,
          ['--import', 'tsx', join(root, 'test/bench/ws-echo-agent.ts'), hub.url, echoKey],
          { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }
        );
        await waitLine(agent, /^ready$/);
        const rejected = await measured(hub.pid, {
          url: `${hub.url}/a2a`,
          concurrency: CONCURRENCY,
          warmupSeconds: 0,
          seconds: SECONDS,
          headers,
          body: bad,
          ok: (status, body) => status === 200 && body.includes('-32602'),
        });
        const trip = await measured(hub.pid, {
          url: `${hub.url}/a2a`,
          concurrency: CONCURRENCY,
          warmupSeconds: 0,
          seconds: SECONDS,
          headers,
          body: (i) => sendMessageBody(i, echoId, `hello ${i}`, { blocking: true }),
          ok: (status, body) => status === 200 && body.includes('"state":"completed"'),
        });
        console.log(
          `${root}  rejected: ${rejected.perRequest.toFixed(0)} µs CPU/req ` +
            `(${rejected.rps.toFixed(0)}/s, ${rejected.errors} errors)  round trip: ` +
            `${trip.perRequest.toFixed(0)} µs CPU/req (${trip.rps.toFixed(0)}/s, ${trip.errors} errors)`
        );
        agent.kill('SIGTERM');
        hub.proc.kill('SIGTERM');
        await new Promise((r) => hub.proc.once('exit', r));
      }
    }
  } finally {
    await sql.end({ timeout: 2 });
    await nats.close();
    await db.drop();
  }
}

await main();
