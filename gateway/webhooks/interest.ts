// Which account events a tenant's webhooks listen to. Account events exist to be delivered by
// webhooks (interface-spec "Events"); storing message.sent/.delivered/.received for a tenant with
// no webhook subscribed to them would cost every message three durable JetStream writes for
// nothing (a quarter of a round trip's cost, measured). Each node keeps a copy per tenant; a
// change through the management API or the CLI is broadcast on hub.webhooks.changed.<tenant> and
// drops it on every node at once; the TTL bounds staleness if a broadcast is missed.
import type { Subscription } from '@nats-io/nats-core';
import { subjects, type Bus } from '../../runtime/bus/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { subscribedEvents, type Queryable } from '../../infra/db/index.js';

interface Entry {
  at: number;
  events: Promise<ReadonlySet<string>>;
}

export interface WebhookInterestOptions {
  sql: Queryable;
  bus: Bus;
  log: Logger;
  ttlMs?: number;
  now?: () => number;
}

export class WebhookInterest {
  private readonly byTenant = new Map<string, Entry>();
  private sub: Subscription | undefined;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly o: WebhookInterestOptions) {
    this.ttlMs = o.ttlMs ?? 30_000;
    this.now = o.now ?? Date.now;
  }

  start(): void {
    this.sub = this.o.bus.nc.subscribe(subjects.webhooksChangedAll, {
      callback: (_e, msg) => {
        this.byTenant.delete(msg.subject.slice(msg.subject.lastIndexOf('.') + 1));
      },
    });
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  /** Does a live webhook of the tenant subscribe to `event`? On doubt (database down): yes. */
  async wants(tenantId: string, event: string): Promise<boolean> {
    const now = this.now();
    let e = this.byTenant.get(tenantId);
    if (!e || now - e.at >= this.ttlMs) {
      e = {
        at: now,
        events: subscribedEvents(this.o.sql, tenantId).then((list) => new Set(list)),
      };
      this.byTenant.set(tenantId, e);
    }
    try {
      return (await e.events).has(event);
    } catch (err) {
      if (this.byTenant.get(tenantId) === e) this.byTenant.delete(tenantId);
      this.o.log.warn({ err, tenantId }, 'webhook subscriptions unreadable; storing the event');
      return true;
    }
  }

  /** Tell every node (this one included) that the tenant's webhooks changed. */
  announce(tenantId: string): void {
    this.byTenant.delete(tenantId);
    this.o.bus.nc.publish(subjects.webhooksChanged(tenantId));
  }
}
