// A connected agent receives at once after a hub restart (issue 18, item 8). A hub node (a child
// process) is restarted on the same NATS and database, by SIGTERM with a new NODE_ID and by SIGKILL
// with the same one. Blocking sends start the moment it owns its partitions and the agent connects
// just after, as a reconnecting agent does: what came before the agent queues (`submitted`) and
// must drain the moment it is seen; every send made once it is connected must complete, never be
// answered `submitted` from behind that backlog. Before the fix those answered `submitted`, and
// after a SIGKILL the killed process's presence entry (same NODE_ID) passed for a live socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import {
  QUEUE_ADMIN_TOKEN,
  connectQueueAgent,
  keepHubLogs,
  sendText,
  sleep,
  waitOwnership,
  type QueueAgent,
} from '../support/queue-helpers.js';
import { createAgent, createDb, createTenant, migrate, type Db } from '../../infra/db/index.js';

const P = 8;

let nats: NatsServerHandle;
let db: TestDatabase;
let sql: Db;
const started: HubProcess[] = [];
const agents: QueueAgent[] = [];

function startNode(nodeId: string): Promise<HubProcess> {
  return startHubProcess({
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      ADMIN_TOKEN: QUEUE_ADMIN_TOKEN,
      NODE_ID: nodeId,
      PARTITIONS: String(P),
      LOG_LEVEL: process.env.BURROW_TEST_HUB_LOG_LEVEL ?? 'info',
    },
    readyTimeoutMs: 60_000,
  }).then((p) => {
    started.push(p);
    return p;
  });
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase('burrow_restart_presence');
  sql = createDb(db.url, { max: 2 });
  await migrate(sql);
});

afterAll(async () => {
  keepHubLogs('restart-presence', started);
  for (const a of agents) await a.close().catch(() => undefined);
  for (const p of started) await p.close();
  await sql?.end({ timeout: 5 });
  await nats?.close();
  await db?.drop();
});

async function team(name: string) {
  const t = await createTenant(sql, { name });
  const rcpt = await createAgent(sql, { tenantId: t.id, name: 'rcpt' });
  const sender = await createAgent(sql, { tenantId: t.id, name: 'sender' });
  return {
    rcpt: { id: rcpt.agent.id, key: rcpt.apiKey },
    sender: { id: sender.agent.id, key: sender.apiKey },
  };
}

async function scrape(hubUrl: string): Promise<string> {
  const res = await fetch(`${hubUrl}/metrics`, {
    headers: { authorization: `Bearer ${QUEUE_ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** The sum of a series' samples (those whose labels contain `label`, when given); 0 if none. */
function sum(metrics: string, name: string, label?: string): number {
  return metrics
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .filter((l) => label === undefined || l.includes(label))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

interface Answer {
  i: number;
  /** When the send was made, and when it was answered, in ms after the restarted hub answered. */
  at: number;
  done: number;
  state: string;
}

describe.each([
  ['SIGTERM', 'a new node id'],
  ['SIGKILL', 'the same node id'],
] as const)('after a %s restart with %s', (signal, ids) => {
  it('blocking sends to the connected agent complete, and what queued before it came drains at once', async () => {
    const { rcpt, sender } = await team(`restart-${signal}`);
    const name = `hub-${signal.toLowerCase()}`;
    const first = await startNode(`${name}-a`);
    await waitOwnership([first.url], P, { ms: 45_000 });
    const before = await connectQueueAgent(first.url, rcpt.key);
    agents.push(before);
    const warm = await sendText(first.url, sender.key, rcpt.id, 'warm-up', { blocking: true });
    expect(warm.result?.status.state).toBe('completed');

    first.kill(signal);
    await first.exited;
    const second = await startNode(ids === 'a new node id' ? `${name}-b` : `${name}-a`);
    await waitOwnership([second.url], P, { ms: 45_000 });
    // Sends start the moment the hub answers; the agent connects (as a reconnecting agent does)
    // a moment later, so the first messages queue and the later ones race its connect.
    const t0 = Date.now();
    let welcomeAt = Number.POSITIVE_INFINITY;
    const connecting = sleep(600)
      .then(() => connectQueueAgent(second.url, rcpt.key, { welcomeMs: 30_000 }))
      .then((a) => {
        welcomeAt = Date.now() - t0;
        agents.push(a);
        return a;
      });
    const sends: Array<Promise<Answer>> = [];
    for (let i = 0; i < 36; i++) {
      const at = Date.now() - t0;
      sends.push(
        sendText(second.url, sender.key, rcpt.id, `after-${i}`, { blocking: true }).then((r) => ({
          i,
          at,
          done: Date.now() - t0,
          state: r.result?.status.state ?? `error ${r.error?.code}`,
        }))
      );
      await sleep(50);
    }
    const agent = await connecting;
    const answers = await Promise.all(sends);
    const timeline = answers.map((a) => `${a.at}->${a.done}:${a.state}`).join(' ');
    // Sent once the agent had its welcome: delivered and answered, never `submitted`.
    const afterWelcome = answers.filter((a) => a.at > welcomeAt);
    expect(afterWelcome.length, timeline).toBeGreaterThan(10);
    for (const a of afterWelcome) expect(a.state, `${a.i} (${timeline})`).toBe('completed');
    // Before it: queued (the agent was away) or delivered, nothing refused.
    for (const a of answers) expect(['submitted', 'completed'], timeline).toContain(a.state);
    // What queued drains the moment the agent is seen, at the spec's 10 per second.
    const queued = answers.filter((a) => a.state === 'submitted').length;
    await agent.waitMessages(answers.length, 30_000);
    expect(queued, timeline).toBeGreaterThan(0);
    // The drain came from the agent being seen, not from what rescues a lost wake-up 5 s later:
    // the watchdog woke no queue and no delivery was put off as busy.
    const metrics = await scrape(second.url);
    expect(sum(metrics, 'burrow_queue_watchdog_wakeups_total'), timeline).toBe(0);
    expect(sum(metrics, 'burrow_queue_deliveries_total', 'outcome="busy"'), timeline).toBe(0);
    await agent.close();
    second.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
