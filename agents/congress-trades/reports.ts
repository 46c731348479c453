// Trades from both chambers for one request: the filings of the window (House yearly indexes,
// Senate eFD search), newest first, read up to CONGRESS_MAX_REPORTS, their rows filtered. What was
// not read (past the bound, scans, paper filings) is counted and named, never guessed at.
import type { AgentContext } from '../kit/index.js';
import { Upstream, upstreamOptions, words, type Provenance } from '../kit/public-data/index.js';
import { HOUSE, houseFilings, readHousePtr } from './house.js';
import { CHAMBERS, type Chamber, type Filing, type ReadStatus, type Trade } from './model.js';
import { SENATE, SenateClient } from './senate.js';

export interface Scope {
  chamber?: Chamber | undefined;
  /** YYYY-MM-DD, inclusive, on the filing date. */
  from: string;
  to: string;
  member?: string | undefined;
}

export interface TradeFilter {
  ticker?: string | undefined;
  type?: 'purchase' | 'sale' | 'exchange' | undefined;
  /** Words that must all appear in the asset, ticker or member. */
  query?: string | undefined;
}

export interface ReadReport {
  chamber: Chamber;
  member: string;
  filed: string;
  url: string;
  status: ReadStatus;
  rows: number;
}

export interface Collected {
  trades: Trade[];
  /** Filings in the window (for the member, when one is asked). */
  found: number;
  read: ReadReport[];
  provenance: Provenance[];
}

/** How many reports are read at once. */
const PARALLEL = 4;

const TITLES =
  /\b(?:hon|the|senator|sen|representative|rep|congressman|congresswoman|mr|mrs|ms|dr)\b\.?/gi;

export function memberWords(name: string): string[] {
  return words(name.replace(TITLES, ' '));
}

/** Every word asked is the start of a word of the member's first or last name. */
export function isMember(f: Filing, asked: readonly string[]): boolean {
  const have = words(`${f.first} ${f.last}`);
  return asked.every((w) => have.some((h) => h.startsWith(w)));
}

function upstreams(ctx: AgentContext) {
  const c = ctx.config.publicData.congress;
  return {
    house: new Upstream(
      upstreamOptions(ctx, c.house, {
        source: HOUSE,
        bucket: 'house-clerk',
        urlSetting: 'CONGRESS_HOUSE_URL',
      })
    ),
    senate: new SenateClient(
      new Upstream(
        upstreamOptions(ctx, c.senate, {
          source: SENATE,
          bucket: 'senate-efd',
          urlSetting: 'CONGRESS_SENATE_URL',
        })
      ),
      c.senate.url.replace(/\/+$/, '')
    ),
  };
}

export async function collect(
  ctx: AgentContext,
  scope: Scope,
  filter: TradeFilter
): Promise<Collected> {
  const up = upstreams(ctx);
  const c = ctx.config.publicData.congress;
  const asked = scope.member ? memberWords(scope.member) : [];
  const chambers = scope.chamber ? [scope.chamber] : CHAMBERS;
  const provenance: Provenance[] = [];

  const lists = await Promise.all(
    chambers.map(async (chamber): Promise<Filing[]> => {
      if (chamber === 'house') {
        const years = yearsOf(scope.from, scope.to);
        const all: Filing[] = [];
        for (const y of years) {
          const r = await houseFilings(up.house, c.house.url, y);
          provenance.push(...r.provenance);
          all.push(...r.value);
        }
        return all;
      }
      const r = await up.senate.filings(
        { from: scope.from, to: scope.to, lastName: asked.at(-1) },
        ctx.config.publicData.maxPages
      );
      provenance.push(...r.provenance);
      return r.value;
    })
  );
  const filings = lists
    .flat()
    .filter((f) => f.filed >= scope.from && f.filed <= scope.to)
    .filter((f) => asked.length === 0 || isMember(f, asked))
    .sort((a, b) => b.filed.localeCompare(a.filed) || a.member.localeCompare(b.member));

  const chosen = filings.slice(0, c.maxReports);
  const results = await inBatches(chosen, PARALLEL, (f) =>
    f.chamber === 'house' ? readHousePtr(up.house, f) : up.senate.read(f)
  );
  const trades: Trade[] = [];
  const read: ReadReport[] = [];
  chosen.forEach((f, i) => {
    const r = results[i]!;
    provenance.push(...r.provenance);
    read.push({
      chamber: f.chamber,
      member: f.member,
      filed: f.filed,
      url: f.url,
      status: r.value.status,
      rows: r.value.rows.length,
    });
    for (const row of r.value.rows) {
      trades.push({
        ...row,
        chamber: f.chamber,
        member: f.member,
        state: f.state,
        filed: f.filed,
        reportId: f.id,
        reportUrl: f.url,
      });
    }
  });
  return {
    trades: trades.filter((t) => matches(t, filter)).sort(newestTrade),
    found: filings.length,
    read,
    provenance,
  };
}

function matches(t: Trade, f: TradeFilter): boolean {
  if (f.ticker !== undefined && t.ticker?.toUpperCase() !== f.ticker) return false;
  if (f.type === 'purchase' && t.type !== 'purchase') return false;
  if (f.type === 'sale' && t.type !== 'sale' && t.type !== 'partial sale') return false;
  if (f.type === 'exchange' && t.type !== 'exchange') return false;
  if (f.query !== undefined) {
    const have = words(`${t.asset} ${t.ticker ?? ''} ${t.member} ${t.assetType ?? ''}`);
    if (!words(f.query).every((w) => have.some((h) => h.startsWith(w)))) return false;
  }
  return true;
}

function newestTrade(a: Trade, b: Trade): number {
  return (b.date ?? '').localeCompare(a.date ?? '') || b.filed.localeCompare(a.filed);
}

function yearsOf(from: string, to: string): number[] {
  const years: number[] = [];
  for (let y = Number(to.slice(0, 4)); y >= Number(from.slice(0, 4)); y--) years.push(y);
  return years;
}

async function inBatches<T, R>(items: T[], n: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += n) {
    out.push(...(await Promise.all(items.slice(i, i + n).map(f))));
  }
  return out;
}
