// Two observers that add to a fault run's history (history.ts) while the load runs: a reader that
// asks GetTask for recently acknowledged tasks through every live hub (task states must only move
// forward), and a prober that spends one agent's allowance far faster than its tenant's rate limit
// allows, through every live hub (no window may admit more than the limit).
import { createAgent, createTenant, setTenantRateLimit, type Db } from '../../../infra/db/index.js';
import type { AgentFleet } from './agent-fleet.js';
import type { History } from './history.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Observer {
  stop(): Promise<void>;
  /** Requests made and answered (for the report). */
  readonly counts: { asked: number; answered: number };
}

async function getTask(hubUrl: string, key: string, taskId: string) {
  const res = await fetch(`${hubUrl}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'GetTask',
      params: { id: taskId, historyLength: 0 },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await res.json()) as {
    result?: { status: { state: string } };
    error?: { code: number };
  };
  return { res, json };
}

/** Every `everyMs`, read the state of a few recently acknowledged tasks through each live hub. */
export function startTaskReader(
  fleet: AgentFleet,
  hubUrls: () => string[],
  history: History,
  everyMs = 500
): Observer {
  let running = true;
  const counts = { asked: 0, answered: 0 };
  const loop = (async () => {
    while (running) {
      const recent = [...fleet.acks.values()].slice(-30);
      const urls = hubUrls();
      if (recent.length > 0 && urls.length > 0) {
        const picks = [0, 1, 2].map(() => recent[Math.floor(Math.random() * recent.length)]!);
        await Promise.all(
          picks.map(async (ack, i) => {
            const via = urls[i % urls.length]!;
            const start = Date.now();
            counts.asked++;
            try {
              const { json } = await getTask(via, fleet.agents[ack.sender]!.key, ack.taskId);
              if (!json.result) return;
              counts.answered++;
              history.record({
                kind: 'task',
                start,
                end: Date.now(),
                taskId: ack.taskId,
                state: json.result.status.state,
                via,
              });
            } catch {
              // a hub paused or unreachable: the read has no answer to judge
            }
          })
        );
      }
      await sleep(everyMs);
    }
  })();
  return {
    counts,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/**
 * One agent in a tenant of its own with a limit of `perMinute`, asking GetTask (of a task that does
 * not exist: the answer does not matter, the limiter counts it) `concurrency` at a time through the
 * live hubs in turn.
 */
export async function startRateProber(
  sql: Db,
  hubUrls: () => string[],
  history: History,
  opts: { perMinute: number; concurrency?: number; everyMs?: number }
): Promise<Observer> {
  const tenant = await createTenant(sql, {
    name: `Rate probe ${Math.random().toString(36).slice(2, 8)}`,
  });
  await setTenantRateLimit(sql, tenant.id, opts.perMinute);
  const { agent, apiKey } = await createAgent(sql, { tenantId: tenant.id, name: 'rate-probe' });
  let running = true;
  let turn = 0;
  const counts = { asked: 0, answered: 0 };
  const worker = async () => {
    while (running) {
      const urls = hubUrls();
      const via = urls[turn++ % Math.max(1, urls.length)];
      if (via) {
        counts.asked++;
        try {
          const { res, json } = await getTask(via, apiKey, 'no-such-task');
          const windowEnd = Number(res.headers.get('x-ratelimit-reset'));
          if (windowEnd > 0) {
            counts.answered++;
            history.record({
              kind: 'rate',
              at: Date.now(),
              key: agent.id,
              windowEnd,
              limit: Number(res.headers.get('x-ratelimit-limit')),
              admitted: json.error?.code !== -32017,
            });
          }
        } catch {
          // unanswered: it may or may not have been counted, so it is not judged
        }
      }
      await sleep(opts.everyMs ?? 100);
    }
  };
  const workers = Array.from({ length: opts.concurrency ?? 2 }, () => worker());
  return {
    counts,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}
