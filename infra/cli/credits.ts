// `burrow credits show|purchase|threshold` and `burrow tenants rate-limit`: a tenant's credits in
// integer minor units (cents) and its per-key request limit. Credit events go to the database's
// event outbox; running hub nodes publish them to the tenant's webhooks.
import { InvalidArgumentError, type Command } from 'commander';
import {
  getCreditAccount,
  listLedger,
  purchaseCredits,
  setLowBalanceThreshold,
  setTenantRateLimit,
  type CreditAccount,
} from '../db/index.js';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';
import { refuseTenantWithRemote, tenantRequired } from './remote.js';
import { requireTenant } from './resolve.js';

type AccountView = ReturnType<typeof view>;
interface LedgerView {
  id: number | string;
  kind: string;
  amount: number;
  balanceAfter: number;
  createdAt: string;
  reason: string;
}

function view(a: CreditAccount) {
  return {
    tenantId: a.tenantId,
    balance: a.balance,
    currency: a.currency,
    lowBalanceThreshold: a.lowBalanceThreshold,
    belowThreshold: a.belowThreshold,
  };
}

function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('not a whole number of minor units');
  return Number(value);
}

export function registerCreditCommands(program: Command, ctx: CliContext): void {
  const credits = program
    .command('credits')
    .description("a tenant's credits, in minor units (cents)");

  credits
    .command('show')
    .description('balance, threshold and the latest ledger entries')
    .option('--tenant <tenant>', 'tenant id or slug (not with burrow --url)')
    .option('--json', 'print the account and its ledger as JSON', false)
    .action(async (opts: { tenant?: string; json: boolean }) => {
      let shown: AccountView & { ledger: LedgerView[] };
      if (ctx.remote) {
        refuseTenantWithRemote(opts.tenant);
        shown = await ctx.remote.call('GET', '/api/credits');
      } else {
        const db = await ctx.db();
        const tenant = await requireTenant(db, tenantRequired(opts.tenant));
        const account = await getCreditAccount(db, tenant.id);
        const ledger = await listLedger(db, tenant.id);
        shown = {
          ...view(account),
          ledger: ledger.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
        };
      }
      if (opts.json) return printJson(ctx.io, shown);
      const account = shown;
      const ledger = shown.ledger;
      ctx.io.out(`balance ${account.balance} ${account.currency} minor units`);
      ctx.io.out(`low-balance threshold ${account.lowBalanceThreshold ?? '(none)'}`);
      printTable(
        ctx.io,
        ['ID', 'KIND', 'AMOUNT', 'BALANCE', 'WHEN', 'REASON'],
        ledger.map((e) => [
          String(e.id),
          e.kind,
          String(e.amount),
          String(e.balanceAfter),
          e.createdAt,
          e.reason,
        ])
      );
    });

  credits
    .command('purchase')
    .description('add credits (emits credits.purchased)')
    .option('--tenant <tenant>', 'tenant id or slug (not with burrow --url)')
    .requiredOption('--amount <minor>', 'amount in minor units (cents), a whole number', integer)
    .option('--reason <text>', 'a note for the ledger', '')
    .option('--json', 'print the account as JSON', false)
    .action(async (opts: { tenant?: string; amount: number; reason: string; json: boolean }) => {
      if (ctx.remote) {
        refuseTenantWithRemote(opts.tenant);
        const body = { amount: opts.amount, reason: opts.reason };
        const a = await ctx.remote.call<AccountView>('POST', '/api/credits/purchase', body);
        if (opts.json) printJson(ctx.io, a);
        else ctx.io.out(`balance: ${a.balance} ${a.currency} minor units`);
        return;
      }
      const db = await ctx.db();
      const tenant = await requireTenant(db, tenantRequired(opts.tenant));
      const { account } = await purchaseCredits(db, tenant.id, opts.amount, opts.reason);
      if (opts.json) printJson(ctx.io, view(account));
      else
        ctx.io.out(`balance of ${tenant.slug}: ${account.balance} ${account.currency} minor units`);
    });

  credits
    .command('threshold')
    .description('set the low-balance threshold (emits credits.low_balance once per crossing)')
    .option('--tenant <tenant>', 'tenant id or slug (not with burrow --url)')
    .option('--amount <minor>', 'threshold in minor units (cents)', integer)
    .option('--clear', 'remove the threshold', false)
    .option('--json', 'print the account as JSON', false)
    .action(async (opts: { tenant?: string; amount?: number; clear: boolean; json: boolean }) => {
      if ((opts.amount === undefined) === !opts.clear) {
        throw new InvalidArgumentError('give exactly one of --amount and --clear');
      }
      if (ctx.remote) {
        refuseTenantWithRemote(opts.tenant);
        const body = { threshold: opts.amount ?? null };
        const a = await ctx.remote.call<AccountView>('PUT', '/api/credits/threshold', body);
        if (opts.json) printJson(ctx.io, a);
        else ctx.io.out(`threshold: ${a.lowBalanceThreshold ?? '(none)'}`);
        return;
      }
      const db = await ctx.db();
      const tenant = await requireTenant(db, tenantRequired(opts.tenant));
      const { account } = await setLowBalanceThreshold(db, tenant.id, opts.amount ?? null);
      if (opts.json) printJson(ctx.io, view(account));
      else ctx.io.out(`threshold of ${tenant.slug}: ${account.lowBalanceThreshold ?? '(none)'}`);
    });

  program
    .command('rate-limit')
    .description("set a tenant's requests per minute per API key (default RATE_LIMIT_PER_MINUTE)")
    .requiredOption('--tenant <tenant>', 'tenant id or slug')
    .option('--per-minute <n>', 'requests per minute per key (1-1000000)', integer)
    .option('--default', 'use the hub default again', false)
    .option('--json', 'print {"tenantId","perMinute"} as JSON', false)
    .action(
      async (opts: { tenant: string; perMinute?: number; default: boolean; json: boolean }) => {
        if ((opts.perMinute === undefined) === !opts.default) {
          throw new InvalidArgumentError('give exactly one of --per-minute and --default');
        }
        const n = opts.perMinute ?? null;
        if (n !== null && (n < 1 || n > 1_000_000)) {
          throw new InvalidArgumentError('--per-minute must be from 1 to 1000000');
        }
        const db = await ctx.db();
        const tenant = await requireTenant(db, opts.tenant);
        await setTenantRateLimit(db, tenant.id, n);
        if (opts.json) printJson(ctx.io, { tenantId: tenant.id, perMinute: n });
        else ctx.io.out(`rate limit of ${tenant.slug}: ${n ?? 'default'} per minute per key`);
      }
    );
}
