import { describe, expect, it } from 'vitest';
import {
  FREE_SENDS_PER_MONTH,
  chargeSend,
  creditNeeded,
  formatCents,
  formatUnits,
  monthOf,
  refundSend,
  type BillingState,
} from './billing.js';

/** A tenant sending through months with a credit balance in cents, like the store does. */
function ledger(balance: number) {
  let state: BillingState = { accruedUnits: 0, debitedCents: 0 };
  const months = new Map<string, number>();
  const debits: number[] = [];
  return {
    send(at: number): { ok: boolean; paid: boolean; debit: number } {
      const month = monthOf(at);
      const n = months.get(month) ?? 0;
      const c = chargeSend(n, state);
      if (creditNeeded(c) > balance) return { ok: false, paid: c.paid, debit: 0 };
      balance -= c.debitCents;
      if (c.debitCents > 0) debits.push(c.debitCents);
      state = c.state;
      months.set(month, n + 1);
      return { ok: true, paid: c.paid, debit: c.debitCents };
    },
    fail(at: number): void {
      const month = monthOf(at);
      const n = months.get(month)!;
      state = refundSend(n, state);
      months.set(month, n - 1);
    },
    get state() {
      return state;
    },
    get balance() {
      return balance;
    },
    months,
    debits,
  };
}

const NOV_30_LATE = Date.UTC(2026, 10, 30, 23, 0, 0);
const DEC_1 = Date.UTC(2026, 11, 1, 0, 0, 0);

describe('billing over 1,000 sends across a month boundary', () => {
  it('gives 100 free sends a month and debits exactly one cent per 100 units accrued', () => {
    const l = ledger(1_000_000);
    const results = [];
    // 637 sends in the last hour of November, 363 from the first second of December: the free
    // quota starts again at the boundary, the accrual carries on.
    for (let i = 0; i < 1000; i++) {
      const at = i < 637 ? NOV_30_LATE + i * 5_000 : DEC_1 + (i - 637) * 1_000;
      const r = l.send(at);
      expect(r.ok).toBe(true);
      results.push(r);
      // The invariant after every send: debited cents are the whole cents of the accrual.
      expect(l.state.debitedCents).toBe(Math.floor(l.state.accruedUnits / 100));
    }
    expect(l.months.get('2026-11-01')).toBe(637);
    expect(l.months.get('2026-12-01')).toBe(363);
    const paidNov = results.slice(0, 637).filter((r) => r.paid).length;
    const paidDec = results.slice(637).filter((r) => r.paid).length;
    expect(paidNov).toBe(537);
    expect(paidDec).toBe(263);
    expect(results.slice(0, 100).every((r) => !r.paid)).toBe(true);
    expect(results.slice(637, 737).every((r) => !r.paid)).toBe(true);
    // 800 paid sends × 12 units = 9600 units = 96 cents, all debited one cent at a time.
    expect(l.state).toEqual({ accruedUnits: 9600, debitedCents: 96 });
    expect(l.debits).toHaveLength(96);
    expect(l.debits.every((d) => d === 1)).toBe(true);
    expect(l.balance).toBe(1_000_000 - 96);
    // November alone: 537 × 12 = 6444 units; 64 cents debited, 0.44 cent carried into December.
    const novDebits = results.slice(0, 637).reduce((s, r) => s + r.debit, 0);
    expect(novDebits).toBe(64);
  });

  it('debits at the exact sends that cross a cent: the 9th, 17th, 25th paid send…', () => {
    const l = ledger(100);
    const debitAt: number[] = [];
    for (let i = 1; i <= FREE_SENDS_PER_MONTH + 50; i++) {
      if (l.send(DEC_1).debit > 0) debitAt.push(i - FREE_SENDS_PER_MONTH);
    }
    // 12 × k ≥ 100 × c first at k = ceil(100c / 12): 9, 17, 25, 34, 42, 50.
    expect(debitAt).toEqual([9, 17, 25, 34, 42, 50]);
  });

  it('refuses paid sends without credit, and a send whose cent the balance cannot cover', () => {
    const l = ledger(1);
    for (let i = 0; i < FREE_SENDS_PER_MONTH; i++) expect(l.send(DEC_1).ok).toBe(true);
    // 1 cent of balance: paid sends go out until the 9th debits that cent; then none.
    let sent = 0;
    while (l.send(DEC_1).ok) sent++;
    expect(sent).toBe(9);
    expect(l.balance).toBe(0);
    expect(l.state).toEqual({ accruedUnits: 108, debitedCents: 1 });
    // Nothing is accrued by a refused send.
    expect(l.send(DEC_1).ok).toBe(false);
    expect(l.state.accruedUnits).toBe(108);
  });

  it('refuses a paid send at zero balance even between cent boundaries', () => {
    const l = ledger(0);
    for (let i = 0; i < FREE_SENDS_PER_MONTH; i++) expect(l.send(DEC_1).ok).toBe(true);
    const r = l.send(DEC_1);
    expect(r).toEqual({ ok: false, paid: true, debit: 0 });
    expect(l.state).toEqual({ accruedUnits: 0, debitedCents: 0 });
  });

  it('takes back a failed send without charging its cent twice', () => {
    const l = ledger(100);
    for (let i = 0; i < FREE_SENDS_PER_MONTH + 9; i++) l.send(DEC_1);
    expect(l.state).toEqual({ accruedUnits: 108, debitedCents: 1 });
    l.fail(DEC_1); // the 9th paid send bounced at the relay
    expect(l.state).toEqual({ accruedUnits: 96, debitedCents: 1 });
    // Its replacement crosses the same cent again: already paid, not debited twice.
    expect(l.send(DEC_1).debit).toBe(0);
    expect(l.state).toEqual({ accruedUnits: 108, debitedCents: 1 });
    // A failure within the free quota takes back no money.
    const fresh = ledger(0);
    fresh.send(DEC_1);
    fresh.fail(DEC_1);
    expect(fresh.state).toEqual({ accruedUnits: 0, debitedCents: 0 });
    expect(fresh.months.get('2026-12-01')).toBe(0);
  });
});

describe('months and amounts', () => {
  it('takes the calendar month in UTC', () => {
    expect(monthOf(Date.UTC(2026, 10, 30, 23, 59, 59, 999))).toBe('2026-11-01');
    expect(monthOf(Date.UTC(2026, 11, 1))).toBe('2026-12-01');
    expect(monthOf(Date.UTC(2027, 0, 1))).toBe('2027-01-01');
  });

  it('formats amounts exactly', () => {
    expect(formatUnits(12)).toBe('0.0012');
    expect(formatUnits(9600)).toBe('0.9600');
    expect(formatUnits(123_456)).toBe('12.3456');
    expect(formatCents(105)).toBe('1.05');
    expect(formatCents(7)).toBe('0.07');
  });
});
