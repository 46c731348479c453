// Account webhooks of the admin key's tenant (decisions.md §5, §9): list (with `status`, `failing`
// after a delivery exhausted its retries), create (secret generated and shown once unless given),
// change its events, delete, send a test event, and read its recent deliveries.
import { randomUUID } from 'node:crypto';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  setWebhookEvents,
  type WebhookDelivery,
  noteWebhookResult,
  type Queryable,
  type Webhook,
} from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { OutboundGuard } from '../../runtime/net/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, jsonReply, parseBody, parseQuery } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { postWebhook } from '../webhooks/index.js';
import { requireAdmin } from './agents-admin-routes.js';
import { assertCallableUrl } from './callable-url.js';
import { manageDocs as docs } from './route-docs.js';

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

function deliveryView(x: WebhookDelivery) {
  return {
    id: x.id,
    event: x.event,
    status: x.status,
    attempts: x.attempts,
    maxAttempts: x.maxAttempts,
    lastError: x.lastError,
    nextAt: x.nextAt.toISOString(),
    createdAt: x.createdAt.toISOString(),
    updatedAt: x.updatedAt.toISOString(),
  };
}

const DELIVERIES_LIMIT = 50;

export function webhooksRoutes(d: WebhooksRoutesDeps): RouteRegistrar {
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/webhooks',
      doc: docs.listWebhooks,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const hooks = await listWebhooks(d.sql, tenantId);
        return jsonReply(200, { webhooks: hooks.map(webhookView) });
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/webhooks',
      doc: docs.createWebhook,
      body: true,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const body = parseBody(docs.createWebhook.body, await req.body);
        assertCallableUrl(d.guard, body.url);
        const created = await createWebhook(d.sql, { tenantId, ...body });
        d.changed?.(tenantId);
        return jsonReply(201, {
          webhook: webhookView(created.webhook),
          // Shown once when the hub generated it; a caller-given secret is not echoed.
          ...(body.secret === undefined || body.secret === null ? { secret: created.secret } : {}),
        });
      },
    });
    table.add({
      method: 'PATCH',
      pattern: '/api/webhooks/:id',
      doc: docs.patchWebhook,
      body: true,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const id = decodeParam(req.params.id ?? '');
        const body = parseBody(docs.patchWebhook.body, await req.body);
        const hook = await setWebhookEvents(d.sql, tenantId, id, body.events);
        if (hook === null) throw new HubError('NOT_FOUND', `No webhook ${id}`);
        d.changed?.(tenantId);
        return jsonReply(200, { webhook: webhookView(hook) });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/webhooks/:id/deliveries',
      doc: docs.webhookDeliveries,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const id = decodeParam(req.params.id ?? '');
        parseQuery(docs.webhookDeliveries.query, req.query);
        const list = await listWebhookDeliveries(d.sql, tenantId, id, DELIVERIES_LIMIT);
        if (list === null) throw new HubError('NOT_FOUND', `No webhook ${id}`);
        return jsonReply(200, { deliveries: list.map(deliveryView) });
      },
    });
    table.add({
      method: 'DELETE',
      pattern: '/api/webhooks/:id',
      doc: docs.deleteWebhook,
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
      doc: docs.testWebhook,
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
