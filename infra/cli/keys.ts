// `burrow keys create-admin|rotate`: tenant admin keys, and replacing an agent's key. Rotation tells
// running hub nodes to drop the old key at once (subjects.keyRevoked, subjects.agentChanged).
import type { Command } from 'commander';
import { issueAdminKey, rotateAgentKey } from '../db/index.js';
import { subjects } from '../../runtime/bus/index.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';
import { requireTenant } from './resolve.js';

export function registerKeyCommands(program: Command, ctx: CliContext): void {
  const keys = program.command('keys').description('issue and rotate API keys');

  keys
    .command('create-admin')
    .description("issue a tenant admin key (manages the tenant's agents); shown once")
    .requiredOption('--tenant <tenant>', 'tenant id or slug')
    .option('--json', 'print {"apiKey"} as JSON', false)
    .action(async (opts: { tenant: string; json: boolean }) => {
      const db = await ctx.db();
      const tenant = await requireTenant(db, opts.tenant);
      const { key } = await issueAdminKey(db, tenant.id);
      if (opts.json) printJson(ctx.io, { apiKey: key });
      else {
        ctx.io.out(`admin key for tenant ${tenant.slug} (${tenant.id}):`);
        ctx.io.out(`  ${key}`);
        ctx.io.out('store it now: it is shown only once');
      }
    });

  keys
    .command('rotate')
    .description("revoke an agent's keys and issue a new one; shown once")
    .requiredOption('--agent <agentId>', 'agent id')
    .option('--json', 'print {"apiKey"} as JSON', false)
    .action(async (opts: { agent: string; json: boolean }) => {
      if (ctx.remote) {
        const path = `/api/agents/${encodeURIComponent(opts.agent)}/keys`;
        const r = await ctx.remote.call<{ apiKey: string; revoked: number }>('POST', path);
        if (opts.json) return printJson(ctx.io, { apiKey: r.apiKey });
        ctx.io.out(`new key for agent ${opts.agent} (${r.revoked} old key(s) revoked):`);
        ctx.io.out(`  ${r.apiKey}`);
        ctx.io.out('store it now: it is shown only once');
        return;
      }
      const rotated = await rotateAgentKey(await ctx.db(), opts.agent);
      await ctx.notify([
        ...rotated.revokedKeyHashes.map((keyHash) => ({
          subject: subjects.keyRevoked,
          payload: { keyHash },
        })),
        { subject: subjects.agentChanged(opts.agent), payload: { agentId: opts.agent } },
      ]);
      if (opts.json) printJson(ctx.io, { apiKey: rotated.key });
      else {
        ctx.io.out(
          `new key for agent ${opts.agent} (${rotated.revokedKeyHashes.length} old key(s) revoked):`
        );
        ctx.io.out(`  ${rotated.key}`);
        ctx.io.out('store it now: it is shown only once');
      }
    });
}
