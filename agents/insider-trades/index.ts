// insider-trades (agent-insider-trades): insider transactions from SEC Form 4 XML: by stock, by
// insider, monthly buy/sell sentiment, and the latest filings across EDGAR.
import {
  DEFAULT_LIMIT,
  definePublicDataAgent,
  skill,
  type Provenance,
} from '../kit/public-data/index.js';
import {
  filingUrl,
  filingsOf,
  findCompany,
  secClient,
  submissions,
  type Filing,
} from '../kit/public-data/sec/index.js';
import { latestForm4s, rawXmlOf } from './feed.js';
import { findInsider } from './insider.js';
import {
  InsiderInput,
  RecentInput,
  SentimentInput,
  StockInput,
  insiderFromText,
  recentFromText,
  sentimentFromText,
  stockFromText,
} from './parse.js';
import { METHOD, renderSentiment, renderTrades } from './render.js';
import { FORM4, monthlySentiment, monthsBetween, tradesOf, type Trade } from './trades.js';

/** Form 4 filings read for one sentiment answer at most (each is one request). */
export const SENTIMENT_MAX_FILINGS = 40;
export const DEFAULT_MONTHS = 12;

const keep = (codes: readonly string[] | undefined) => (t: Trade) =>
  codes === undefined || codes.length === 0 || codes.includes(t.code);

function notFound(what: string): string {
  return `🕵️ SEC EDGAR lists no ${what}. Give a ticker, an exact name or a CIK.`;
}

export default definePublicDataAgent({
  id: 'agent-insider-trades',
  alias: 'insider-trades',
  name: 'Insider Trades',
  description:
    'Insider trading from SEC Form 4 filings: the trades of a company’s officers, directors and ' +
    '10% owners (by stock), one insider’s trades, monthly insider buying vs selling, and the ' +
    'latest Form 4s on EDGAR. Codes, shares, prices and holdings as filed; text or JSON with sources.',
  tags: ['insider trading', 'form 4', 'sec', 'edgar', 'insiders', 'stock', 'buying', 'selling'],
  skills: [
    skill({
      id: 'sentiment',
      name: 'Monthly insider sentiment',
      description:
        'Insider open-market buys vs sells of a stock per month, by count and value, with the method.',
      tags: ['sentiment', 'buying vs selling', 'monthly'],
      examples: [
        'insider sentiment for AAPL',
        '{"skill": "sentiment", "company": "TSLA", "months": 6}',
      ],
      input: SentimentInput,
      fromText: sentimentFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const m = await findCompany(sec, input.company);
        const provenance: Provenance[] = [...m.provenance];
        const subs = m.best === undefined ? undefined : await submissions(sec, m.best.cik);
        if (subs !== undefined) provenance.push(subs.provenance);
        if (subs === undefined) {
          return {
            text: notFound(`company “${input.company}”`),
            data: { company: input.company, months: [] },
            provenance,
          };
        }
        const now = new Date(ctx.now());
        const n = input.months ?? DEFAULT_MONTHS;
        const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (n - 1), 1));
        const from = start.toISOString().slice(0, 10);
        const list = await filingsOf(sec, subs, {
          forms: FORM4,
          from,
          limit: SENTIMENT_MAX_FILINGS + 1,
          maxPages: ctx.config.publicData.maxPages,
        });
        const truncated = list.filings.length > SENTIMENT_MAX_FILINGS || list.truncated;
        const read = await tradesOf(
          sec,
          subs.profile.cik,
          list.filings.slice(0, SENTIMENT_MAX_FILINGS)
        );
        const months = monthlySentiment(
          read.trades,
          monthsBetween(from.slice(0, 7), now.toISOString().slice(0, 7))
        );
        return {
          text: renderSentiment(
            `${subs.profile.name} (CIK ${subs.profile.cik})`,
            months,
            read.filingsRead,
            truncated
          ),
          data: {
            company: input.company,
            cik: subs.profile.cik,
            name: subs.profile.name,
            from,
            method: METHOD,
            filingsRead: read.filingsRead,
            truncated,
            months,
          },
          provenance: [...provenance, ...list.provenance, ...read.provenance],
        };
      },
    }),
    skill({
      id: 'insider',
      name: 'Trades by insider',
      description:
        'One insider’s Form 4 trades across the companies they report for, by name or CIK.',
      tags: ['insider', 'officer', 'director', 'person'],
      examples: ['trades by Timothy Cook', '{"skill": "insider", "insider": "1214156"}'],
      input: InsiderInput,
      fromText: insiderFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const found = await findInsider(sec, input.insider);
        const provenance: Provenance[] = [...found.provenance];
        const subs =
          found.person === undefined ? undefined : await submissions(sec, found.person.cik);
        if (subs !== undefined) provenance.push(subs.provenance);
        if (subs === undefined) {
          return {
            text: notFound(`insider “${input.insider}” among Form 4 reporting owners`),
            data: { insider: input.insider, cik: null, results: [] },
            provenance,
          };
        }
        const list = await filingsOf(sec, subs, {
          forms: FORM4,
          limit: input.limit ?? DEFAULT_LIMIT,
          maxPages: ctx.config.publicData.maxPages,
        });
        const read = await tradesOf(sec, subs.profile.cik, list.filings);
        const trades = read.trades.filter(keep(input.codes));
        return {
          text: renderTrades(
            `🕵️ Insider trades by ${subs.profile.name} (CIK ${subs.profile.cik})`,
            trades,
            read.filingsRead,
            read.unreadable
          ),
          data: {
            insider: input.insider,
            cik: subs.profile.cik,
            name: subs.profile.name,
            otherMatches: found.others,
            filingsRead: read.filingsRead,
            results: trades,
          },
          provenance: [...provenance, ...list.provenance, ...read.provenance],
        };
      },
    }),
    skill({
      id: 'recent',
      name: 'Latest insider filings',
      description: 'The latest Form 4 filings on EDGAR, across all companies, with their trades.',
      tags: ['latest', 'recent', 'feed'],
      examples: ['latest insider trades', '{"skill": "recent", "limit": 5}'],
      input: RecentInput,
      fromText: recentFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const feed = await latestForm4s(sec);
        const provenance: Provenance[] = [feed.provenance];
        const wanted = feed.filings.slice(0, input.limit ?? DEFAULT_LIMIT);
        const trades: Trade[] = [];
        const unreadable: string[] = [];
        for (const f of wanted) {
          // The issuer's folder when the feed names it, else the first filer's.
          const filer = f.filers.find((x) => x.role === 'Issuer') ?? f.filers[0]!;
          const xml = await rawXmlOf(sec, filer.cik, f.accession);
          if (xml.provenance !== undefined) provenance.push(xml.provenance);
          if (xml.name === undefined) {
            unreadable.push(f.accession);
            continue;
          }
          const filing: Filing = {
            accession: f.accession,
            form: f.form,
            filingDate: f.updated.slice(0, 10),
            reportDate: null,
            acceptedAt: f.updated || null,
            items: null,
            primaryDocument: xml.name,
            description: null,
            isXbrl: false,
            url: filingUrl(sec.site, filer.cik, f.accession),
            documentUrl: null,
          };
          const read = await tradesOf(sec, filer.cik, [filing]);
          provenance.push(...read.provenance);
          trades.push(...read.trades);
          unreadable.push(...read.unreadable);
        }
        return {
          text: renderTrades(
            '🕵️ Latest insider filings on EDGAR',
            trades,
            wanted.length,
            unreadable
          ),
          data: { filingsRead: wanted.length, feedEntries: feed.filings.length, results: trades },
          provenance,
        };
      },
    }),
    skill({
      id: 'stock',
      name: 'Insider trades by stock',
      description:
        'The Form 4 trades of a company’s insiders by ticker, name or CIK, newest filings first; ' +
        'optionally only buys (P) or sales (S).',
      tags: ['stock', 'ticker', 'company', 'form 4'],
      examples: [
        'insider trades at AAPL',
        '{"skill": "stock", "company": "TSLA", "codes": ["P"], "limit": 20}',
      ],
      input: StockInput,
      fromText: stockFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const m = await findCompany(sec, input.company);
        const provenance: Provenance[] = [...m.provenance];
        const subs = m.best === undefined ? undefined : await submissions(sec, m.best.cik);
        if (subs !== undefined) provenance.push(subs.provenance);
        if (subs === undefined) {
          return {
            text: notFound(`company “${input.company}”`),
            data: { company: input.company, cik: null, results: [] },
            provenance,
          };
        }
        const list = await filingsOf(sec, subs, {
          forms: FORM4,
          from: input.from,
          to: input.to,
          limit: input.limit ?? DEFAULT_LIMIT,
          maxPages: ctx.config.publicData.maxPages,
        });
        const read = await tradesOf(sec, subs.profile.cik, list.filings);
        const trades = read.trades.filter(keep(input.codes));
        return {
          text: renderTrades(
            `🕵️ Insider trades at ${subs.profile.name} (CIK ${subs.profile.cik}${subs.profile.tickers.length ? `, ${subs.profile.tickers.join('/')}` : ''})`,
            trades,
            read.filingsRead,
            read.unreadable
          ),
          data: {
            company: input.company,
            cik: subs.profile.cik,
            name: subs.profile.name,
            filingsRead: read.filingsRead,
            results: trades,
          },
          provenance: [...provenance, ...list.provenance, ...read.provenance],
        };
      },
    }),
  ],
});
