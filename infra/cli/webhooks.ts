// `burrow webhooks create|list|delete`: a tenant's account webhooks (decisions.md §5, §9). The
// signing secret is generated and printed once unless --secret gives one.
import type { Command } from 'commander';
import { createWebhook, deleteWebhook, listWebhooks, type Webhook } from '../db/index.js';
import { subjects } from '../../runtime/bus/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';
import { requireTenant } from './resolve.js';

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
    .requiredOption('--tenant <tenant>', 'tenant id or slug')
    .requiredOption('--url <url>', 'where the hub POSTs events')
    .requiredOption('--event <name>', 'a subscribed event (repeatable)', collect)
    .option('--secret <secret>', 'signing secret (default: generated)')
    .option('--json', 'print {"webhook","secret"?} as JSON', false)
    .action(
      async (opts: {
        tenant: string;
        url: string;
        event: string[];
        secret?: string;
        json: boolean;
      }) => {
        const db = await ctx.db();
        const tenant = await requireTenant(db, opts.tenant);
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
    .requiredOption('--tenant <tenant>', 'tenant id or slug')
    .option('--json', 'print a JSON array', false)
    .action(async (opts: { tenant: string; json: boolean }) => {
      const db = await ctx.db();
      const tenant = await requireTenant(db, opts.tenant);
      const all = await listWebhooks(db, tenant.id);
      if (opts.json) {
        printJson(ctx.io, all.map(view));
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
    .requiredOption('--tenant <tenant>', 'tenant id or slug')
    .requiredOption('--id <webhookId>', 'webhook id')
    .option('--json', 'print {"id","deleted"} as JSON', false)
    .action(async (opts: { tenant: string; id: string; json: boolean }) => {
      const db = await ctx.db();
      const tenant = await requireTenant(db, opts.tenant);
      if (!(await deleteWebhook(db, tenant.id, opts.id))) {
        throw new HubError('NOT_FOUND', `webhook ${opts.id} not found in ${tenant.slug}`);
      }
      await ctx.notify([{ subject: subjects.webhooksChanged(tenant.id), payload: {} }]);
      if (opts.json) printJson(ctx.io, { id: opts.id, deleted: true });
      else ctx.io.out(`deleted webhook ${opts.id}`);
    });
}
