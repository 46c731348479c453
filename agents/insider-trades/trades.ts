// Insider trades as rows: every transaction of a set of Form 4 filings (raw XML, read through the
// shared SEC client), with its filing, issuer and reporting owner beside it.
import type { Provenance } from '../kit/public-data/index.js';
import {
  readOwnershipForms,
  relationship,
  type Filing,
  type SecClient,
  type Transaction,
} from '../kit/public-data/sec/index.js';

export const FORM4 = ['4', '4/A'] as const;

export interface Trade extends Transaction {
  accession: string;
  filed: string;
  issuer: string;
  issuerCik: number | null;
  ticker: string | null;
  owner: string;
  ownerCik: number | null;
  relationship: string;
  /** The raw XML it was read from. */
  xmlUrl: string | null;
}

export interface Trades {
  trades: Trade[];
  filingsRead: number;
  /** Filings whose XML could not be read or parsed (named, never guessed). */
  unreadable: string[];
  provenance: Provenance[];
}

export function isForm4(f: Filing): boolean {
  return (FORM4 as readonly string[]).includes(f.form);
}

/** The trades of `filings`, read from the folder of filer `cik` (issuer or owner: both work). */
export async function tradesOf(
  sec: SecClient,
  cik: number,
  filings: readonly Filing[]
): Promise<Trades> {
  const read = await readOwnershipForms(sec, cik, filings);
  const trades: Trade[] = [];
  const unreadable: string[] = [];
  for (const r of read.forms) {
    if (r.form === undefined) {
      unreadable.push(r.filing.accession);
      continue;
    }
    const owner = r.form.owners[0];
    const names = r.form.owners.map((o) => o.name).join('; ');
    for (const t of r.form.transactions) {
      trades.push({
        ...t,
        accession: r.filing.accession,
        filed: r.filing.filingDate,
        issuer: r.form.issuer.name,
        issuerCik: r.form.issuer.cik,
        ticker: r.form.issuer.ticker,
        owner: names,
        ownerCik: owner?.cik ?? null,
        relationship: owner === undefined ? '' : relationship(owner),
        xmlUrl: r.xmlUrl,
      });
    }
  }
  return { trades, filingsRead: read.forms.length, unreadable, provenance: read.provenance };
}

export interface MonthSentiment {
  month: string;
  buys: number;
  buyShares: number;
  buyValue: number;
  sells: number;
  sellShares: number;
  sellValue: number;
  netValue: number;
  /** buys ÷ (buys + sells) by value, or null without either. */
  buyRatio: number | null;
  signal: 'buying' | 'selling' | 'balanced' | 'none';
}

/** The months from `from` (YYYY-MM) to `to` (YYYY-MM), oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  while (y < ty || (y === ty && m <= tm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

/**
 * Open-market buys (code P) against open-market sales (code S) of non-derivative securities, per
 * month of the transaction date: counts, shares and value (shares × price). Grants, exercises,
 * tax withholding, gifts and other codes are left out: they are not decisions to buy or sell.
 */
export function monthlySentiment(
  trades: readonly Trade[],
  months: readonly string[]
): MonthSentiment[] {
  const by = new Map(
    months.map((month) => [
      month,
      { month, buys: 0, buyShares: 0, buyValue: 0, sells: 0, sellShares: 0, sellValue: 0 },
    ])
  );
  for (const t of trades) {
    if (t.table !== 'non-derivative' || t.date === null) continue;
    const m = by.get(t.date.slice(0, 7));
    if (m === undefined) continue;
    if (t.code === 'P') {
      m.buys += 1;
      m.buyShares += t.shares ?? 0;
      m.buyValue += t.value ?? 0;
    } else if (t.code === 'S') {
      m.sells += 1;
      m.sellShares += t.shares ?? 0;
      m.sellValue += t.value ?? 0;
    }
  }
  return [...by.values()].map((m) => {
    const total = m.buyValue + m.sellValue;
    const buyRatio = total > 0 ? Math.round((m.buyValue / total) * 1000) / 1000 : null;
    const signal: MonthSentiment['signal'] =
      m.buys + m.sells === 0
        ? 'none'
        : m.buyValue > m.sellValue
          ? 'buying'
          : m.sellValue > m.buyValue
            ? 'selling'
            : 'balanced';
    return {
      ...m,
      buyValue: round2(m.buyValue),
      sellValue: round2(m.sellValue),
      netValue: round2(m.buyValue - m.sellValue),
      buyRatio,
      signal,
    };
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;
