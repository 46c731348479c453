// What a tenant's administrator reads and changes on a webhook besides create and delete: its
// recent deliveries (the durable retry schedule, webhook_deliveries) and the events it takes.
import { firstRow, type Queryable } from './sql.js';
import { webhookEvents, type Webhook } from './webhooks.repo.js';

export interface WebhookDelivery {
  readonly id: string;
  readonly event: string;
  /** pending (a retry is due at nextAt), delivered, or failed (retries exhausted). */
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly lastError: string | null;
  readonly nextAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The webhook's newest deliveries, newest first; null when the tenant has no such webhook. */
export async function listWebhookDeliveries(
  sql: Queryable,
  tenantId: string,
  webhookId: string,
  limit: number
): Promise<WebhookDelivery[] | null> {
  const [hook] = await sql`
    select id from webhooks where id = ${webhookId} and tenant_id = ${tenantId}
      and deleted_at is null`;
  if (hook === undefined) return null;
  return sql<WebhookDelivery[]>`
    select id, event, status, attempts, max_attempts, last_error, next_at, created_at, updated_at
    from webhook_deliveries where webhook_id = ${webhookId}
    order by created_at desc limit ${limit}`;
}

/** Replace the events a webhook takes; null when the tenant has no such webhook. */
export async function setWebhookEvents(
  sql: Queryable,
  tenantId: string,
  webhookId: string,
  events: unknown
): Promise<Webhook | null> {
  const list = webhookEvents(events);
  const rows = await sql<Webhook[]>`
    update webhooks set events = ${list} where id = ${webhookId} and tenant_id = ${tenantId}
      and deleted_at is null
    returning id, tenant_id, url, events, status, last_error, created_at`;
  return rows.length === 0 ? null : firstRow(rows, 'update webhooks');
}
