// A House periodic transaction report (PTR) PDF read as text (data-sources.md "congress-trades"):
// the e-filed form's rows "[SP|JT|DC] Asset (TICKER) [ST] P 01/05/2026 01/10/2026 $1,001 - $15,000",
// where the amount range often wraps onto the next line and the asset's name may too. A PDF with
// no text layer is a scan: it is reported as such, never guessed at.
import { getDocumentProxy } from 'unpdf';

/** What a row says; the member and report are added by the caller. */
export interface PtrRow {
  owner: string;
  asset: string;
  ticker: string | null;
  assetType: string | null;
  type: string;
  date: string | null;
  notified: string | null;
  amount: string;
}

export type PtrText =
  | { kind: 'text'; lines: string[] }
  /** No text layer (or a few stray characters): an image of a paper form. */
  | { kind: 'scanned'; pages: number };

/** Fewer letters than this in the whole document means there is no text layer to read. */
const MIN_LETTERS = 20;

/**
 * The PDF's text as lines, top to bottom: pdf.js gives positioned runs, and a row of the form is
 * the runs sharing a baseline, left to right.
 */
export async function pdfLines(bytes: Uint8Array): Promise<PtrText> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const lines: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const rows = new Map<number, Array<{ x: number; s: string }>>();
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [, , , , x, y] = item.transform as number[];
        const key = [...rows.keys()].find((k) => Math.abs(k - y!) < 2) ?? y!;
        const row = rows.get(key) ?? [];
        row.push({ x: x!, s: item.str.trim() });
        rows.set(key, row);
      }
      const ys = [...rows.keys()].sort((a, b) => b - a);
      for (const y of ys) {
        const row = rows.get(y)!.sort((a, b) => a.x - b.x);
        lines.push(row.map((r) => r.s).join(' '));
      }
      page.cleanup();
    }
    const letters = lines.join('').replace(/[^\p{L}]/gu, '').length;
    if (letters < MIN_LETTERS) return { kind: 'scanned', pages: doc.numPages };
    return { kind: 'text', lines };
  } finally {
    await doc.cleanup();
    await doc.loadingTask.destroy();
  }
}

const DATE = String.raw`\d{1,2}\/\d{1,2}\/\d{4}`;
const ROW = new RegExp(
  String.raw`^(?:(SP|JT|DC)\s+)?(.+?)\s+(P|S\s*\(partial\)|S|E)\s+(${DATE})\s+(${DATE})\s*(.*)$`
);
/** The sub-lines under a row: filing status, subholding, description, comments, location. */
const LABEL =
  /^(?:F\s*S|S\s*O|D|C|L|Filing Status|Subholding Of|Description|Comments?|Location)\s*:/i;
/** "$1,001 - $15,000", "$1,001 -" (wrapped), "Over $50,000,000"; a cap-gains box may follow. */
const AMOUNT = /^(?:Over\s+\$[\d,]+|\$[\d,]+(?:\s*-\s*(?:\$[\d,]+)?)?)/i;
const AMOUNT_END = /(\$[\d,]+)\s*$/;
const TYPE_OF: Record<string, string> = {
  P: 'purchase',
  S: 'sale',
  'S (partial)': 'partial sale',
  E: 'exchange',
};
const OWNER_OF: Record<string, string> = { SP: 'spouse', JT: 'joint', DC: 'dependent child' };

/** MM/DD/YYYY → YYYY-MM-DD, or null when it is not a date. */
export function isoDate(us: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(us.trim());
  if (!m) return null;
  return `${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

/** The transaction rows of an e-filed PTR's text lines. */
export function ptrRows(lines: readonly string[]): PtrRow[] {
  const rows: PtrRow[] = [];
  let open: PtrRow | undefined;
  let assetDone = true;
  for (const raw of lines) {
    const line = raw.replace(/\s+/g, ' ').trim();
    const m = ROW.exec(line);
    if (m) {
      open = {
        owner: OWNER_OF[m[1] ?? ''] ?? 'self',
        asset: m[2]!,
        ticker: null,
        assetType: null,
        type: TYPE_OF[m[3]!.replace(/\s+/g, ' ')] ?? m[3]!,
        date: isoDate(m[4]!),
        notified: isoDate(m[5]!),
        amount: (AMOUNT.exec(m[6]!)?.[0] ?? m[6]!).trim(),
      };
      rows.push(open);
      assetDone = /\[[A-Z]{2}\]/.test(open.asset);
      continue;
    }
    if (open === undefined) continue;
    if (/-\s*$/.test(open.amount)) {
      const end = AMOUNT_END.exec(line);
      if (end) {
        open.amount = `${open.amount.trim()} ${end[1]}`;
        const rest = line.slice(0, end.index).trim();
        if (rest !== '' && !LABEL.test(rest) && !assetDone) open.asset += ` ${rest}`;
        continue;
      }
    }
    if (LABEL.test(line)) {
      assetDone = true;
      continue;
    }
    if (!assetDone && !line.startsWith('$')) {
      open.asset += ` ${line}`;
      assetDone = /\[[A-Z]{2}\]/.test(open.asset);
    }
  }
  for (const r of rows) finishAsset(r);
  return rows;
}

/** "Apple Inc. - Common Stock (AAPL) [ST]" → the name, ticker and asset-type code. */
function finishAsset(r: PtrRow): void {
  const type = /\[([A-Z]{2})\]/.exec(r.asset);
  const ticker = /\(([A-Z][A-Z0-9.-]{0,9})\)/.exec(r.asset);
  r.assetType = type?.[1] ?? null;
  r.ticker = ticker?.[1] ?? null;
  r.asset = r.asset
    .replace(/\[[A-Z]{2}\]/, '')
    .replace(/\(([A-Z][A-Z0-9.-]{0,9})\)/, '')
    .replace(/\s+/g, ' ')
    .trim();
  r.amount = r.amount.replace(/\s+/g, ' ').replace(/\s*-\s*/, ' - ');
}
