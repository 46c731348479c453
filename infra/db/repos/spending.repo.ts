// Spending budgets (issue 28): daily and monthly limits in credits (ledger minor units) for a whole
// tenant or one agent. What was spent per budget key and period lives in spending_totals, written
// by the debit's own transaction (credits.repo), so a check never sums the ledger. Periods are UTC
// calendar days and months.
import { randomUUID } from 'node:crypto';
import { HubError, InvalidParamsError } from '../../../runtime/errors/index.js';
import { agentNotFound } from './not-found.js';
import type { Queryable } from './sql.js';

export const BudgetPeriods = ['daily', 'monthly'] as const;
export type BudgetPeriod = (typeof BudgetPeriods)[number];
/** Shares of a limit announced once each per period (a `spending` alert and webhook event). */
export const SPENDING_LEVELS = [80, 100] as const;

export interface Budget {
  /** null: the tenant-wide budget. */
  readonly agentId: string | null;
  readonly period: BudgetPeriod;
  readonly limit: number;
  /** Spent in the current period. */
  readonly spent: number;
  /** First day of the current period, YYYY-MM-DD (UTC). */
  readonly periodStart: string;
  /** When the current period ends (and `spent` starts again from 0). */
  readonly resetsAt: Date;
}

interface BudgetRow {
  agentId: string;
  period: BudgetPeriod;
  limit: string;
  spent: string;
  periodStart: string;
  resetsAt: Date;
}

// The current period's first day and end, computed by PostgreSQL from one clock (now()).
const PERIOD_START = `(case b.period when 'daily' then (now() at time zone 'UTC')::date
  else date_trunc('month', now() at time zone 'UTC')::date end)`;
const PERIOD_END = `((${PERIOD_START} + case b.period when 'daily' then interval '1 day'
  else interval '1 month' end) at time zone 'UTC')`;

function toBudget(r: BudgetRow): Budget {
  return {
    agentId: r.agentId === '' ? null : r.agentId,
    period: r.period,
    limit: Number(r.limit),
    spent: Number(r.spent),
    periodStart: r.periodStart,
    resetsAt: r.resetsAt,
  };
}

/** The tenant's budgets with what their current period spent; `exhaustedOnly`: spent ≥ limit. */
export async function listBudgets(
  sql: Queryable,
  tenantId: string,
  opts: { exhaustedOnly?: boolean } = {}
): Promise<Budget[]> {
  const rows = await sql.unsafe<BudgetRow[]>(
    `select b.agent_id, b.period, b.limit_credits::text as limit,
       coalesce(t.spent, 0)::text as spent, ${PERIOD_START}::text as period_start,
       ${PERIOD_END} as resets_at
     from spending_budgets b
     left join spending_totals t on t.tenant_id = b.tenant_id and t.agent_id = b.agent_id
       and t.period = b.period and t.period_start = ${PERIOD_START}
     where b.tenant_id = $1 ${opts.exhaustedOnly ? 'and coalesce(t.spent, 0) >= b.limit_credits' : ''}
     order by b.agent_id, b.period`,
    [tenantId],
    { prepare: true }
  );
  return rows.map(toBudget);
}

/**
 * Set (limit null: remove) a budget of the tenant, or of one of its live agents. AGENT_NOT_FOUND
 * for an agent the tenant does not have; INVALID_PARAMS naming `period` or `limit`.
 */
export async function setBudget(
  sql: Queryable,
  tenantId: string,
  input: { agentId: string | null; period: unknown; limit: unknown }
): Promise<void> {
  const period = BudgetPeriods.find((p) => p === input.period);
  if (period === undefined) {
    throw new InvalidParamsError('period', 'must be "daily" or "monthly"');
  }
  const limit = input.limit;
  if (
    limit !== null &&
    (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1e12)
  ) {
    throw new InvalidParamsError(
      'limit',
      'must be an integer number of credits (minor units) from 1 to 10^12, or null to remove it'
    );
  }
  if (input.agentId !== null) {
    const [a] = await sql`select 1 from agents
      where id = ${input.agentId} and tenant_id = ${tenantId} and deleted_at is null`;
    if (!a) throw agentNotFound(input.agentId);
  }
  const agentKey = input.agentId ?? '';
  if (limit === null) {
    await sql`delete from spending_budgets
      where tenant_id = ${tenantId} and agent_id = ${agentKey} and period = ${period}`;
    return;
  }
  await sql`insert into spending_budgets (tenant_id, agent_id, period, limit_credits)
    values (${tenantId}, ${agentKey}, ${period}, ${limit})
    on conflict (tenant_id, agent_id, period)
    do update set limit_credits = excluded.limit_credits, updated_at = now()`;
}

/** The error of a spend (or send) that a budget refuses; `data.budget` names the budget. */
export function spendingLimitError(b: Budget, amount: number): HubError {
  const who = b.agentId === null ? 'tenant' : `agent ${b.agentId}`;
  return new HubError(
    'SPENDING_LIMIT_EXCEEDED',
    `the ${b.period} spending budget of the ${who} (${b.limit} credits) is ` +
      `${b.spent >= b.limit ? 'used up' : `at ${b.spent}, and ${amount} more would exceed it`}`,
    {
      data: {
        budget: {
          scope: b.agentId === null ? 'tenant' : 'agent',
          agentId: b.agentId,
          period: b.period,
          limit: b.limit,
          spent: b.spent,
          resetsAt: b.resetsAt.toISOString(),
        },
      },
    }
  );
}

/** An outbox row a spend wrote (credits.repo inserts it with the debit). */
export interface SpendingEvent {
  readonly id: string;
  readonly tenantId: string;
  readonly event: 'spending.threshold';
  readonly data: Record<string, unknown>;
}

/**
 * Within the debit's transaction: refuse a spend of `amount` that would take any budget of the
 * tenant or of `agentId` over its limit (SPENDING_LIMIT_EXCEEDED, nothing written), else add it
 * to every total it counts in and return the threshold events it causes (80%, 100%, once each).
 */
export async function recordSpend(
  tx: Queryable,
  tenantId: string,
  agentId: string | null,
  amount: number
): Promise<SpendingEvent[]> {
  const keys = agentId === null ? [''] : ['', agentId];
  // Lock the budgets involved: two spends of one tenant check and add one after the other.
  const budgets = (
    await tx.unsafe<BudgetRow[]>(
      `select b.agent_id, b.period, b.limit_credits::text as limit,
         coalesce(t.spent, 0)::text as spent, ${PERIOD_START}::text as period_start,
         ${PERIOD_END} as resets_at
       from spending_budgets b
       left join spending_totals t on t.tenant_id = b.tenant_id and t.agent_id = b.agent_id
         and t.period = b.period and t.period_start = ${PERIOD_START}
       where b.tenant_id = $1 and b.agent_id = any($2::text[])
       order by b.agent_id, b.period
       for update of b`,
      [tenantId, keys],
      { prepare: true }
    )
  ).map(toBudget);
  for (const b of budgets) {
    if (b.spent + amount > b.limit) throw spendingLimitError(b, amount);
  }
  const totals = await tx.unsafe<
    { agentId: string; period: BudgetPeriod; periodStart: string; spent: string; alerted: number }[]
  >(
    `insert into spending_totals (tenant_id, agent_id, period, period_start, spent)
     select $1, k.agent_id, p.period,
       case p.period when 'daily' then (now() at time zone 'UTC')::date
         else date_trunc('month', now() at time zone 'UTC')::date end, $3
     from unnest($2::text[]) as k(agent_id), unnest(array['daily', 'monthly']) as p(period)
     on conflict (tenant_id, agent_id, period, period_start)
     do update set spent = spending_totals.spent + excluded.spent
     returning agent_id, period, period_start::text, spent::text, alerted`,
    [tenantId, keys, amount],
    { prepare: true }
  );
  const events: SpendingEvent[] = [];
  for (const b of budgets) {
    const t = totals.find((x) => x.agentId === (b.agentId ?? '') && x.period === b.period);
    if (!t) continue;
    const spent = Number(t.spent);
    const level = [...SPENDING_LEVELS].reverse().find((l) => spent * 100 >= l * b.limit);
    if (level === undefined || level <= t.alerted) continue;
    await tx`update spending_totals set alerted = ${level}
      where tenant_id = ${tenantId} and agent_id = ${t.agentId} and period = ${t.period}
        and period_start = ${t.periodStart}::date`;
    events.push({
      id: randomUUID(),
      tenantId,
      event: 'spending.threshold',
      data: {
        level,
        scope: b.agentId === null ? 'tenant' : 'agent',
        agentId: b.agentId,
        period: b.period,
        periodStart: t.periodStart,
        limit: b.limit,
        spent,
      },
    });
  }
  return events;
}
