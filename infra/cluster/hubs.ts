// Hub nodes of a local cluster: `node dist/infra/bin/hub.js` when the project is built (unless
// told to run from source), else `node --import tsx infra/bin/hub.ts`, each with its own NODE_ID
// and port, the same DATABASE_URL, and all three NATS servers (in a rotated order, so the nodes
// start on different servers).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HubEntry, NatsEntry } from './layout.js';
import { isOurs, logTail, sleep, spawnDetached } from './processes.js';

/** Both commands name the hub's entry file; the pid check looks for it. */
export const HUB_MARKER = 'infra/bin/hub.';

export function hubCommand(root: string, fromSource: boolean): { command: string; args: string[] } {
  const built = join(root, 'dist/infra/bin/hub.js');
  if (!fromSource && existsSync(built)) return { command: process.execPath, args: [built] };
  return {
    command: process.execPath,
    args: ['--import', 'tsx', join(root, 'infra/bin/hub.ts')],
  };
}

export function hubEnv(
  base: NodeJS.ProcessEnv,
  opts: {
    nodeId: string;
    port: number;
    nats: readonly NatsEntry[];
    databaseUrl: string;
    index: number;
  }
): NodeJS.ProcessEnv {
  const urls = opts.nats.map((n) => `nats://127.0.0.1:${n.port}`);
  const k = opts.index % urls.length;
  return {
    ...base,
    NODE_ID: opts.nodeId,
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${opts.port}`,
    NATS_URL: [...urls.slice(k), ...urls.slice(0, k)].join(','),
    // Every stream, bucket and lock consumer on all three servers: losing one loses nothing.
    NATS_REPLICAS: '3',
    DATABASE_URL: opts.databaseUrl,
    // Several nodes on one machine cannot share postie's inbound SMTP port; 0 picks a free one.
    SMTP_LISTEN_PORT: base.SMTP_LISTEN_PORT ?? '0',
  };
}

export function startHub(
  root: string,
  opts: {
    nodeId: string;
    port: number;
    index: number;
    nats: readonly NatsEntry[];
    databaseUrl: string;
    dir: string;
    fromSource: boolean;
    env: NodeJS.ProcessEnv;
  }
): HubEntry {
  const { command, args } = hubCommand(root, opts.fromSource);
  const logFile = join(opts.dir, `${opts.nodeId}.log`);
  const pid = spawnDetached(command, args, {
    cwd: root,
    env: hubEnv(opts.env, opts),
    logFile,
  });
  return {
    nodeId: opts.nodeId,
    pid,
    port: opts.port,
    logFile,
    command: ['node', ...args.map((a) => a.replace(`${root}/`, ''))].join(' '),
  };
}

export interface HubHealth {
  /** HTTP status of GET /health, or undefined when the hub did not answer. */
  http?: number;
  body?: { status?: string; checks?: Record<string, string> };
}

export async function hubHealth(port: number, ms = 2000): Promise<HubHealth> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(ms) });
    const text = await res.text();
    let body: HubHealth['body'];
    try {
      body = JSON.parse(text) as HubHealth['body'];
    } catch {
      body = undefined;
    }
    return { http: res.status, body };
  } catch {
    return {};
  }
}

/** Wait until every hub answers /health 200; fails early if one exits. */
export async function waitHubsHealthy(hubs: readonly HubEntry[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const dead = hubs.filter((h) => !isOurs(h.pid, HUB_MARKER));
    if (dead.length) {
      throw new Error(
        `hub ${dead.map((h) => h.nodeId).join(', ')} exited during start-up\n` +
          dead.map((h) => `--- ${h.logFile}\n${logTail(h.logFile)}`).join('\n')
      );
    }
    const health = await Promise.all(hubs.map((h) => hubHealth(h.port)));
    if (health.every((x) => x.http === 200)) return;
    if (Date.now() > deadline) {
      const waiting = hubs.filter((_, i) => health[i]?.http !== 200);
      throw new Error(
        `hubs not healthy after ${ms} ms: ${waiting.map((h) => h.nodeId).join(', ')}\n` +
          waiting.map((h) => `--- ${h.logFile}\n${logTail(h.logFile)}`).join('\n')
      );
    }
    await sleep(300);
  }
}
