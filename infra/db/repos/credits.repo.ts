// Tenant credits (issue 6): balance, ledger and low-balance threshold in integer minor units
// (cents; never floating point). Each change runs in one transaction with the tenant's account row
// locked, and writes the account events it causes to event_outbox in that same transaction.
import { randomUUID } from 'node:crypto';
import { HubError, InvalidParamsError } from '../../../runtime/errors/index.js';
import { tenantNotFound } from './not-found.js';
import { recordSpend } from './spending.repo.js';
import { inTransaction, isForeignKeyViolation, jsonText, type Queryable } from './sql.js';

/** Largest single amount or threshold: keeps every sum far inside 2^53 (exact JS numbers). */
export const MAX_CREDIT_AMOUNT = 1_000_000_000_000;

export interface CreditAccount {
  readonly tenantId: string;
  readonly currency: string;
  /** Minor units. */
  readonly balance: number;
  /** Minor units, or null when no threshold is set. */
  readonly lowBalanceThreshold: number | null;
  readonly belowThreshold: boolean;
}

export interface LedgerEntry {
  readonly id: number;
  readonly amount: number;
  readonly balanceAfter: number;
  readonly kind: 'purchase' | 'debit';
  readonly reason: string;
  readonly createdAt: Date;
}

/** An account event written to the outbox by a credit change. */
export interface OutboxEvent {
  readonly id: string;
  readonly tenantId: string;
  readonly event: 'credits.low_balance' | 'credits.purchased' | 'spending.threshold';
  readonly data: Record<string, unknown>;
}

export interface CreditChange {
  readonly account: CreditAccount;
  /** Events the change caused, in order (already in the outbox). */
  readonly events: OutboxEvent[];
}

interface AccountRow {
  tenantId: string;
  currency: string;
  balance: string;
  lowBalanceThreshold: string | null;
  belowThreshold: boolean;
}

function toAccount(r: AccountRow): CreditAccount {
  return {
    tenantId: r.tenantId,
    currency: r.currency,
    balance: Number(r.balance),
    lowBalanceThreshold: r.lowBalanceThreshold === null ? null : Number(r.lowBalanceThreshold),
    belowThreshold: r.belowThreshold,
  };
}

/** A positive integer amount of minor units, or INVALID_PARAMS naming `field`. */
export function creditAmount(field: string, value: unknown, min = 1): number {
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < min ||
    value > MAX_CREDIT_AMOUNT
  ) {
    throw new InvalidParamsError(
      field,
      `must be an integer number of minor units (cents) from ${min} to ${MAX_CREDIT_AMOUNT}`,
      { min, max: MAX_CREDIT_AMOUNT }
    );
  }
  return value;
}

/** The tenant's account (a zero balance if it never had credits). NOT_FOUND for no tenant. */
export async function getCreditAccount(sql: Queryable, tenantId: string): Promise<CreditAccount> {
  const [row] = await sql<AccountRow[]>`
    select t.id as tenant_id, coalesce(c.currency, 'USD') as currency,
      coalesce(c.balance, 0)::text as balance, c.low_balance_threshold::text,
      coalesce(c.below_threshold, false) as below_threshold
    from tenants t left join credit_accounts c on c.tenant_id = t.id
    where t.id = ${tenantId}`;
  if (!row) throw tenantNotFound(tenantId);
  return toAccount(row);
}

/** The tenant's most recent ledger entries, newest first. */
export async function listLedger(
  sql: Queryable,
  tenantId: string,
  limit = 20
): Promise<LedgerEntry[]> {
  const rows = await sql<
    (Omit<LedgerEntry, 'amount' | 'balanceAfter'> & {
      amount: string;
      balanceAfter: string;
    })[]
  >`
    select id::int as id, amount::text, balance_after::text, kind, reason, created_at
    from credit_ledger where tenant_id = ${tenantId} order by id desc limit ${limit}`;
  return rows.map((r) => ({
    ...r,
    amount: Number(r.amount),
    balanceAfter: Number(r.balanceAfter),
  }));
}

/** Add credits (emits credits.purchased, and ends a low-balance crossing when back above). */
export function purchaseCredits(
  sql: Queryable,
  tenantId: string,
  amount: number,
  reason = ''
): Promise<CreditChange> {
  const n = creditAmount('amount', amount);
  return change(sql, tenantId, n, 'purchase', reason);
}

/**
 * Take credits (usage billing), spent by `agentId` when one agent caused it. INSUFFICIENT_CREDITS
 * when the balance is short, SPENDING_LIMIT_EXCEEDED when a budget of the tenant or the agent
 * would go over (spending.repo), nothing changed either way. Emits credits.low_balance when this
 * debit takes the balance below the threshold, spending.threshold when a budget crosses 80%/100%.
 */
export function debitCredits(
  sql: Queryable,
  tenantId: string,
  amount: number,
  reason = '',
  agentId: string | null = null
): Promise<CreditChange> {
  const n = creditAmount('amount', amount);
  return change(sql, tenantId, -n, 'debit', reason, agentId);
}

/**
 * Set (null: clear) the low-balance threshold. A threshold set above the current balance is a
 * crossing too: credits.low_balance is emitted then, once.
 */
export async function setLowBalanceThreshold(
  sql: Queryable,
  tenantId: string,
  threshold: number | null
): Promise<CreditChange> {
  const t = threshold === null ? null : creditAmount('threshold', threshold, 0);
  return locked(sql, tenantId, async (tx, acc) => {
    const updated: CreditAccount = { ...acc, lowBalanceThreshold: t };
    return finish(tx, acc, updated, []);
  });
}

async function change(
  sql: Queryable,
  tenantId: string,
  delta: number,
  kind: 'purchase' | 'debit',
  reason: string,
  agentId: string | null = null
): Promise<CreditChange> {
  return locked(sql, tenantId, async (tx, acc) => {
    const balance = acc.balance + delta;
    if (balance < 0) {
      throw new HubError('INSUFFICIENT_CREDITS', `balance ${acc.balance} is below ${-delta}`, {
        data: { balance: acc.balance, amount: -delta, currency: acc.currency },
      });
    }
    const spending = kind === 'debit' ? await recordSpend(tx, tenantId, agentId, -delta) : [];
    await tx`
      insert into credit_ledger (tenant_id, amount, balance_after, kind, reason, agent_id)
      values (${tenantId}, ${delta}, ${balance}, ${kind}, ${reason}, ${agentId})`;
    const events: OutboxEvent[] =
      kind === 'purchase'
        ? [
            outboxEvent(tenantId, 'credits.purchased', {
              amount: delta,
              currency: acc.currency,
              balance,
            }),
          ]
        : spending;
    return finish(tx, acc, { ...acc, balance }, events);
  });
}

/** Work on the tenant's account row, created if missing and locked for the transaction. */
async function locked(
  sql: Queryable,
  tenantId: string,
  fn: (tx: Queryable, acc: CreditAccount) => Promise<CreditChange>
): Promise<CreditChange> {
  try {
    return await inTransaction(sql, async (tx) => {
      await tx`insert into credit_accounts (tenant_id) values (${tenantId})
               on conflict (tenant_id) do nothing`;
      const [row] = await tx<AccountRow[]>`
        select tenant_id, currency, balance::text, low_balance_threshold::text, below_threshold
        from credit_accounts where tenant_id = ${tenantId} for update`;
      if (!row) throw tenantNotFound(tenantId);
      return fn(tx, toAccount(row));
    });
  } catch (err) {
    if (isForeignKeyViolation(err, 'credit_accounts_tenant_id_fkey')) {
      throw tenantNotFound(tenantId);
    }
    throw err;
  }
}

/** Save the account with its crossing flag, and the events (plus a low_balance on a crossing). */
async function finish(
  tx: Queryable,
  before: CreditAccount,
  after: CreditAccount,
  events: OutboxEvent[]
): Promise<CreditChange> {
  const t = after.lowBalanceThreshold;
  const below = t !== null && after.balance < t;
  const all = [...events];
  if (below && !before.belowThreshold) {
    all.push(
      outboxEvent(after.tenantId, 'credits.low_balance', {
        currentBalance: after.balance,
        threshold: t,
        currency: after.currency,
      })
    );
  }
  await tx`
    update credit_accounts set balance = ${after.balance},
      low_balance_threshold = ${t}, below_threshold = ${below}, updated_at = now()
    where tenant_id = ${after.tenantId}`;
  for (const e of all) {
    await tx`insert into event_outbox (id, tenant_id, event, data)
             values (${e.id}, ${e.tenantId}, ${e.event}, ${jsonText(e.data)}::text::jsonb)`;
  }
  return { account: { ...after, belowThreshold: below }, events: all };
}

function outboxEvent(
  tenantId: string,
  event: OutboxEvent['event'],
  data: Record<string, unknown>
): OutboxEvent {
  return { id: randomUUID(), tenantId, event, data };
}

/**
 * Up to `limit` unpublished outbox events, oldest first (those in `skip` left out), each handed to
 * `publish` and stamped once it resolves. Rows are locked (skip locked), so nodes relaying at once
 * share the work. A publish that fails is handed to `failed`: 'stop' ends the batch with that
 * error (NATS is away: the stamps so far roll back and are published again, stored once by id),
 * 'skip' leaves that row unpublished and goes on with the rest, so one event that cannot be
 * published never holds the others back. Without `failed`, every failure stops. Resolves with how
 * many rows were read.
 */
export async function relayOutbox(
  sql: Queryable,
  publish: (e: OutboxEvent & { createdAt: Date }) => Promise<void>,
  limit = 100,
  opts: { skip?: ReadonlySet<string>; failed?: (id: string, err: unknown) => 'stop' | 'skip' } = {}
): Promise<number> {
  return inTransaction(sql, async (tx) => {
    const rows = await tx<(OutboxEvent & { createdAt: Date; dataJson: string })[]>`
      select id, tenant_id, event, data::text as data_json, created_at from event_outbox
      where published_at is null and id::text <> all(${tx.array([...(opts.skip ?? [])])}::text[])
      order by created_at limit ${limit} for update skip locked`;
    for (const r of rows) {
      try {
        await publish({
          id: r.id,
          tenantId: r.tenantId,
          event: r.event,
          data: JSON.parse(r.dataJson) as Record<string, unknown>,
          createdAt: r.createdAt,
        });
      } catch (err) {
        if ((opts.failed?.(r.id, err) ?? 'stop') === 'stop') throw err;
        continue;
      }
      await tx`update event_outbox set published_at = now() where id = ${r.id}`;
    }
    return rows.length;
  });
}
