// Commands that only exist over a hub's API (issue 25): `discover` (the public directory, as any
// client searches it), `usage` and `alerts` (a tenant admin's view). They use `burrow --url` and
// `--key`, or BURROW_URL and BURROW_API_KEY.
import { InvalidArgumentError, type Command } from 'commander';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';
import { remoteHub, type RemoteHub } from './remote.js';

interface Listed {
  id: string;
  name: string;
  category: string | null;
  avgRating: number;
  tenantSlug: string;
  description: string;
}

interface Alert {
  type: string;
  severity: string;
  message: string;
}

function hubOf(ctx: CliContext): RemoteHub {
  return (
    ctx.remote ??
    remoteHub({
      url: ctx.hub?.defaultUrl ?? 'http://127.0.0.1:8080',
      key: ctx.hub?.defaultKey,
      fetch: ctx.hub?.fetch,
      keyOptional: true,
    })
  );
}

function whole(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('not a whole number');
  return Number(value);
}

export function registerRemoteCommands(program: Command, ctx: CliContext): void {
  program
    .command('discover [words...]')
    .description("search the hub's directory (GET /api/discover/agents)")
    .option('--category <category>', 'only this category')
    .option('--tag <tag>', 'only agents with this tag')
    .option('--sort <order>', 'relevance, rating, popular or recent')
    .option('--limit <n>', 'how many (1-50)', whole)
    .option('--json', 'print the answer as JSON', false)
    .action(
      async (
        words: string[],
        opts: { category?: string; tag?: string; sort?: string; limit?: number; json: boolean }
      ) => {
        const r = await hubOf(ctx).call<{ agents: Listed[]; count: number }>(
          'GET',
          '/api/discover/agents',
          undefined,
          {
            q: words.length > 0 ? words.join(' ') : undefined,
            category: opts.category,
            tag: opts.tag,
            sort: opts.sort,
            limit: opts.limit,
          }
        );
        if (opts.json) return printJson(ctx.io, r);
        printTable(
          ctx.io,
          ['ID', 'NAME', 'CATEGORY', 'RATING', 'OWNER', 'DESCRIPTION'],
          r.agents.map((a) => [
            a.id,
            a.name,
            a.category ?? '',
            a.avgRating.toFixed(1),
            a.tenantSlug,
            a.description.length > 60 ? `${a.description.slice(0, 59)}…` : a.description,
          ])
        );
      }
    );

  program
    .command('usage')
    .description("the key's tenant's (or agent's) usage by day (GET /api/usage)")
    .option('--days <n>', 'how many days back', whole)
    .option('--json', 'print the answer as JSON', false)
    .action(async (opts: { days?: number; json: boolean }) => {
      const r = await hubOf(ctx).call<{ usage: Record<string, unknown>[] }>(
        'GET',
        '/api/usage',
        undefined,
        { days: opts.days }
      );
      if (opts.json) return printJson(ctx.io, r);
      const cols = Object.keys(r.usage[0] ?? {});
      printTable(
        ctx.io,
        cols.map((c) => c.toUpperCase()),
        r.usage.map((u) => cols.map((c) => JSON.stringify(u[c] ?? '').replace(/^"|"$/g, '')))
      );
    });

  program
    .command('alerts')
    .description("the tenant's current alerts (GET /api/alerts, admin key)")
    .option('--json', 'print the answer as JSON', false)
    .action(async (opts: { json: boolean }) => {
      const r = await hubOf(ctx).call<{ alerts: Alert[] }>('GET', '/api/alerts');
      if (opts.json) return printJson(ctx.io, r);
      if (r.alerts.length === 0) return ctx.io.out('no alerts');
      for (const a of r.alerts) ctx.io.out(`${a.severity} ${a.type}: ${a.message}`);
    });
}
