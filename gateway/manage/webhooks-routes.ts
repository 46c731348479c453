// Account webhooks of the admin key's tenant (decisions.md §5, §9): list (with `status`, `failing`
// after a delivery exhausted its retries), create (secret generated and shown once unless given),
// delete, and send a test event.
import { randomUUID } from 'node:crypto';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  noteWebhookResult,
  type Queryable,
  type Webhook,
} from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { OutboundGuard } from '../../runtime/net/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, jsonReply } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { postWebhook } from '../webhooks/index.js';
import { requireAdmin } from './agents-admin-routes.js';
import { assertCallableUrl } from './callable-url.js';
import { readJsonObject } from './json-body.js';

export interface WebhooksRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  /** Checks the URL at creation, and the test delivery goes through it like the dispatcher's. */
  readonly guard: OutboundGuard;
  /** Told of every change, so each node stores the events the tenant now subscribes to. */
  readonly changed?: (tenantId: string) => void;
}

export function webhookView(w: Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    status: w.status,
    lastError: w.lastError,
    createdAt: w.createdAt.toISOString(),
  };
}

export function webhooksRoutes(d: WebhooksRoutesDeps): RouteRegistrar {
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/webhooks',
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const hooks = await listWebhooks(d.sql, tenantId);
        return jsonReply(200, { webhooks: hooks.map(webhookView) });
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/webhooks',
      body: true,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const body = readJsonObject(await req.body, ['url', 'events', 'secret']);
        assertCallableUrl(d.guard, body.url);
        const created = await createWebhook(d.sql, {
          tenantId,
          ...body,
          url: body.url,
          events: body.events,
        });
        d.changed?.(tenantId);
        return jsonReply(201, {
          webhook: webhookView(created.webhook),
          // Shown once when the hub generated it; a caller-given secret is not echoed.
          ...(body.secret === undefined ? { secret: created.secret } : {}),
        });
      },
    });
    table.add({
      method: 'DELETE',
      pattern: '/api/webhooks/:id',
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const id = decodeParam(req.params.id ?? '');
        if (!(await deleteWebhook(d.sql, tenantId, id))) {
          throw new HubError('NOT_FOUND', `No webhook ${id}`);
        }
        d.changed?.(tenantId);
        return jsonReply(200, { id, deleted: true });
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/webhooks/:id/test',
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const id = decodeParam(req.params.id ?? '');
        const hook = await getWebhook(d.sql, tenantId, id);
        if (hook === null) throw new HubError('NOT_FOUND', `No webhook ${id}`);
        const deliveryId = randomUUID();
        const body = JSON.stringify({
          event: 'webhook.test',
          timestamp: new Date().toISOString(),
          data: { webhookId: hook.id },
        });
        // One attempt, answered here: the caller sees at once whether the receiver works.
        const result = await postWebhook(
          { id: deliveryId, url: hook.url, secret: hook.secret, event: 'webhook.test', body },
          Date.now(),
          d.guard
        );
        await noteWebhookResult(d.sql, hook.id, result);
        const after = await getWebhook(d.sql, tenantId, id);
        return jsonReply(200, {
          delivered: result.ok,
          deliveryId,
          ...(result.ok ? {} : { error: result.error }),
          status: after?.status ?? hook.status,
        });
      },
    });
  };
}
