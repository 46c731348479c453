// `burrow tenants create|list`: organisations that own agents (decisions.md §5).
import type { Command } from 'commander';
import { createTenant, listTenants } from '../db/index.js';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';

export function registerTenantCommands(program: Command, ctx: CliContext): void {
  const tenants = program.command('tenants').description('create and list tenants (organisations)');

  tenants
    .command('create')
    .description('create a tenant; its slug is derived from the name')
    .requiredOption('--name <name>', 'organisation name (unique)')
    .option('--verified', 'mark the organisation as verified', false)
    .option('--json', 'print {"tenantId","slug"} as JSON', false)
    .action(async (opts: { name: string; verified: boolean; json: boolean }) => {
      const t = await createTenant(await ctx.db(), { name: opts.name, verified: opts.verified });
      if (opts.json) printJson(ctx.io, { tenantId: t.id, slug: t.slug });
      else ctx.io.out(`created tenant "${t.name}": id ${t.id}, slug ${t.slug}`);
    });

  tenants
    .command('list')
    .description('list every tenant')
    .option('--json', 'print a JSON array', false)
    .action(async (opts: { json: boolean }) => {
      const all = await listTenants(await ctx.db());
      if (opts.json) {
        printJson(
          ctx.io,
          all.map((t) => ({
            tenantId: t.id,
            name: t.name,
            slug: t.slug,
            verified: t.verified,
            createdAt: t.createdAt.toISOString(),
          }))
        );
        return;
      }
      printTable(
        ctx.io,
        ['ID', 'SLUG', 'VERIFIED', 'NAME'],
        all.map((t) => [t.id, t.slug, t.verified ? 'yes' : 'no', t.name])
      );
    });
}
