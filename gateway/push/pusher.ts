// The pusher (every node): claims due push configs whose task moved past what was delivered, and
// POSTs the task's new events to each, one at a time and in rev order, through the outbound
// guard. Each success is recorded before the next event goes, so a hub killed mid-way resumes
// after the last acknowledged event (at-least-once: a receiver dedupes on X-Hub-Delivery). The
// events come from the `tasks` index, which the task's owner writes from its durable changes and
// a new owner rewrites from the log, so nothing a caller was told happened is lost.
import type { Logger } from '../../runtime/log/index.js';
import { createClaimPoller } from '../../runtime/poll/index.js';
import {
  OutboundRefusedError,
  outboundRequest,
  type OutboundGuard,
} from '../../runtime/net/index.js';
import {
  TerminalStates,
  encodeStreamEventHub,
  encodeStreamEventV1,
  encodeTaskV03,
  type Task,
} from '../../runtime/protocol/index.js';
import {
  claimDuePushes,
  recordPushed,
  recordPushFailure,
  releasePush,
  type DuePush,
  type Queryable,
} from '../../infra/db/index.js';
import { PUSH_TIMEOUT_MS, pushRetryAt } from './push-schedule.js';
import { PUSH_SIGNATURE_HEADER, type PushSigner } from './push-sign.js';

export interface PusherOptions {
  readonly sql: Queryable;
  readonly guard: OutboundGuard;
  readonly signer: PushSigner;
  readonly log: Logger;
  readonly now?: () => number;
  /** How often due configs are looked for (a local registration also wakes it). */
  readonly pollMs?: number;
  /** Configs pushed at once from this node. */
  readonly maxInFlight?: number;
}

/** One notification: the body and the task rev it brings the receiver to. */
export interface PushNotification {
  readonly rev: number;
  readonly body: string;
}

/**
 * What is left to push for a config, in order: A2A v1.0 and the hub dialect one StreamResponse
 * ({statusUpdate} / {artifactUpdate} / {message}) per event; v0.3 the Task as it now stands, as
 * v0.3 servers send it.
 */
export function pendingNotifications(c: DuePush): PushNotification[] {
  const task = c.task;
  if (c.dialect === 'v0.3') {
    return [{ rev: task.rev, body: JSON.stringify(encodeTaskV03(task, {})) }];
  }
  const out: PushNotification[] = [];
  for (const event of task.events) {
    if (event.rev <= c.deliveredRev) continue;
    const last = event.rev === task.rev && TerminalStates.has(task.status.state);
    const payload =
      c.dialect === 'v1'
        ? encodeStreamEventV1(task, event)
        : encodeStreamEventHub(task, event, last);
    out.push({ rev: event.rev, body: JSON.stringify(payload) });
  }
  return out;
}

export interface Pusher {
  start(): void;
  /** Look for due configs now. */
  wake(): void;
  /** Claims and pushes what is due now; resolves when those pushes ended. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

const CLAIM_BATCH = 50;
/**
 * A claimed config's lease: one POST's timeout and a margin, renewed after every success. A node
 * that dies holding it delays that config's next push by at most this much.
 */
const LEASE_MS = PUSH_TIMEOUT_MS + 5_000;

export function createPusher(o: PusherOptions): Pusher {
  const now = o.now ?? Date.now;
  const maxInFlight = o.maxInFlight ?? 200;
  /** Configs being pushed from this node: `<task> <owner> <id>`. */
  const inFlight = new Set<string>();

  const keyOf = (c: DuePush) => `${c.taskId} ${c.ownerAgentId} ${c.id}`;

  const post = async (
    c: DuePush,
    n: PushNotification
  ): Promise<{ ok: true } | { ok: false; error: string; final?: true }> => {
    const delivery = `${c.taskId}:${c.id}:${n.rev}`;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Burrow-Push/1',
      'x-hub-delivery': delivery,
      [PUSH_SIGNATURE_HEADER]: await o.signer.sign(n.body, {
        aud: c.url,
        jti: delivery,
        taskId: c.taskId,
        now: now(),
      }),
    };
    if (c.token !== null) headers['x-a2a-notification-token'] = c.token;
    if (c.authScheme !== null) {
      headers.authorization =
        c.authCredentials !== null ? `${c.authScheme} ${c.authCredentials}` : c.authScheme;
    }
    try {
      const res = await outboundRequest(o.guard, new URL(c.url), {
        method: 'POST',
        headers,
        body: n.body,
        timeoutMs: PUSH_TIMEOUT_MS,
        maxBytes: 64 * 1024,
      });
      return res.status >= 200 && res.status < 300
        ? { ok: true }
        : { ok: false, error: `HTTP ${res.status}` };
    } catch (err) {
      if (err instanceof OutboundRefusedError) {
        return { ok: false, error: `push URL refused: ${err.message}`, final: true };
      }
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  };

  /** Pushes a config's pending events in order; stops at the first failure (retried later). */
  const push = async (c: DuePush): Promise<void> => {
    const finished = (t: Task, rev: number) => rev >= t.rev && TerminalStates.has(t.status.state);
    let attempts = c.attempts;
    for (const n of pendingNotifications(c)) {
      if (poller.stopped) return;
      const result = await post(c, n);
      if (result.ok) {
        attempts = 0;
        const t = now();
        // The lease is renewed with each success, so no other node starts on this backlog.
        await recordPushed(
          o.sql,
          c,
          n.rev,
          finished(c.task, n.rev),
          new Date(t + LEASE_MS),
          new Date(t)
        );
        continue;
      }
      attempts += 1;
      const retry = result.final === true ? null : pushRetryAt(attempts, now());
      await recordPushFailure(o.sql, c, result.error, retry, new Date(now()));
      o.log.warn(
        { taskId: c.taskId, config: c.id, attempt: attempts, error: result.error },
        retry === null ? 'push notifications given up' : 'push notification failed; will retry'
      );
      if (retry !== null && !poller.stopped) {
        const t = setTimeout(poller.wake, retry.getTime() - now() + 5);
        t.unref();
      }
      return;
    }
    await releasePush(o.sql, c, new Date(now()));
  };

  const start1 = (c: DuePush): Promise<void> => {
    const key = keyOf(c);
    inFlight.add(key);
    return push(c)
      .catch((err: unknown) => o.log.warn({ err, taskId: c.taskId }, 'push not recorded'))
      .finally(() => {
        inFlight.delete(key);
        // Events that arrived while this config was being pushed are claimed right away.
        poller.wake();
      });
  };

  const poller = createClaimPoller<DuePush>({
    claim: (limit) => {
      const t = now();
      return claimDuePushes(o.sql, {
        now: new Date(t),
        leaseUntil: new Date(t + LEASE_MS),
        limit,
        exclude: [...inFlight],
      });
    },
    start: start1,
    room: () => maxInFlight - inFlight.size,
    batch: CLAIM_BATCH,
    pollMs: o.pollMs ?? 200,
    onClaimError: (err) => o.log.warn({ err }, 'push claim failed'),
  });

  return {
    start: () => poller.start(),
    wake: poller.wake,
    tick: () => poller.tick(),
    stop: () => poller.stop(),
  };
}
