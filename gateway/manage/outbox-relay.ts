// Moves account events from PostgreSQL's event_outbox into HUB_EVENTS (decisions.md §9). Credit
// changes write their events in the ledger's own transaction (the CLI has no JetStream at hand);
// this relay publishes them with the outbox id as Nats-Msg-Id, so a row published twice (a crash
// between publish and stamp, two nodes) is stored once. Every node runs it; rows are skip-locked.
import { relayOutbox, type Queryable } from '../../infra/db/index.js';
import {
  ClosedConnectionError,
  ConnectionError,
  DrainingConnectionError,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/nats-core';
import { PublishError, publishEvent, type Bus } from '../../runtime/bus/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { rowsSetAside, type HubMetrics } from '../../runtime/metrics/index.js';

/** Failed publishes of one row (while others were published) before the relay sets it aside. */
const ROW_ATTEMPTS = 3;

export interface OutboxRelayOptions {
  readonly sql: Queryable;
  readonly bus: Pick<Bus, 'publish'>;
  readonly log: Logger;
  /** Poll period for rows written elsewhere (the CLI); in-process writes call kick(). */
  readonly intervalMs?: number;
  readonly metrics?: Pick<HubMetrics, 'registry'>;
}

export interface OutboxRelay {
  start(): void;
  /** Relay now (after a change made in this process), without waiting for the next poll. */
  kick(): void;
  stop(): Promise<void>;
}

export function createOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let again = false;
  let busy = false;

  // A row NATS refuses for what it is (too large, a subject it cannot take; not an outage) stops
  // its batch a few times, then is left unpublished in the table until this process restarts,
  // with one log line and one count, and the rows behind it go on.
  const failures = new Map<string, number>();
  const setAside = new Set<string>();
  const counter = o.metrics ? rowsSetAside(o.metrics) : undefined;
  const failed = (id: string, err: unknown): 'stop' | 'skip' => {
    if (natsAway(err)) return 'stop';
    const n = (failures.get(id) ?? 0) + 1;
    failures.set(id, n);
    if (n < ROW_ATTEMPTS) return 'stop';
    failures.delete(id);
    setAside.add(id);
    o.log.error({ err, id }, 'outbox event set aside: it cannot be published');
    counter?.inc({ writer: 'outbox' });
    return 'skip';
  };
  const runOnce = async (): Promise<void> => {
    // Drain in batches until a batch comes back short.
    while ((await relayOutbox(o.sql, publish, 100, { skip: setAside, failed })) === 100);
  };
  const publish = async (e: {
    id: string;
    tenantId: string;
    event: 'credits.low_balance' | 'credits.purchased' | 'spending.threshold';
    data: Record<string, unknown>;
    createdAt: Date;
  }): Promise<void> => {
    await publishEvent(o.bus, {
      tenantId: e.tenantId,
      event: e.event,
      // The outbox row was built by credits.repo in exactly the event's shape.
      data: e.data as never,
      id: e.id,
      at: e.createdAt,
    });
  };
  const kick = (): void => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    running = runOnce()
      .catch((err: unknown) => o.log.warn({ err }, 'event outbox relay failed; will retry'))
      .finally(() => {
        busy = false;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  return {
    start() {
      timer ??= setInterval(kick, o.intervalMs ?? 1_000);
      timer.unref();
      kick();
    },
    kick,
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

/** Errors that say NATS (or the events stream) is away, nothing about the event being published. */
function natsAway(err: unknown): boolean {
  return (
    err instanceof TimeoutError ||
    err instanceof NoRespondersError ||
    err instanceof RequestError ||
    err instanceof ClosedConnectionError ||
    err instanceof ConnectionError ||
    err instanceof DrainingConnectionError ||
    (err instanceof PublishError && err.code === 0)
  );
}
