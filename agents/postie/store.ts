// postie's SQL: addresses (written by the 0012 triggers, read here), sends with their billing,
// inbound mail, suppression lists and statistics. Every query names its tenant, and its owning
// agent where the data is per agent.
import { randomBytes } from 'node:crypto';
import {
  debitCredits,
  getCreditAccount,
  inTransaction,
  OFFICIAL_TENANT,
  type Db,
  type Queryable,
} from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import {
  FREE_SENDS_PER_MONTH,
  UNITS_PER_SEND,
  chargeSend,
  creditNeeded,
  refundSend,
  type BillingState,
} from './billing.js';

/** How long a retired address keeps delivering to its agent. */
export const RETIRED_ADDRESS_DAYS = 30;

export interface Owner {
  tenantId: string;
  agentId: string;
}

export function newId(prefix: 'ml' | 'in'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

// ---- addresses -------------------------------------------------------------------------------

export interface SenderIdentity {
  name: string;
  alias: string | null;
  emailEnabled: boolean;
  tenantSlug: string;
}

/** The live agent `o` names, with what its address is made of; undefined if there is none. */
export async function senderIdentity(
  sql: Queryable,
  o: Owner
): Promise<SenderIdentity | undefined> {
  const [row] = await sql<SenderIdentity[]>`
    select a.name, a.alias, a.email_enabled, t.slug as tenant_slug
    from agents a join tenants t on t.id = a.tenant_id
    where a.id = ${o.agentId} and a.tenant_id = ${o.tenantId} and a.deleted_at is null`;
  return row;
}

export interface AddressOwner {
  agentId: string;
  tenantId: string;
  transport: string;
  /** False for an address the agent had before a rename (within its 30 days). */
  current: boolean;
}

/**
 * The live agent an address's local part delivers to: its current holder, else a recent one. An
 * agent whose email is disabled (PATCH emailEnabled false) owns no address: its mail bounces.
 */
export async function addressOwner(
  sql: Queryable,
  localPart: string,
  now: number
): Promise<AddressOwner | undefined> {
  const since = new Date(now - RETIRED_ADDRESS_DAYS * 86_400_000);
  const [row] = await sql<AddressOwner[]>`
    select p.owner_agent_id as agent_id, p.tenant_id, a.transport, p.retired_at is null as current
    from postie_addresses p join agents a on a.id = p.owner_agent_id and a.tenant_id = p.tenant_id
    where p.local_part = ${localPart} and a.deleted_at is null and a.email_enabled
      and (p.retired_at is null or p.retired_at > ${since})
    order by p.retired_at desc nulls first
    limit 1`;
  return row;
}

// ---- suppression -----------------------------------------------------------------------------

export interface Suppression {
  scope: 'tenant' | 'global';
  address: string;
  reason: string;
  source: 'manual' | 'bounce' | 'complaint';
  createdAt: Date;
}

/** The entries for `address` that bind `tenantId`: its own list's and the global list's. */
export function suppressionsFor(
  sql: Queryable,
  tenantId: string,
  address: string
): Promise<Suppression[]> {
  return sql<Suppression[]>`
    select scope, address, reason, source, created_at from postie_suppressions
    where address = ${address.toLowerCase()}
      and ((scope = 'tenant' and tenant_id = ${tenantId})
        or (scope = 'global' and tenant_id = ${OFFICIAL_TENANT.id}))
    order by scope desc, created_at`;
}

/** True if `address` is on the global list (whatever the tenant). */
export async function globallySuppressed(sql: Queryable, address: string): Promise<boolean> {
  const rows = await sql`
    select 1 from postie_suppressions
    where scope = 'global' and tenant_id = ${OFFICIAL_TENANT.id} and address = ${address.toLowerCase()}`;
  return rows.length > 0;
}

/** Add to the tenant's list (or update the reason); true if the entry is new. */
export async function suppressForTenant(
  sql: Queryable,
  o: Owner,
  address: string,
  reason: string
): Promise<boolean> {
  const [row] = await sql<{ inserted: boolean }[]>`
    insert into postie_suppressions (scope, tenant_id, address, reason, source, created_by_agent_id)
    values ('tenant', ${o.tenantId}, ${address}, ${reason}, 'manual', ${o.agentId})
    on conflict (scope, tenant_id, address) do update set reason = excluded.reason
    returning (xmax = 0) as inserted`;
  return row?.inserted ?? false;
}

/** Add to the global list (hard bounces and complaints); true if the entry is new. */
export async function suppressGlobally(
  sql: Queryable,
  address: string,
  source: 'bounce' | 'complaint',
  reason: string
): Promise<boolean> {
  const rows = await sql`
    insert into postie_suppressions (scope, tenant_id, address, reason, source)
    values ('global', ${OFFICIAL_TENANT.id}, ${address.toLowerCase()}, ${reason}, ${source})
    on conflict (scope, tenant_id, address) do nothing
    returning id`;
  return rows.length > 0;
}

/** Remove from the tenant's own list; true if there was an entry. */
export async function unsuppressForTenant(
  sql: Queryable,
  tenantId: string,
  address: string
): Promise<boolean> {
  const rows = await sql`
    delete from postie_suppressions
    where scope = 'tenant' and tenant_id = ${tenantId} and address = ${address}
    returning id`;
  return rows.length > 0;
}

// ---- sends and billing -----------------------------------------------------------------------

export interface NewSend extends Owner {
  id: string;
  from: string;
  to: string;
  subject: string;
}

/** Raised inside the billing transaction when the tenant cannot pay for a send. */
export class NoCreditError extends Error {
  constructor(
    readonly balanceCents: number,
    readonly neededCents: number
  ) {
    super('no credit');
  }
}

/**
 * Record a send as pending and count it against the month, in one transaction with its billing:
 * beyond the free quota the overage accrues and a whole cent is debited at each cent boundary.
 * NoCreditError (nothing written) when a paid send finds no credit.
 */
export async function recordPendingSend(
  sql: Db,
  s: NewSend,
  month: string
): Promise<{ paid: boolean; debitCents: number }> {
  return inTransaction(sql, async (tx) => {
    const t = s.tenantId;
    const state = await lockBilling(tx, t);
    const [m] = await tx<{ sends: number }[]>`
      insert into postie_monthly (tenant_id, month) values (${t}, ${month})
      on conflict (tenant_id, month) do update set sends = postie_monthly.sends
      returning sends`;
    const charge = chargeSend(m!.sends, state);
    const needed = creditNeeded(charge);
    if (needed > 0) {
      const account = await getCreditAccount(tx, t);
      if (account.balance < needed) throw new NoCreditError(account.balance, needed);
      if (charge.debitCents > 0) {
        try {
          // Spent by the sending agent: its budgets (and the tenant's) count it (issue 28).
          await debitCredits(
            tx,
            t,
            charge.debitCents,
            `postie: email sends beyond the free quota`,
            s.agentId
          );
        } catch (err) {
          // Another debit took the balance between the read and the lock.
          if (err instanceof HubError && err.code === 'INSUFFICIENT_CREDITS') {
            throw new NoCreditError(0, needed);
          }
          throw err;
        }
      }
    }
    await saveBilling(tx, t, charge.state);
    await tx`update postie_monthly set sends = sends + 1 where tenant_id = ${t} and month = ${month}`;
    await tx`
      insert into postie_sends (id, tenant_id, owner_agent_id, from_address, to_address, subject,
        status, billed_month, paid)
      values (${s.id}, ${t}, ${s.agentId}, ${s.from}, ${s.to}, ${s.subject}, 'pending', ${month},
        ${charge.paid})`;
    return { paid: charge.paid, debitCents: charge.debitCents };
  });
}

/** A send refused before the relay (suppressed, no credit): failed, never counted or billed. */
export async function recordRefusedSend(sql: Queryable, s: NewSend, error: string): Promise<void> {
  await sql`
    insert into postie_sends (id, tenant_id, owner_agent_id, from_address, to_address, subject,
      status, error)
    values (${s.id}, ${s.tenantId}, ${s.agentId}, ${s.from}, ${s.to}, ${s.subject}, 'failed',
      ${error})`;
}

export async function markSent(
  sql: Queryable,
  s: NewSend,
  messageId: string,
  response: string
): Promise<void> {
  await sql`
    update postie_sends set status = 'sent', message_id = ${messageId},
      relay_response = ${response}, updated_at = now()
    where id = ${s.id} and tenant_id = ${s.tenantId} and owner_agent_id = ${s.agentId}`;
}

/** The relay refused the send: failed with the reason, and taken back from the month's count. */
export async function markFailed(sql: Db, s: NewSend, error: string): Promise<void> {
  await inTransaction(sql, async (tx) => {
    const t = s.tenantId;
    const state = await lockBilling(tx, t);
    const [row] = await tx<{ billedMonth: string | null }[]>`
      update postie_sends set status = 'failed', error = ${error}, updated_at = now()
      where id = ${s.id} and tenant_id = ${t} and owner_agent_id = ${s.agentId}
        and status = 'pending'
      returning billed_month::text`;
    if (!row?.billedMonth) return;
    const [m] = await tx<{ sends: number }[]>`
      select sends from postie_monthly where tenant_id = ${t} and month = ${row.billedMonth}
      for update`;
    if (!m || m.sends === 0) return;
    await saveBilling(tx, t, refundSend(m.sends, state));
    await tx`update postie_monthly set sends = sends - 1
             where tenant_id = ${t} and month = ${row.billedMonth}`;
  });
}

async function lockBilling(tx: Queryable, tenantId: string): Promise<BillingState> {
  await tx`insert into postie_billing (tenant_id) values (${tenantId})
           on conflict (tenant_id) do nothing`;
  const [b] = await tx<{ accruedUnits: string; debitedCents: string }[]>`
    select accrued_units::text, debited_cents::text from postie_billing
    where tenant_id = ${tenantId} for update`;
  return { accruedUnits: Number(b!.accruedUnits), debitedCents: Number(b!.debitedCents) };
}

async function saveBilling(tx: Queryable, tenantId: string, s: BillingState): Promise<void> {
  await tx`update postie_billing set accrued_units = ${s.accruedUnits},
             debited_cents = ${s.debitedCents}, updated_at = now()
           where tenant_id = ${tenantId}`;
}

// ---- inbound ---------------------------------------------------------------------------------

export interface InboundMessage {
  id: string;
  address: string;
  tag: string | null;
  mailFrom: string;
  fromAddress: string;
  fromName: string;
  subject: string;
  body: string;
  messageId: string | null;
  kind: 'mail' | 'bounce' | 'complaint';
  size: number;
  taskId: string | null;
  deliveryError: string | null;
  receivedAt: Date;
  readAt: Date | null;
}

export type NewInbound = Omit<InboundMessage, 'taskId' | 'deliveryError' | 'receivedAt' | 'readAt'>;

export async function insertInbound(sql: Queryable, o: Owner, m: NewInbound): Promise<void> {
  await sql`
    insert into postie_inbound (id, tenant_id, owner_agent_id, address, tag, mail_from,
      from_address, from_name, subject, body, message_id, kind, size)
    values (${m.id}, ${o.tenantId}, ${o.agentId}, ${m.address}, ${m.tag}, ${m.mailFrom},
      ${m.fromAddress}, ${m.fromName}, ${m.subject}, ${m.body}, ${m.messageId}, ${m.kind},
      ${m.size})`;
}

export async function noteInboundDelivery(
  sql: Queryable,
  o: Owner,
  id: string,
  r: { taskId: string } | { error: string }
): Promise<void> {
  const taskId = 'taskId' in r ? r.taskId : null;
  const error = 'error' in r ? r.error : null;
  await sql`
    update postie_inbound set task_id = ${taskId}, delivery_error = ${error}
    where id = ${id} and tenant_id = ${o.tenantId} and owner_agent_id = ${o.agentId}`;
}

const INBOUND_COLUMNS = `id, address, tag, mail_from, from_address, from_name, subject, body,
  message_id, kind, size, task_id, delivery_error, received_at, read_at`;

export async function listInbox(
  sql: Queryable,
  o: Owner,
  q: { limit: number; unreadOnly: boolean }
): Promise<{ messages: InboundMessage[]; unread: number; total: number }> {
  const messages = await sql.unsafe<InboundMessage[]>(
    `select ${INBOUND_COLUMNS} from postie_inbound
     where tenant_id = $1 and owner_agent_id = $2 and ($3::boolean is false or read_at is null)
     order by received_at desc, id desc limit $4`,
    [o.tenantId, o.agentId, q.unreadOnly, q.limit],
    { prepare: true }
  );
  const [counts] = await sql<{ total: number; unread: number }[]>`
    select count(*)::int as total, count(*) filter (where read_at is null)::int as unread
    from postie_inbound where tenant_id = ${o.tenantId} and owner_agent_id = ${o.agentId}`;
  return { messages: [...messages], total: counts?.total ?? 0, unread: counts?.unread ?? 0 };
}

/** One inbound message of the agent, marked read; undefined if it has none with that id. */
export async function readInbound(
  sql: Queryable,
  o: Owner,
  id: string
): Promise<InboundMessage | undefined> {
  const [row] = await sql.unsafe<InboundMessage[]>(
    `update postie_inbound set read_at = coalesce(read_at, now())
     where id = $1 and tenant_id = $2 and owner_agent_id = $3
     returning ${INBOUND_COLUMNS}`,
    [id, o.tenantId, o.agentId],
    { prepare: true }
  );
  return row;
}

// ---- statistics ------------------------------------------------------------------------------

export interface Stats {
  agent: { sent: number; failed: number; pending: number; received: number; unread: number };
  tenant: {
    month: string;
    sends: number;
    freeUsed: number;
    freeLimit: number;
    paidSends: number;
    /** This month's overage in units of 0.0001. */
    billedUnits: number;
    /** Every cent debited for postie so far, and what has accrued towards the next. */
    debitedCents: number;
    accruedUnits: number;
  };
}

export async function stats(sql: Queryable, o: Owner, month: string): Promise<Stats> {
  const [s] = await sql<{ sent: number; failed: number; pending: number }[]>`
    select count(*) filter (where status = 'sent')::int as sent,
      count(*) filter (where status = 'failed')::int as failed,
      count(*) filter (where status = 'pending')::int as pending
    from postie_sends where tenant_id = ${o.tenantId} and owner_agent_id = ${o.agentId}`;
  const [r] = await sql<{ received: number; unread: number }[]>`
    select count(*)::int as received, count(*) filter (where read_at is null)::int as unread
    from postie_inbound where tenant_id = ${o.tenantId} and owner_agent_id = ${o.agentId}`;
  const [m] = await sql<{ sends: number }[]>`
    select sends from postie_monthly where tenant_id = ${o.tenantId} and month = ${month}`;
  const [b] = await sql<{ accruedUnits: string; debitedCents: string }[]>`
    select accrued_units::text, debited_cents::text from postie_billing
    where tenant_id = ${o.tenantId}`;
  const sends = m?.sends ?? 0;
  const paidSends = Math.max(0, sends - FREE_SENDS_PER_MONTH);
  return {
    agent: { ...s!, ...r! },
    tenant: {
      month: month.slice(0, 7),
      sends,
      freeUsed: Math.min(sends, FREE_SENDS_PER_MONTH),
      freeLimit: FREE_SENDS_PER_MONTH,
      paidSends,
      billedUnits: paidSends * UNITS_PER_SEND,
      debitedCents: Number(b?.debitedCents ?? 0),
      accruedUnits: Number(b?.accruedUnits ?? 0),
    },
  };
}
