// Money over LDA filings: amendments folded into the report they amend, then amounts summed by the
// client who paid for the lobbying. Sums are over the filings read, which is said with every total.
import type { Filing } from './lda.js';

/**
 * One report per registrant, client, year and period: an amendment (1A, 2A, …) is posted after the
 * report it corrects and restates its amount, so the latest posted stands and the others go.
 * Registrations carry no amount and are all kept.
 */
export function latestReports(filings: readonly Filing[]): Filing[] {
  const byKey = new Map<string, Filing>();
  const rest: Filing[] = [];
  for (const f of filings) {
    if (f.period === '' || f.period === 'registration' || f.registrant.id === null) {
      rest.push(f);
      continue;
    }
    const key = `${f.registrant.id}|${f.client.id ?? f.client.name.toUpperCase()}|${f.year}|${f.period}`;
    const seen = byKey.get(key);
    if (seen === undefined || f.postedAt > seen.postedAt) byKey.set(key, f);
  }
  return [...byKey.values(), ...rest];
}

export interface Spender {
  client: string;
  clientId: number | null;
  /** Dollars over the reports read. */
  total: number;
  /** Reports with an amount; reports without one add nothing. */
  reports: number;
  /** Lobbying firms hired; the client itself when it lobbies in-house. */
  registrants: string[];
  inHouse: boolean;
}

export interface Spending {
  spenders: Spender[];
  /** Filings read from LDA (before amendments were folded). */
  filingsRead: number;
  /** Amendments folded into the report they amend. */
  amendmentsFolded: number;
  /** Reports that stated neither income nor expenses. */
  withoutAmount: number;
  /** Dollars over every report read. */
  total: number;
}

/** Spending by client over `filings`, largest first. */
export function spending(filings: readonly Filing[]): Spending {
  const reports = latestReports(filings);
  const by = new Map<string, Spender & { cents: number; firms: Set<string> }>();
  let withoutAmount = 0;
  let all = 0;
  for (const f of reports) {
    if (f.amount === null) {
      if (f.period !== 'registration') withoutAmount++;
      continue;
    }
    const cents = Math.round(f.amount * 100);
    all += cents;
    const key = f.client.id !== null ? `id:${f.client.id}` : `name:${f.client.name.toUpperCase()}`;
    let s = by.get(key);
    if (s === undefined) {
      s = {
        client: f.client.name,
        clientId: f.client.id,
        total: 0,
        reports: 0,
        registrants: [],
        inHouse: false,
        cents: 0,
        firms: new Set(),
      };
      by.set(key, s);
    }
    s.cents += cents;
    s.reports++;
    s.firms.add(f.registrant.name);
    if (f.amountKind === 'expenses') s.inHouse = true;
  }
  const spenders = [...by.values()]
    .map(({ cents, firms, ...s }) => ({ ...s, total: cents / 100, registrants: [...firms] }))
    .sort((a, b) => b.total - a.total || a.client.localeCompare(b.client));
  return {
    spenders,
    filingsRead: filings.length,
    amendmentsFolded: filings.length - reports.length,
    withoutAmount,
    total: all / 100,
  };
}

/** Issue areas over `filings`, most filings first: how often each code appears. */
export function issueCounts(
  filings: readonly Filing[]
): Array<{ code: string; display: string; filings: number }> {
  const by = new Map<string, { code: string; display: string; filings: number }>();
  for (const f of filings) {
    for (const code of new Set(f.issues.map((i) => i.code))) {
      const display = f.issues.find((i) => i.code === code)!.display;
      const e = by.get(code) ?? { code, display, filings: 0 };
      e.filings++;
      by.set(code, e);
    }
  }
  return [...by.values()].sort((a, b) => b.filings - a.filings || a.code.localeCompare(b.code));
}

/** $1,234,567 (cents only when there are some). */
export function usd(n: number): string {
  return `$${n.toLocaleString('en-US', {
    minimumFractionDigits: Number.isInteger(n) ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;
}
