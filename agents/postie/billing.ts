// Billing of sends (interface-spec "Limits"): 100 free sends per tenant per calendar month (UTC);
// beyond that 0.0012 currency units a send, accrued and debited from the tenant's credit balance
// in whole cents each time the accrual crosses a cent. Pure integer arithmetic, no clock, no SQL.
//
// The spec accrues "in tenths of a cent", but 0.0012 units is 0.12 cents = 1.2 tenths, which a
// tenths counter cannot hold exactly. The accumulator is therefore kept in units of 0.0001
// (hundredths of a cent), where a send costs exactly 12 and a cent is exactly 100.

export const FREE_SENDS_PER_MONTH = 100;
/** 0.0012 currency units in units of 0.0001. */
export const UNITS_PER_SEND = 12;
/** One cent (0.01 currency units) in units of 0.0001. */
export const UNITS_PER_CENT = 100;

/** A tenant's running billing state. The accrual carries across months; the free quota does not. */
export interface BillingState {
  /** Overage accrued so far, in units of 0.0001 currency units. */
  accruedUnits: number;
  /** Whole cents already debited for that accrual. */
  debitedCents: number;
}

export interface Charge {
  /** The send is beyond the month's free quota. */
  paid: boolean;
  /** Cents to debit with this send (0 or, at a cent boundary, 1). */
  debitCents: number;
  /** The state after the send. */
  state: BillingState;
}

/** What one more send costs, given how many sends the month already counted. */
export function chargeSend(monthSends: number, s: BillingState): Charge {
  const paid = monthSends + 1 > FREE_SENDS_PER_MONTH;
  const accruedUnits = s.accruedUnits + (paid ? UNITS_PER_SEND : 0);
  const debitCents = Math.max(0, Math.floor(accruedUnits / UNITS_PER_CENT) - s.debitedCents);
  return {
    paid,
    debitCents,
    state: { accruedUnits, debitedCents: s.debitedCents + debitCents },
  };
}

/**
 * Credit a send needs before it may go out: none within the free quota; beyond it, the cent it
 * debits now, and at least one cent of balance even between boundaries ("no credit, no send").
 */
export function creditNeeded(c: Charge): number {
  return c.paid ? Math.max(1, c.debitCents) : 0;
}

/**
 * Take back a send that failed at the relay, given the month's count including it. The month's
 * last counted send is the paid one if any is, so the accrual stays exactly 12 units for every
 * send beyond the quota. Cents already debited stay debited (the next boundary is then not
 * charged again, since debits follow floor(accrued / 100) - debited).
 */
export function refundSend(monthSends: number, s: BillingState): BillingState {
  const paid = monthSends > FREE_SENDS_PER_MONTH;
  return {
    accruedUnits: s.accruedUnits - (paid ? UNITS_PER_SEND : 0),
    debitedCents: s.debitedCents,
  };
}

/** The first day of the UTC calendar month of `ms`, as YYYY-MM-01. */
export function monthOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** Units of 0.0001 as a decimal amount, e.g. 1212 → "0.1212". */
export function formatUnits(units: number): string {
  const sign = units < 0 ? '-' : '';
  const n = Math.abs(units);
  return `${sign}${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, '0')}`;
}

/** Whole cents as a decimal amount, e.g. 105 → "1.05". */
export function formatCents(cents: number): string {
  return formatUnits(cents * UNITS_PER_CENT).slice(0, -2);
}
