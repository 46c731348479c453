// Account webhooks and their durable delivery schedule (interface-spec "Events", decisions.md §9).
// Times come from the caller (an injectable clock), never from the database's now(), so tests can
// drive the 1 s / 5 s / 30 s retry schedule without sleeping.
import { randomBytes, randomUUID } from 'node:crypto';
import { HUB_EVENT_NAMES } from '../../../runtime/bus/index.js';
import { InvalidParamsError } from '../../../runtime/errors/index.js';
import { tenantNotFound } from './not-found.js';
import { firstRow, isForeignKeyViolation, type Queryable } from './sql.js';
import { httpUrl } from './validate.js';

export type WebhookStatus = 'active' | 'failing';

export interface Webhook {
  readonly id: string;
  readonly tenantId: string;
  readonly url: string;
  readonly events: string[];
  readonly status: WebhookStatus;
  readonly lastError: string | null;
  readonly createdAt: Date;
}

export interface CreatedWebhook {
  readonly webhook: Webhook;
  /** The signing secret: shown once when the hub generated it. */
  readonly secret: string;
}

const COLUMNS = 'id, tenant_id, url, events, status, last_error, created_at';

/** The events a webhook subscribes to, deduplicated; INVALID_PARAMS naming `events` otherwise. */
export function webhookEvents(value: unknown): string[] {
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((e) => (HUB_EVENT_NAMES as readonly unknown[]).includes(e))
  ) {
    throw new InvalidParamsError(
      'events',
      `must be a non-empty array of ${HUB_EVENT_NAMES.join(', ')}`
    );
  }
  return [...new Set(value as string[])];
}

/** Register a webhook; INVALID_PARAMS naming `url`, `events` or `secret` on bad input. */
export async function createWebhook(
  sql: Queryable,
  input: { tenantId: string; url: unknown; events: unknown; secret?: unknown }
): Promise<CreatedWebhook> {
  const url = httpUrl('url', input.url);
  const events = webhookEvents(input.events);
  let secret: string;
  if (input.secret === undefined || input.secret === null) {
    secret = `whsec_${randomBytes(32).toString('base64url')}`;
  } else if (
    typeof input.secret !== 'string' ||
    input.secret.length < 16 ||
    input.secret.length > 256
  ) {
    throw new InvalidParamsError('secret', 'must be a string of 16 to 256 characters');
  } else secret = input.secret;
  try {
    const rows = await sql.unsafe<Webhook[]>(
      `insert into webhooks (id, tenant_id, url, events, secret) values ($1, $2, $3, $4, $5)
       returning ${COLUMNS}`,
      [`wh-${randomBytes(6).toString('hex')}`, input.tenantId, url, events, secret]
    );
    return { webhook: firstRow(rows, 'insert into webhooks'), secret };
  } catch (err) {
    if (isForeignKeyViolation(err, 'webhooks_tenant_id_fkey')) throw tenantNotFound(input.tenantId);
    throw err;
  }
}

export async function listWebhooks(sql: Queryable, tenantId: string): Promise<Webhook[]> {
  return sql.unsafe<Webhook[]>(
    `select ${COLUMNS} from webhooks where tenant_id = $1 and deleted_at is null order by created_at, id`,
    [tenantId]
  );
}

/** The events any live webhook of the tenant is subscribed to. */
export async function subscribedEvents(sql: Queryable, tenantId: string): Promise<string[]> {
  const rows = await sql.unsafe<Array<{ event: string }>>(
    `select distinct unnest(events) as event from webhooks
      where tenant_id = $1 and deleted_at is null`,
    [tenantId]
  );
  return rows.map((r) => r.event);
}

/** The tenant's live webhook with its secret, or null. */
export async function getWebhook(
  sql: Queryable,
  tenantId: string,
  id: string
): Promise<(Webhook & { secret: string }) | null> {
  const [row] = await sql.unsafe<(Webhook & { secret: string })[]>(
    `select ${COLUMNS}, secret from webhooks where id = $1 and tenant_id = $2 and deleted_at is null`,
    [id, tenantId]
  );
  return row ?? null;
}

/** Delete (soft) a webhook and drop its pending deliveries; false when there was none. */
export async function deleteWebhook(
  sql: Queryable,
  tenantId: string,
  id: string
): Promise<boolean> {
  const rows = await sql`
    update webhooks set deleted_at = now()
    where id = ${id} and tenant_id = ${tenantId} and deleted_at is null returning id`;
  if (rows.length === 0) return false;
  await sql`update webhook_deliveries set status = 'failed', last_error = 'webhook deleted'
            where webhook_id = ${id} and status = 'pending'`;
  return true;
}

/**
 * One delivery per live webhook of the tenant subscribed to `event`; idempotent per event id (a
 * redelivered event adds nothing). A failing webhook gets one attempt instead of four.
 */
export async function enqueueDeliveries(
  sql: Queryable,
  e: {
    tenantId: string;
    eventId: string;
    event: string;
    body: string;
    now: Date;
    maxAttempts: number;
  }
): Promise<number> {
  const hooks = await sql<{ id: string; status: WebhookStatus }[]>`
    select id, status from webhooks
    where tenant_id = ${e.tenantId} and deleted_at is null and ${e.event} = any(events)`;
  let added = 0;
  for (const h of hooks) {
    const rows = await sql`
      insert into webhook_deliveries (id, webhook_id, event_id, event, body, max_attempts, next_at)
      values (${randomUUID()}, ${h.id}, ${e.eventId}, ${e.event}, ${e.body},
              ${h.status === 'failing' ? 1 : e.maxAttempts}, ${e.now})
      on conflict (webhook_id, event_id) do nothing returning id`;
    added += rows.length;
  }
  return added;
}

export interface DueDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly url: string;
  readonly secret: string;
  readonly event: string;
  readonly body: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly maxAttempts: number;
}

export interface ClaimDeliveriesOptions {
  readonly now: Date;
  /** The claimed rows' next_at moves here: no node takes them again before. */
  readonly leaseUntil: Date;
  /** At most this many rows in all. */
  readonly limit: number;
  /** At most this many rows of one webhook in flight on the claiming node. */
  readonly perDestination: number;
  /** The claiming node's deliveries in flight, by webhook id (their slots are taken). */
  readonly inFlight: ReadonlyMap<string, number>;
}

/**
 * Claim due deliveries, per destination: for each webhook with pending rows, its earliest due
 * rows up to the slots the node has free for it, so a receiver that hangs never takes another's
 * turn. Their next_at moves to `leaseUntil`, so no other node takes them meanwhile, and a node
 * that dies mid-attempt leaves them due again once the lease ends. Webhooks with pending rows are
 * found by a skip scan of the destination index (one probe per webhook, not per row).
 */
export async function claimDueDeliveries(
  sql: Queryable,
  o: ClaimDeliveriesOptions
): Promise<DueDelivery[]> {
  const busyIds = [...o.inFlight.keys()];
  const busyCounts = busyIds.map((id) => o.inFlight.get(id) ?? 0);
  return sql<DueDelivery[]>`
    with recursive dest(webhook_id) as (
      (select webhook_id from webhook_deliveries where status = 'pending'
        order by webhook_id limit 1)
      union all
      select (select d.webhook_id from webhook_deliveries d
               where d.status = 'pending' and d.webhook_id > dest.webhook_id
               order by d.webhook_id limit 1)
      from dest where dest.webhook_id is not null
    ), free as (
      select dest.webhook_id, ${o.perDestination}::int - coalesce(b.used, 0) as slots
      from dest left join unnest(${busyIds}::text[], ${busyCounts}::int[]) as b(webhook_id, used)
        on b.webhook_id = dest.webhook_id
      where dest.webhook_id is not null
    ), due as (
      select c.id, c.next_at from free f cross join lateral (
        select d.id, d.next_at from webhook_deliveries d
        where d.webhook_id = f.webhook_id and d.status = 'pending' and d.next_at <= ${o.now}
        order by d.next_at limit greatest(f.slots, 0)
        for update skip locked) c
      order by c.next_at limit ${o.limit})
    update webhook_deliveries d set next_at = ${o.leaseUntil}, updated_at = ${o.now}
    from due, webhooks w
    where d.id = due.id and w.id = d.webhook_id
    returning d.id, d.webhook_id, w.url, w.secret, d.event, d.body, d.attempts, d.max_attempts`;
}

/**
 * Record one attempt. Success: delivered, and the webhook is active again. Failure with attempts
 * left: due again at `retryAt`. Failure of the last attempt: failed, and the webhook `failing`.
 */
export async function recordAttempt(
  sql: Queryable,
  d: { id: string; webhookId: string },
  result: { ok: true } | { ok: false; error: string; retryAt: Date | null },
  now: Date
): Promise<void> {
  // The delivery's row and its webhook's status change in one statement: a reader (GET
  // /api/webhooks) or a crash never sees one without the other.
  if (result.ok) {
    await sql`with delivery as (
                update webhook_deliveries set status = 'delivered', attempts = attempts + 1,
                last_error = null, updated_at = ${now} where id = ${d.id})
              update webhooks set status = 'active', last_error = null where id = ${d.webhookId}`;
    return;
  }
  if (result.retryAt !== null) {
    await sql`update webhook_deliveries set attempts = attempts + 1, next_at = ${result.retryAt},
              last_error = ${result.error}, updated_at = ${now} where id = ${d.id}`;
    return;
  }
  await sql`with delivery as (
              update webhook_deliveries set status = 'failed', attempts = attempts + 1,
              last_error = ${result.error}, updated_at = ${now} where id = ${d.id})
            update webhooks set status = 'failing', last_error = ${result.error}
            where id = ${d.webhookId}`;
}

/** After a direct (test) delivery: success makes the webhook active again; failure is noted. */
export async function noteWebhookResult(
  sql: Queryable,
  id: string,
  result: { ok: true } | { ok: false; error: string }
): Promise<void> {
  if (result.ok) {
    await sql`update webhooks set status = 'active', last_error = null where id = ${id}`;
  } else {
    await sql`update webhooks set last_error = ${result.error} where id = ${id}`;
  }
}
