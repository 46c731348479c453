// The webhook dispatcher: a durable JetStream consumer on HUB_EVENTS turns each account event into
// delivery rows in PostgreSQL (one per subscribed webhook, idempotent per event id) and acks it;
// a poller on every node claims due rows with a lease and POSTs them. The schedule lives in those
// rows, so a hub restart between retries loses nothing and repeats no success (decisions.md §9).
// Each webhook is its own destination: a node sends at most PER_DESTINATION deliveries to one at a
// time and never waits on one destination to claim for another, so a receiver that hangs until
// the timeout delays only its own deliveries (issue 18: a batch once waited for its slowest).
import { AckPolicy, DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import {
  claimDueDeliveries,
  enqueueDeliveries,
  recordAttempt,
  type DueDelivery,
  type Queryable,
} from '../../infra/db/index.js';
import { EVENT_ID_HEADER, decodeHubEvent, streams, type Bus } from '../../runtime/bus/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import { createClaimPoller } from '../../runtime/poll/index.js';
import {
  OutboundRefusedError,
  outboundRequest,
  type OutboundGuard,
} from '../../runtime/net/index.js';
import { MAX_ATTEMPTS, retryAt, WEBHOOK_TIMEOUT_MS } from './schedule.js';
import { signBody } from './sign.js';

/** The shared durable consumer: each stored event goes to one node. */
export const DISPATCHER_CONSUMER = 'webhook-dispatcher';

export interface WebhookDispatcherOptions {
  readonly sql: Queryable;
  readonly log: Logger;
  /** OUTBOUND_ALLOW_PRIVATE's guard: webhook URLs resolving to private addresses are refused. */
  readonly guard: OutboundGuard;
  /** Injectable clock (ms since epoch): drives next_at, so tests need no sleeping. */
  readonly now?: () => number;
  /** How often due deliveries are looked for. */
  readonly pollMs?: number;
  /** How long a claimed delivery is reserved for the claiming node. */
  readonly leaseMs?: number;
  /** Deliveries in flight at once to one webhook from this node. */
  readonly perDestination?: number;
  /** Deliveries in flight at once from this node, all webhooks together. */
  readonly maxInFlight?: number;
  /** Counts each POST by outcome. */
  readonly metrics?: Pick<HubMetrics, 'webhookDeliveries'>;
}

export interface WebhookDispatcher {
  /** Consume HUB_EVENTS from `bus` and poll for due deliveries. */
  start(bus: Bus): Promise<void>;
  /** Claim and send the deliveries due now; resolves, once they were tried, with how many. */
  tick(): Promise<number>;
  /** Turn one stored event into deliveries. */
  ingest(e: { tenantId: string; eventId: string; event: string; body: string }): Promise<number>;
  stop(): Promise<void>;
}

/**
 * One POST through the outbound guard; resolves ok on 2xx within the timeout, else the reason. A
 * refused address is `final`: no retry can make it public, so the delivery fails at once.
 */
export async function postWebhook(
  d: Pick<DueDelivery, 'id' | 'url' | 'secret' | 'event' | 'body'>,
  nowMs: number,
  guard: OutboundGuard
): Promise<{ ok: true } | { ok: false; error: string; final?: true }> {
  try {
    const res = await outboundRequest(guard, new URL(d.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Burrow-Webhooks/1',
        'x-hub-signature': signBody(d.secret, d.body),
        'x-hub-event': d.event,
        'x-hub-delivery': d.id,
        'x-hub-timestamp': String(Math.floor(nowMs / 1000)),
      },
      body: d.body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      // The receiver's answer is not read; a large one is not worth holding.
      maxBytes: 64 * 1024,
    });
    return res.status >= 200 && res.status < 300
      ? { ok: true }
      : { ok: false, error: `HTTP ${res.status}` };
  } catch (err) {
    if (err instanceof OutboundRefusedError) {
      return { ok: false, error: `webhook URL refused: ${err.message}`, final: true };
    }
    const name = err instanceof Error ? err.name : '';
    return {
      ok: false,
      error: name === 'TimeoutError' ? `no answer within ${WEBHOOK_TIMEOUT_MS} ms` : String(err),
    };
  }
}

/** Enough to keep a receiver busy without letting one destination hold many sockets. */
export const PER_DESTINATION = 4;
const MAX_IN_FLIGHT = 1_000;
/** Rows claimed per query; a full batch is followed at once by another. */
const CLAIM_BATCH = 100;

export function createWebhookDispatcher(o: WebhookDispatcherOptions): WebhookDispatcher {
  const now = o.now ?? Date.now;
  const leaseMs = o.leaseMs ?? 2 * WEBHOOK_TIMEOUT_MS;
  const perDestination = o.perDestination ?? PER_DESTINATION;
  const maxInFlight = o.maxInFlight ?? MAX_IN_FLIGHT;
  let messages: ConsumerMessages | undefined;
  let consuming: Promise<void> = Promise.resolve();
  /** This node's deliveries in flight, by webhook id: the slots the claim must leave alone. */
  const inFlight = new Map<string, number>();
  let inFlightTotal = 0;
  /** Wake-ups at the exact time of a retry this node scheduled, so the poll period adds nothing. */
  const retryTimers = new Set<NodeJS.Timeout>();

  const attempt = async (d: DueDelivery): Promise<void> => {
    const result = await postWebhook(d, now(), o.guard);
    o.metrics?.webhookDeliveries.inc({
      outcome: result.ok ? 'ok' : result.final === true ? 'refused' : 'failed',
    });
    const at = now();
    const n = d.attempts + 1;
    const retry = result.ok || result.final === true ? null : retryAt(n, d.maxAttempts, at);
    await recordAttempt(
      o.sql,
      { id: d.id, webhookId: d.webhookId },
      result.ok ? result : { ok: false, error: result.error, retryAt: retry },
      new Date(at)
    );
    if (!result.ok)
      o.log.warn({ delivery: d.id, attempt: n, error: result.error }, 'webhook delivery failed');
    if (retry !== null && !poller.stopped) {
      // A few ms late, so the row is surely due when the claim reads it.
      const t = setTimeout(
        () => {
          retryTimers.delete(t);
          poller.wake();
        },
        retry.getTime() - at + 5
      );
      t.unref();
      retryTimers.add(t);
    }
  };

  const start = (d: DueDelivery): Promise<void> => {
    inFlight.set(d.webhookId, (inFlight.get(d.webhookId) ?? 0) + 1);
    inFlightTotal += 1;
    return attempt(d)
      .catch((err: unknown) => o.log.warn({ err, delivery: d.id }, 'webhook attempt not recorded'))
      .finally(() => {
        const wasFull =
          inFlightTotal >= maxInFlight || inFlight.get(d.webhookId) === perDestination;
        inFlightTotal -= 1;
        const left = (inFlight.get(d.webhookId) ?? 1) - 1;
        if (left > 0) inFlight.set(d.webhookId, left);
        else inFlight.delete(d.webhookId);
        // Only a full destination (or node) can have left due rows behind: claim them now.
        if (wasFull) poller.wake();
      });
  };

  /** Claims what is due for destinations with free slots; started once start() ran. */
  const poller = createClaimPoller<DueDelivery>({
    claim: (limit) => {
      const t = now();
      return claimDueDeliveries(o.sql, {
        now: new Date(t),
        leaseUntil: new Date(t + leaseMs),
        limit,
        perDestination,
        inFlight,
      });
    },
    start,
    room: () => maxInFlight - inFlightTotal,
    batch: CLAIM_BATCH,
    pollMs: o.pollMs ?? 250,
    onClaimError: (err) => o.log.warn({ err }, 'webhook poll failed'),
  });

  const ingest: WebhookDispatcher['ingest'] = (e) =>
    enqueueDeliveries(o.sql, { ...e, now: new Date(now()), maxAttempts: MAX_ATTEMPTS });

  return {
    tick: () => poller.tick(),
    ingest,
    async start(bus) {
      try {
        await bus.jsm.consumers.add(streams.events, {
          durable_name: DISPATCHER_CONSUMER,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          ack_wait: 30_000_000_000,
          max_deliver: -1,
        });
      } catch (err) {
        // Another node created it first with the same settings.
        o.log.debug({ err }, 'webhook consumer exists');
      }
      const consumer = await bus.js.consumers.get(streams.events, DISPATCHER_CONSUMER);
      messages = await consumer.consume({ max_messages: 100 });
      const iter = messages;
      consuming = (async () => {
        for await (const m of iter) {
          // hubev.<tenantId>.<event name>; the name itself holds a dot, so it is read from the body.
          const tenantId = m.subject.split('.')[1] ?? '';
          const eventId = m.headers?.get(EVENT_ID_HEADER) || `seq-${m.seq}`;
          try {
            const { event } = decodeHubEvent(m.data);
            await ingest({ tenantId, eventId, event, body: m.string() });
            m.ack();
            poller.wake();
          } catch (err) {
            o.log.warn({ err, eventId }, 'could not queue webhook deliveries; will retry');
            m.nak(1_000);
          }
        }
      })();
      poller.start();
    },
    async stop() {
      // Stops claiming at once; attempts in flight end within the request timeout, their outcome
      // recorded, not lost.
      const drained = poller.stop();
      for (const t of retryTimers) clearTimeout(t);
      retryTimers.clear();
      await messages?.close();
      await consuming.catch(() => undefined);
      await drained;
    },
  };
}
