// sec-filings (agent-sec-filings): SEC EDGAR filings: full-text search, a company's filings (by
// name, ticker or CIK), one filing's detail, and its executives from its proxy and ownership forms.
import type { AgentContext } from '../kit/index.js';
import { DEFAULT_LIMIT, definePublicDataAgent, skill } from '../kit/public-data/index.js';
import {
  executivesOf,
  filingIndex,
  filingsOf,
  findCompany,
  fullTextSearch,
  secClient,
  submissions,
} from '../kit/public-data/sec/index.js';
import { notFound, resolve } from './company.js';
import {
  ExecutivesInput,
  FilingInput,
  FilingsInput,
  SearchInput,
  executivesFromText,
  filingFromText,
  filingsFromText,
  searchFromText,
} from './parse.js';
import { renderExecutives, renderFiling, renderFilings, renderSearch } from './render.js';

/** Ownership filings read for executives: each is one request. */
export const EXECUTIVE_FORMS = 15;

const maxPages = (ctx: AgentContext) => ctx.config.publicData.maxPages;

export default definePublicDataAgent({
  id: 'agent-sec-filings',
  alias: 'sec-filings',
  name: 'SEC Filings',
  description:
    'SEC EDGAR filings of U.S. public companies: full-text search of filings, a company’s ' +
    'filings by name, ticker or CIK (10-K, 10-Q, 8-K, proxy…), one filing’s detail and documents, ' +
    'and a company’s executives from its proxy and insider forms. Text or JSON with the source ' +
    'of every answer.',
  tags: [
    'sec',
    'edgar',
    'filings',
    '10-k',
    '10-q',
    '8-k',
    'annual report',
    'public companies',
    'executives',
  ],
  skills: [
    skill({
      id: 'filing',
      name: 'Filing detail',
      description:
        'One filing by its accession number: form, filer, dates, items and its documents.',
      tags: ['accession', 'filing index', 'documents'],
      examples: [
        'filing 0000320193-25-000079',
        '{"skill": "filing", "accession": "0000320193-25-000079"}',
      ],
      input: FilingInput,
      fromText: filingFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const provenance = [];
        // The accession's first ten digits are the filer's CIK unless an agent filed it for them.
        let cik = Number(input.accession.slice(0, 10));
        if (input.company !== undefined) {
          const m = await findCompany(sec, input.company);
          provenance.push(...m.provenance);
          if (m.best !== undefined) cik = m.best.cik;
        }
        const index = await filingIndex(sec, cik, input.accession);
        if (index !== undefined) provenance.push(index.provenance);
        if (index === undefined) {
          return {
            text:
              `🏛️ EDGAR has no filing ${input.accession} under CIK ${cik}` +
              (input.company === undefined ? ' (name the company if an agent filed it)' : '') +
              '.',
            data: { accession: input.accession, cik, filing: null, files: [] },
            provenance,
          };
        }
        const subs = await submissions(sec, cik);
        if (subs !== undefined) provenance.push(subs.provenance);
        const filing = subs?.recent.find((f) => f.accession === input.accession);
        return {
          text: renderFiling(input.accession, subs?.profile, filing, index.files, index.url),
          data: {
            accession: input.accession,
            cik,
            filer: subs?.profile ?? null,
            filing: filing ?? null,
            files: index.files,
            url: index.url,
          },
          provenance,
        };
      },
    }),
    skill({
      id: 'executives',
      name: 'Executives',
      description:
        'A company’s executives and directors: the principal executive officer its latest proxy ' +
        'tags, and the officers and directors of its latest insider forms, each with its source.',
      tags: ['executives', 'officers', 'directors', 'ceo', 'management'],
      examples: ['who are Apple’s executives', '{"skill": "executives", "company": "AAPL"}'],
      input: ExecutivesInput,
      fromText: executivesFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const r = await resolve(sec, input.company);
        if (r.subs === undefined) {
          return {
            text: notFound(input.company),
            data: { company: input.company, cik: null, executives: [], proxy: null },
            provenance: r.provenance,
          };
        }
        const found = await executivesOf(sec, r.subs, EXECUTIVE_FORMS);
        const peo = found.proxy?.peo ?? [];
        const proxyNote =
          found.proxy === null
            ? 'No proxy statement (DEF 14A) among its recent filings.'
            : `Its latest proxy (DEF 14A filed ${found.proxy.filing.filingDate}) tags no ecd:PeoName.`;
        return {
          text: renderExecutives(r.subs.profile, found.executives, peo, proxyNote, found.formsRead),
          data: {
            company: input.company,
            cik: r.subs.profile.cik,
            name: r.subs.profile.name,
            proxy:
              found.proxy === null
                ? null
                : {
                    accession: found.proxy.filing.accession,
                    filed: found.proxy.filing.filingDate,
                    url: found.proxy.filing.documentUrl,
                    peo,
                  },
            executives: found.executives,
            ownershipFormsRead: found.formsRead,
          },
          provenance: [...r.provenance, ...found.provenance],
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Full-text search',
      description:
        'Filings whose text matches words or a "quoted phrase", optionally by form, company and dates.',
      tags: ['full-text search', 'efts', 'phrase'],
      examples: [
        'search filings mentioning "supply chain disruption" in 10-K',
        '{"skill": "search", "query": "\\"going concern\\"", "forms": ["10-K"]}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const provenance = [];
        let ciks: number[] | undefined;
        if (input.company !== undefined) {
          const m = await findCompany(sec, input.company);
          provenance.push(...m.provenance);
          if (m.best === undefined) {
            return {
              text: notFound(input.company),
              data: { query: input.query, total: 0, results: [] },
              provenance,
            };
          }
          ciks = [m.best.cik];
        }
        const r = await fullTextSearch(sec, {
          q: input.query,
          forms: input.forms,
          from: input.from,
          to: input.to,
          ciks,
          limit: input.limit ?? DEFAULT_LIMIT,
        });
        return {
          text: renderSearch(input.query, r.total, r.hits),
          data: { query: input.query, forms: input.forms ?? [], total: r.total, results: r.hits },
          provenance: [...provenance, ...r.provenance],
        };
      },
    }),
    skill({
      id: 'filings',
      name: 'Company filings',
      description:
        'A company’s filings by name, ticker or CIK, newest first, optionally of some forms and dates.',
      tags: ['company filings', 'submissions', 'ticker', 'cik'],
      examples: [
        'Apple’s last 10-K',
        '{"skill": "filings", "company": "TSLA", "forms": ["8-K"], "limit": 5}',
      ],
      input: FilingsInput,
      fromText: filingsFromText,
      async run(input, _req, ctx) {
        const sec = secClient(ctx);
        const r = await resolve(sec, input.company);
        if (r.subs === undefined) {
          return {
            text: notFound(input.company),
            data: { company: input.company, cik: null, results: [] },
            provenance: r.provenance,
          };
        }
        const forms = input.forms?.map((f) => f.toUpperCase()) ?? [];
        const list = await filingsOf(sec, r.subs, {
          forms,
          from: input.from,
          to: input.to,
          limit: input.limit ?? DEFAULT_LIMIT,
          maxPages: maxPages(ctx),
        });
        return {
          text: renderFilings(r.subs.profile, forms, list.filings, list.truncated, r.others),
          data: {
            company: input.company,
            cik: r.subs.profile.cik,
            profile: r.subs.profile,
            forms,
            olderPagesUnread: list.truncated,
            results: list.filings,
          },
          provenance: [...r.provenance, ...list.provenance],
        };
      },
    }),
  ],
});
