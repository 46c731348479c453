// The SEC EDGAR client every SEC-backed agent uses (sec-filings, insider-trades, companies): its three
// hosts, one User-Agent that names a contact (the SEC answers 403 without one), and ONE token
// bucket per node shared by all of them, at most SEC_REQUESTS_PER_SECOND with a one-second burst,
// since the SEC's fair-access limit (10 requests per second) counts every request from the host.
import type { AgentContext } from '../../types.js';
import { fail } from '../../actions.js';
import { Upstream } from '../upstream.js';
import { upstreamOptions } from '../settings.js';

export const SEC_SOURCE = 'SEC EDGAR';
export const EFTS_SOURCE = 'SEC EDGAR full-text search';

export interface SecClient {
  /** www.sec.gov: company_tickers.json, the Archives, the getcurrent feed. */
  www: Upstream;
  /** data.sec.gov: submissions. */
  data: Upstream;
  /** efts.sec.gov/LATEST: full-text search. */
  efts: Upstream;
  /** The public site, for links shown to people (never the configured fixture). */
  readonly site: string;
}

/** An email address somewhere in the User-Agent: what the SEC asks of every client. */
const CONTACT = /[^\s<>()@]+@[^\s<>()@]+\.[a-z]{2,}/i;

/** The bucket's key: one per node, so the limit holds for everything this host sends the SEC. */
export function secBucket(nodeId: string): string {
  return `sec@${nodeId}`;
}

export function secClient(ctx: AgentContext): SecClient {
  const p = ctx.config.publicData;
  const userAgent = p.sec.userAgent ?? p.userAgent;
  if (!CONTACT.test(userAgent)) {
    fail(
      'not configured: set SEC_USER_AGENT (or PUBLIC_DATA_USER_AGENT) to a name and a contact ' +
        'email, e.g. "Example Research ops@example.org"; the SEC refuses requests without one'
    );
  }
  const make = (url: string, setting: string, source: string) =>
    new Upstream({
      ...upstreamOptions(
        ctx,
        { url, requestsPerMinute: p.sec.requestsPerSecond * 60 },
        { source, bucket: secBucket(ctx.config.nodeId), urlSetting: setting }
      ),
      burst: p.sec.requestsPerSecond,
      userAgent,
    });
  return {
    www: make(p.sec.url, 'SEC_URL', SEC_SOURCE),
    data: make(p.sec.dataUrl, 'SEC_DATA_URL', SEC_SOURCE),
    efts: make(p.sec.eftsUrl, 'SEC_EFTS_URL', EFTS_SOURCE),
    site: 'https://www.sec.gov',
  };
}

/** A CIK as EDGAR's file names want it: ten digits. */
export function cik10(cik: number | string): string {
  return String(Number(cik)).padStart(10, '0');
}

/** 0000320193-24-000123 → 000032019324000123, the folder name in the Archives. */
export function accessionFolder(accession: string): string {
  return accession.replace(/-/g, '');
}

/** Where people read a filing: its folder in the Archives. */
export function filingUrl(site: string, cik: number, accession: string): string {
  return `${site}/Archives/edgar/data/${cik}/${accessionFolder(accession)}/`;
}

export function documentUrl(site: string, cik: number, accession: string, doc: string): string {
  return `${filingUrl(site, cik, accession)}${doc}`;
}

/** A JSON scalar as text ('' for anything else): EDGAR's answers are untyped. */
export function scalar(v: unknown): string {
  return typeof v === 'string'
    ? v
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : '';
}
