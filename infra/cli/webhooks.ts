// `burrow webhooks create|list|delete`: a tenant's account webhooks (decisions.md §5, §9). The
// signing secret is generated and printed once unless --secret gives one.
import type { Command } from 'commander';
import { createWebhook, deleteWebhook, listWebhooks, type Webhook } from '../db/index.js';
import { subjects } from '../../runtime/bus/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';
import { refuseTenantWithRemote, tenantRequired } from './remote.js';
import { requireTenant } from './resolve.js';

type WebhookView = ReturnType<typeof view>;

function view(w: Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    status: w.status,
    lastError: w.lastError,
    createdAt: w.createdAt.toISOString(),
  };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function registerWebhookCommands(program: Command, ctx: CliContext): void {
  const webhooks = program.command('webhooks').description("a tenant's account webhooks");

  webhooks
    .command('create')
    .description('register a webhook; its signing secret is shown once')
    .option('--tenant <tenant>', 'tenant id or slug (not with burrow --url)')
    .requiredOption('--url <url>', 'where the hub POSTs events')
    .requiredOption('--event <name>', 'a subscribed event (repeatable)', collect)
    .option('--secret <secret>', 'signing secret (default: generated)')
    .option('--json', 'print {"webhook","secret"?} as JSON', false)
    .action(
      async (opts: {
        tenant?: string;
        url: string;
        event: string[];
        secret?: string;
        json: boolean;
      }) => {
        if (ctx.remote) {
          refuseTenantWithRemote(opts.tenant);
          const r = await ctx.remote.call<{
            webhook: { id: string; url: string };
            secret?: string;
          }>('POST', '/api/webhooks', {
            url: opts.url,
            events: opts.event,
            ...(opts.secret ? { secret: opts.secret } : {}),
          });
          if (opts.json) return printJson(ctx.io, r);
          ctx.io.out(`created webhook ${r.webhook.id} → ${r.webhook.url}`);
          if (r.secret !== undefined) {
            ctx.io.out(`  signing secret: ${r.secret}`);
            ctx.io.out('store it now: it is shown only once');
          }
          return;
        }
        const db = await ctx.db();
        const tenant = await requireTenant(db, tenantRequired(opts.tenant));
        const { webhook, secret } = await createWebhook(db, {
          tenantId: tenant.id,
          url: opts.url,
          events: opts.event,
          ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
        });
        await ctx.notify([{ subject: subjects.webhooksChanged(tenant.id), payload: {} }]);
        const shown = opts.secret === undefined ? { secret } : {};
        if (opts.json) {
          printJson(ctx.io, { webhook: view(webhook), ...shown });
          return;
        }
        ctx.io.out(`created webhook ${webhook.id} → ${webhook.url}`);
        if (opts.secret === undefined) {
          ctx.io.out(`  signing secret: ${secret}`);
          ctx.io.out('store it now: it is shown only once');
        }
      }
    );

  webhooks
    .command('list')
    .description("list a tenant's webhooks with their status (active or failing)")
    .option('--tenant <tenant>', 'tenant id or slug (not with burrow --url)')
    .option('--json', 'print a JSON array', false)
    .action(async (opts: { tenant?: string; json: boolean }) => {
      let all: WebhookView[];
      if (ctx.remote) {
        refuseTenantWithRemote(opts.tenant);
        all = (await ctx.remote.call<{ webhooks: WebhookView[] }>('GET', '/api/webhooks')).webhooks;
      } else {
        const db = await ctx.db();
        const tenant = await requireTenant(db, tenantRequired(opts.tenant));
        all = (await listWebhooks(db, tenant.id)).map(view);
      }
      if (opts.json) {
        printJson(ctx.io, all);
        return;
      }
      printTable(
        ctx.io,
        ['ID', 'STATUS', 'URL', 'EVENTS'],
        all.map((w) => [w.id, w.status, w.url, w.events.join(',')])
      );
    });

  webhooks
    .command('delete')
    .description('delete a webhook (its pending deliveries are dropped)')
    .option('--tenant <tenant>', 'tenant id or slug (not with burrow --url)')
    .requiredOption('--id <webhookId>', 'webhook id')
    .option('--json', 'print {"id","deleted"} as JSON', false)
    .action(async (opts: { tenant?: string; id: string; json: boolean }) => {
      if (ctx.remote) {
        refuseTenantWithRemote(opts.tenant);
        await ctx.remote.call('DELETE', `/api/webhooks/${encodeURIComponent(opts.id)}`);
        if (opts.json) printJson(ctx.io, { id: opts.id, deleted: true });
        else ctx.io.out(`deleted webhook ${opts.id}`);
        return;
      }
      const db = await ctx.db();
      const tenant = await requireTenant(db, tenantRequired(opts.tenant));
      if (!(await deleteWebhook(db, tenant.id, opts.id))) {
        throw new HubError('NOT_FOUND', `webhook ${opts.id} not found in ${tenant.slug}`);
      }
      await ctx.notify([{ subject: subjects.webhooksChanged(tenant.id), payload: {} }]);
      if (opts.json) printJson(ctx.io, { id: opts.id, deleted: true });
      else ctx.io.out(`deleted webhook ${opts.id}`);
    });
}
