// Ownership forms 3/4/5 (EDGAR's ownershipDocument XML): issuer, reporting owners with their
// relationship, and the non-derivative and derivative transactions with their codes, shares,
// prices, acquired/disposed, holdings after and direct/indirect ownership.
import { XMLParser } from 'fast-xml-parser';
import { scalar } from './client.js';

/** Form 4 transaction codes (SEC Form 4 General Instructions 8). */
export const TRANSACTION_CODES: Readonly<Record<string, string>> = {
  P: 'open-market or private purchase',
  S: 'open-market or private sale',
  A: 'grant or award',
  D: 'disposition to the issuer',
  F: 'tax or exercise price paid with securities',
  I: 'discretionary transaction',
  M: 'exercise or conversion of a derivative (exempt)',
  C: 'conversion of a derivative',
  E: 'expiration of a short derivative position',
  H: 'expiration of a long derivative position',
  O: 'exercise of an out-of-the-money derivative',
  X: 'exercise of an in-the-money derivative',
  G: 'gift',
  L: 'small acquisition',
  W: 'acquisition or disposition by will or the laws of descent',
  Z: 'deposit into or withdrawal from a voting trust',
  J: 'other acquisition or disposition',
  K: 'equity swap or similar',
  U: 'disposition in a change of control tender',
  V: 'transaction voluntarily reported earlier',
};

export interface OwnerRelationship {
  isDirector: boolean;
  isOfficer: boolean;
  officerTitle: string | null;
  isTenPercentOwner: boolean;
  isOther: boolean;
  otherText: string | null;
}

export interface ReportingOwner extends OwnerRelationship {
  cik: number | null;
  name: string;
}

export interface Transaction {
  table: 'non-derivative' | 'derivative';
  security: string;
  date: string | null;
  code: string;
  codeMeaning: string;
  shares: number | null;
  price: number | null;
  /** 'A' acquired, 'D' disposed. */
  acquiredDisposed: 'A' | 'D' | null;
  sharesAfter: number | null;
  /** 'D' direct, 'I' indirect. */
  ownership: 'D' | 'I' | null;
  /** shares × price when both are given. */
  value: number | null;
  footnoteIds: string[];
}

export interface OwnershipForm {
  documentType: string;
  periodOfReport: string | null;
  issuer: { cik: number | null; name: string; ticker: string | null };
  owners: ReportingOwner[];
  transactions: Transaction[];
  footnotes: Array<{ id: string; text: string }>;
}

const ARRAYS = new Set([
  'reportingOwner',
  'nonDerivativeTransaction',
  'derivativeTransaction',
  'footnote',
  'footnoteId',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
});

type Node = Record<string, unknown> | string | undefined;

function child(n: Node, ...path: string[]): Node {
  let cur: unknown = n;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur as Node;
}

/** A leaf's text; `<x><value>…</value></x>` and `<x>…</x>` alike. */
function str(n: Node): string | null {
  if (n === undefined) return null;
  if (typeof n === 'string') return n === '' ? null : n;
  if (typeof n === 'number') return String(n);
  const v = n.value ?? n['#text'];
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
}

function num(n: Node): number | null {
  const s = str(n);
  if (s === null) return null;
  const v = Number(s.replace(/,/g, ''));
  return Number.isFinite(v) ? v : null;
}

function flag(n: Node): boolean {
  const s = str(n)?.toLowerCase();
  return s === '1' || s === 'true';
}

function footnoteIds(n: Node): string[] {
  const ids: string[] = [];
  const walk = (x: unknown) => {
    if (x === null || typeof x !== 'object') return;
    for (const [k, v] of Object.entries(x)) {
      if (k === 'footnoteId' && Array.isArray(v)) {
        for (const f of v) {
          const id = (f as Record<string, unknown>)['@id'];
          if (typeof id === 'string') ids.push(id);
        }
      } else walk(v);
    }
  };
  walk(n);
  return [...new Set(ids)];
}

function transaction(t: Node, table: Transaction['table']): Transaction {
  const code = str(child(t, 'transactionCoding', 'transactionCode')) ?? '';
  const shares = num(child(t, 'transactionAmounts', 'transactionShares'));
  const price = num(child(t, 'transactionAmounts', 'transactionPricePerShare'));
  const ad = str(child(t, 'transactionAmounts', 'transactionAcquiredDisposedCode'));
  const own = str(child(t, 'ownershipNature', 'directOrIndirectOwnership'));
  return {
    table,
    security: str(child(t, 'securityTitle')) ?? '',
    date: str(child(t, 'transactionDate'))?.slice(0, 10) ?? null,
    code,
    codeMeaning: TRANSACTION_CODES[code] ?? 'unknown code',
    shares,
    price,
    acquiredDisposed: ad === 'A' || ad === 'D' ? ad : null,
    sharesAfter: num(child(t, 'postTransactionAmounts', 'sharesOwnedFollowingTransaction')),
    ownership: own === 'D' || own === 'I' ? own : null,
    value: shares !== null && price !== null ? Math.round(shares * price * 100) / 100 : null,
    footnoteIds: footnoteIds(t),
  };
}

/** The form, or undefined when the text is not an ownershipDocument. */
export function parseOwnership(xml: string): OwnershipForm | undefined {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch {
    return undefined;
  }
  const d = child(doc as Node, 'ownershipDocument');
  if (d === undefined || typeof d === 'string') return undefined;
  const list = (n: unknown): Node[] => (Array.isArray(n) ? (n as Node[]) : []);
  const owners = list(d.reportingOwner).map((o): ReportingOwner => {
    const rel = child(o, 'reportingOwnerRelationship');
    const cik = num(child(o, 'reportingOwnerId', 'rptOwnerCik'));
    return {
      cik,
      name: str(child(o, 'reportingOwnerId', 'rptOwnerName')) ?? '',
      isDirector: flag(child(rel, 'isDirector')),
      isOfficer: flag(child(rel, 'isOfficer')),
      officerTitle: str(child(rel, 'officerTitle')),
      isTenPercentOwner: flag(child(rel, 'isTenPercentOwner')),
      isOther: flag(child(rel, 'isOther')),
      otherText: str(child(rel, 'otherText')),
    };
  });
  return {
    documentType: str(d.documentType as Node) ?? '',
    periodOfReport: str(d.periodOfReport as Node),
    issuer: {
      cik: num(child(d, 'issuer', 'issuerCik')),
      name: str(child(d, 'issuer', 'issuerName')) ?? '',
      ticker: str(child(d, 'issuer', 'issuerTradingSymbol')),
    },
    owners,
    transactions: [
      ...list(child(d, 'nonDerivativeTable', 'nonDerivativeTransaction')).map((t) =>
        transaction(t, 'non-derivative')
      ),
      ...list(child(d, 'derivativeTable', 'derivativeTransaction')).map((t) =>
        transaction(t, 'derivative')
      ),
    ],
    footnotes: list(child(d, 'footnotes', 'footnote')).map((f) => ({
      id: typeof f === 'object' ? scalar(f['@id']) : '',
      text: typeof f === 'object' ? scalar(f['#text']) : String(f ?? ''),
    })),
  };
}

/** How a person relates to the issuer, in words: "Director, CEO", "10% owner". */
export function relationship(o: OwnerRelationship): string {
  const r: string[] = [];
  if (o.isDirector) r.push('Director');
  if (o.isOfficer) r.push(o.officerTitle ?? 'Officer');
  if (o.isTenPercentOwner) r.push('10% owner');
  if (o.isOther) r.push(o.otherText ?? 'Other');
  return r.join(', ');
}
