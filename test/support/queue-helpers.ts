// Helpers for the offline-queue e2e tests (interface-spec "Offline delivery"): sending and
// classifying SendMessage answers, an agent that records every frame from its first byte and
// answers each queued message, partition ownership through /debug/cluster, and direct looks at
// the partition logs, the presence bucket and the tasks table.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Frame } from './ws-agent.js';
import { rpc, type RpcResult } from './rpc.js';
import type { HubProcess } from './hub-process.js';
import { partitionOf } from '../../runtime/cluster/index.js';
import {
  buckets,
  decodeJson,
  partitionLabel,
  presenceKey,
  streams,
  subjects,
  type Bus,
} from '../../runtime/bus/index.js';
import type { Queryable } from '../../infra/db/index.js';

/** The admin token every queue-test hub runs with (for /debug/cluster). */
export const QUEUE_ADMIN_TOKEN = 'admin-token-for-queue-tests-0123456789';

export interface TaskResult {
  id: string;
  contextId: string;
  status: { state: string };
}

/** A SendMessage from `senderKey` to `recipientId` with one text part, through `hubUrl`. */
export function sendText(
  hubUrl: string,
  senderKey: string,
  recipientId: string,
  body: string,
  configuration: Record<string, unknown> = {}
): Promise<RpcResult<TaskResult>> {
  return rpc<TaskResult>(hubUrl, senderKey, 'SendMessage', {
    message: { role: 'user', parts: [{ kind: 'text', text: body }] },
    configuration: { agentId: recipientId, ...configuration },
  });
}

/** What one SendMessage answer was: a queued task, a JSON-RPC error code, or something else. */
export type Outcome = 'submitted' | number | 'unexpected';

export function outcomeOf(r: RpcResult<TaskResult>): Outcome {
  if (r.error) return r.error.code;
  if (r.result?.status.state === 'submitted' && typeof r.result.id === 'string') return 'submitted';
  return 'unexpected';
}

/** How many answers had each outcome, e.g. { submitted: 20, '-32012': 40 }. */
export function tally(results: ReadonlyArray<RpcResult<TaskResult>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const k = String(outcomeOf(r));
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** Answers that were neither a submitted task nor one of `codes`, for failure messages. */
export function unexpectedAnswers(
  results: ReadonlyArray<RpcResult<TaskResult>>,
  codes: readonly number[]
): string[] {
  return results
    .filter((r) => {
      const o = outcomeOf(r);
      return o !== 'submitted' && !(typeof o === 'number' && codes.includes(o));
    })
    .map((r) => JSON.stringify({ status: r.status, error: r.error, result: r.result }));
}

/** Poll `cond` every 50 ms; throws naming `what` after `ms`. */
export async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  ms = 20_000
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** PATCH /api/agents/:agentId with the agent's own key; returns the HTTP status. */
export async function patchAgentSettings(
  hubUrl: string,
  agentId: string,
  key: string,
  body: Record<string, unknown>
): Promise<number> {
  const res = await fetch(`${hubUrl}/api/agents/${agentId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** GET /api/agents/:agentId's queue_max_pending as `hubUrl` answers it. */
export async function queueMaxPendingOf(
  hubUrl: string,
  agentId: string,
  key: string
): Promise<number | undefined> {
  const res = await fetch(`${hubUrl}/api/agents/${agentId}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await res.json()) as { queue_max_pending?: number }).queue_max_pending;
}

// ---------------------------------------------------------------------------------------------
// Partition ownership

/** The partitions a hub reports owning on /debug/cluster; [] when it does not answer. */
export async function ownedPartitions(hubUrl: string): Promise<number[]> {
  try {
    const res = await fetch(`${hubUrl}/debug/cluster`, {
      headers: { authorization: `Bearer ${QUEUE_ADMIN_TOKEN}` },
      signal: AbortSignal.timeout(2_000),
    });
    if (!res.ok) return [];
    return ((await res.json()) as { owned?: number[] }).owned ?? [];
  } catch {
    return [];
  }
}

/**
 * Wait until the hubs together own every partition exactly once (and each owns at least one
 * when `eachOwnsOne`). Returns what each hub owns.
 */
export async function waitOwnership(
  hubUrls: readonly string[],
  partitions: number,
  opts: { eachOwnsOne?: boolean; ms?: number } = {}
): Promise<number[][]> {
  let last: number[][] = [];
  try {
    await waitFor(
      `the hubs ${hubUrls.join(', ')} to own all ${partitions} partitions`,
      async () => {
        last = await Promise.all(hubUrls.map((u) => ownedPartitions(u)));
        const all = last.flat().sort((a, b) => a - b);
        const complete =
          all.length === partitions &&
          all.every((p, i) => p === i) &&
          new Set(all).size === all.length;
        return complete && (!opts.eachOwnsOne || last.every((o) => o.length > 0));
      },
      opts.ms ?? 30_000
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; last seen: ${JSON.stringify(last)}`);
  }
  return last;
}

/** The partition of a tenant's queues (docs/ARCHITECTURE.md: fnv1a32(tenantId) % P). */
export function tenantPartition(tenantId: string, partitions: number): number {
  return partitionOf(tenantId, partitions);
}

// ---------------------------------------------------------------------------------------------
// Looking at NATS and PostgreSQL directly

/**
 * Messages in a partition's log that are not actor snapshots (`hubd.<pp>.s.…`) or the epoch
 * marker: what the partition holds besides actor state, i.e. its queued messages.
 */
export async function nonSnapshotMessages(
  bus: Bus,
  partition: number,
  partitions: number
): Promise<number> {
  const label = partitionLabel(partition, partitions);
  const info = await bus.jsm.streams.info(streams.partition(label), {
    subjects_filter: subjects.partitionAll(label),
  });
  const bySubject = info.state.subjects ?? {};
  const snapshots = `hubd.${label}.s.`;
  let n = 0;
  for (const [subject, count] of Object.entries(bySubject)) {
    if (subject.startsWith(snapshots) || subject === subjects.partitionEpoch(label)) continue;
    n += count;
  }
  return n;
}

/** GET /debug/queues/:agentId: the owner's view of a recipient's queue (for failure messages). */
export async function queueInspection(hubUrl: string, agentId: string): Promise<unknown> {
  try {
    const res = await fetch(`${hubUrl}/debug/queues/${agentId}`, {
      headers: { authorization: `Bearer ${QUEUE_ADMIN_TOKEN}` },
    });
    return await res.json();
  } catch (err) {
    return String(err);
  }
}

/**
 * Run `fn` (a wait on a recipient's deliveries); when it fails, add what the hub says of the
 * recipient's queue and the agent's non-message frames to the error.
 */
export async function withQueueDiagnostics<T>(
  hubUrl: string,
  agentId: string,
  agent: QueueAgent,
  fn: () => Promise<T>,
  extra?: () => unknown
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const others = agent.frames.filter((f) => f.type !== 'message');
    throw new Error(
      `${(err as Error).message}\n  queue at ${hubUrl}: ${JSON.stringify(await queueInspection(hubUrl, agentId))}` +
        `\n  other frames: ${JSON.stringify(others)}; socket ${agent.isOpen() ? 'open' : `closed (${agent.closeCode()}${agent.socketError() ? `, client error: ${agent.socketError()}` : ''})`}` +
        (extra ? `\n  also: ${JSON.stringify(extra())}` : '')
    );
  }
}

/** Records every change of the HUB_PRESENCE bucket (op, key, time) until stop() is called. */
export async function recordPresence(bus: Bus): Promise<{
  events: Array<{ at: string; op: string; key: string; value: string }>;
  stop(): void;
}> {
  const kv = await bus.kvm.open(buckets.presence);
  const iter = await kv.watch({ key: 'agent.*' });
  const events: Array<{ at: string; op: string; key: string; value: string }> = [];
  void (async () => {
    for await (const e of iter) {
      events.push({
        at: new Date().toISOString(),
        op: e.operation,
        key: e.key,
        value: new TextDecoder().decode(e.value),
      });
    }
  })();
  return { events, stop: () => iter.stop() };
}

/** The presence entry of an agent as the HUB_PRESENCE bucket holds it (null when absent). */
export async function presenceEntry(
  bus: Bus,
  agentId: string
): Promise<{ nodeId: string; connId: string } | null> {
  const kv = await bus.kvm.open(buckets.presence);
  const e = await kv.get(presenceKey(agentId));
  if (!e || e.operation !== 'PUT' || e.value.length === 0) return null;
  return decodeJson<{ nodeId: string; connId: string }>(e.value);
}

/** Rows in the tasks index (the projection behind ListTasks) with this recipient. */
export async function tasksIndexedFor(sql: Queryable, recipientId: string): Promise<number> {
  const rows = await sql.unsafe<Array<{ n: string }>>(
    'select count(*) as n from tasks where recipient_id = $1',
    [recipientId]
  );
  return Number(rows[0]?.n ?? 0);
}

/** The task's state as its sender reads it with GetTask through `hubUrl`. */
export async function taskState(
  hubUrl: string,
  senderKey: string,
  taskId: string
): Promise<string | undefined> {
  const r = await rpc<TaskResult>(hubUrl, senderKey, 'GetTask', { id: taskId, historyLength: 0 });
  return r.result?.status.state;
}

/** Wait until every task reads `state` through `hubUrl`; returns the states seen last. */
export async function waitTaskStates(
  hubUrl: string,
  tasks: ReadonlyArray<{ id: string; senderKey: string }>,
  state: string,
  ms = 20_000
): Promise<Record<string, string | undefined>> {
  const seen: Record<string, string | undefined> = {};
  try {
    await waitFor(
      `${tasks.length} tasks to be ${state}`,
      async () => {
        const pending = tasks.filter((t) => seen[t.id] !== state);
        const states = await Promise.all(pending.map((t) => taskState(hubUrl, t.senderKey, t.id)));
        pending.forEach((t, i) => (seen[t.id] = states[i]));
        return tasks.every((t) => seen[t.id] === state);
      },
      ms
    );
  } catch (err) {
    const off = Object.entries(seen).filter(([, s]) => s !== state);
    throw new Error(`${(err as Error).message}; not ${state}: ${JSON.stringify(off)}`);
  }
  return seen;
}

// ---------------------------------------------------------------------------------------------
// A recipient agent for queue tests

export interface MessageFrame extends Frame {
  type: 'message';
  from: string;
  taskId: string;
  contextId: string;
  payload: { role: string; parts: Array<{ kind: string; text?: string }>; messageId: string };
}

/** The text of a message frame's first part. */
export const textOf = (m: MessageFrame): string => m.payload.parts[0]?.text ?? '';

export interface QueueAgent {
  /** Every frame in arrival order, from the first byte on (nothing can slip past a listener). */
  readonly frames: Frame[];
  /** The `message` frames, in arrival order. */
  readonly messages: MessageFrame[];
  /** Resolves with the close code when the socket closes (for any reason). */
  readonly closed: Promise<number>;
  isOpen(): boolean;
  /** The close code once the socket has closed, else undefined. */
  closeCode(): number | undefined;
  /** The first error the client socket reported (why it closed, when the hub did not say). */
  socketError(): string | undefined;
  /** Wait until at least `n` message frames have arrived; returns them all. */
  waitMessages(n: number, ms?: number): Promise<MessageFrame[]>;
  /** Wait until no message frame has arrived for `quietMs`. */
  waitQuiet(quietMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connect a WebSocket agent (Bearer key on the upgrade) and wait for `welcome`. With `reply` (the
 * default), each `message` frame is answered at once with a completed `task_response` (lastChunk
 * true).
 */
export async function connectQueueAgent(
  hubUrl: string,
  apiKey: string,
  opts: {
    reply?: boolean;
    welcomeMs?: number;
    /** Called synchronously as each message frame arrives, before the reply is sent. */
    onMessage?: (m: MessageFrame) => void;
  } = {}
): Promise<QueueAgent> {
  const reply = opts.reply ?? true;
  const ws = new WebSocket(hubUrl.replace(/^http/, 'ws') + '/ws', {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const frames: Frame[] = [];
  const messages: MessageFrame[] = [];
  let lastMessageAt = Date.now();
  ws.on('message', (data) => {
    const f = JSON.parse((data as Buffer).toString()) as Frame;
    frames.push(f);
    if (f.type !== 'message') return;
    const m = f as MessageFrame;
    messages.push(m);
    lastMessageAt = Date.now();
    opts.onMessage?.(m);
    if (reply && ws.readyState === WebSocket.OPEN) {
      ws.send(
        JSON.stringify({
          type: 'task_response',
          taskId: m.taskId,
          status: { state: 'completed' },
          lastChunk: true,
        })
      );
    }
  });
  let closeCode: number | undefined;
  const closed = new Promise<number>((r) =>
    ws.once('close', (code) => {
      closeCode = code;
      r(code);
    })
  );
  // A killed hub resets the socket; `closed` reports it. The error says why a live hub's did.
  let socketError: string | undefined;
  ws.on('error', (err) => (socketError ??= err.message));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  await waitFor(
    `welcome from ${hubUrl}`,
    () => {
      if (frames.some((f) => f.type === 'auth_error')) {
        throw new Error(`auth_error from ${hubUrl}: ${JSON.stringify(frames)}`);
      }
      return frames.some((f) => f.type === 'welcome');
    },
    opts.welcomeMs ?? 10_000
  );
  return {
    frames,
    messages,
    closed,
    isOpen: () => ws.readyState === WebSocket.OPEN,
    closeCode: () => closeCode,
    socketError: () => socketError,
    async waitMessages(n, ms = 20_000) {
      try {
        await waitFor(`${n} message frames`, () => messages.length >= n, ms);
      } catch (err) {
        throw new Error(
          `${(err as Error).message}; got ${messages.length}: ${JSON.stringify(messages.map(textOf))}`
        );
      }
      return messages;
    },
    async waitQuiet(quietMs) {
      while (Date.now() - lastMessageAt < quietMs) await sleep(50);
    },
    close() {
      if (ws.readyState === WebSocket.CLOSED) return closed.then(() => undefined);
      ws.close();
      return closed.then(() => undefined);
    },
  };
}

/** Each text's first arrival, in order, across sessions. */
export function firstArrivals(messages: readonly MessageFrame[]): MessageFrame[] {
  const seen = new Set<string>();
  const out: MessageFrame[] = [];
  for (const m of messages) {
    const t = textOf(m);
    if (seen.has(t)) continue;
    seen.add(t);
    out.push(m);
  }
  return out;
}

/** Texts that arrived more than once, with how often. */
export function repeated(messages: readonly MessageFrame[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(textOf(m), (counts.get(textOf(m)) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}

// ---------------------------------------------------------------------------------------------
// Logs

/**
 * Copy the hubs' logs to $BURROW_TEST_LOG_DIR/<name>/ when that variable is set (hub-process
 * removes them with its temp dir): the evidence for a failure report.
 */
export function keepHubLogs(name: string, hubs: readonly HubProcess[]): void {
  const dir = process.env.BURROW_TEST_LOG_DIR;
  if (!dir) return;
  const target = join(dir, name);
  mkdirSync(target, { recursive: true });
  hubs.forEach((h, i) => {
    try {
      copyFileSync(h.logFile, join(target, `${String(i).padStart(2, '0')}-${h.nodeId}.log`));
    } catch {
      // already removed
    }
  });
}
