// lobbying (agent-lobbying): U.S. federal lobbying disclosures from the LDA API at lda.gov: search
// of what filings say they lobbied on, a company's lobbying, an issue area, and the top spenders
// over the filings read, with the period and the number of filings said (data-sources.md §0).
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import { recordFilings } from './entities.js';
import { issueLabel } from './issues.js';
import { PAGE_SIZE, SOURCE, searchFilings, type Filing, type FilingQuery } from './lda.js';
import {
  CompanyInput,
  IssueInput,
  SearchInput,
  TopSpendersInput,
  companyFromText,
  issueFromText,
  searchFromText,
  topSpendersFromText,
} from './parse.js';
import { renderCompany, renderFilings, renderSpenders, windowLabel } from './render.js';
import { spending } from './spend.js';

function upstream(ctx: AgentContext): Upstream {
  const s = ctx.config.publicData.lobbying;
  return new Upstream(
    upstreamOptions(ctx, s, {
      source: SOURCE,
      bucket: 'lda',
      urlSetting: 'LOBBYING_URL',
      ...(s.apiKey !== undefined ? { secretHeaders: { authorization: `Token ${s.apiKey}` } } : {}),
    })
  );
}

/** Every filing the hub may read for one answer: its page bound times LDA's page size. */
function readable(ctx: AgentContext): number {
  return ctx.config.publicData.maxPages * PAGE_SIZE;
}

async function read(ctx: AgentContext, q: FilingQuery, max: number) {
  const page = await searchFilings(upstream(ctx), q, max, ctx.config.publicData.maxPages);
  await recordFilings(ctx, page.filings, page.provenance);
  return page;
}

/** The last full calendar year: the current one is still being filed. */
export function lastFullYear(now = new Date()): number {
  return now.getUTCFullYear() - 1;
}

function words(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export default definePublicDataAgent({
  id: 'agent-lobbying',
  alias: 'lobbying',
  name: 'Lobbying Disclosures',
  description:
    'U.S. federal lobbying disclosures (LD-1/LD-2 filings) from the Lobbying Disclosure Act API ' +
    'at lda.gov: search what filings say they lobbied on, a company’s lobbying and spending, ' +
    'filings in an issue area (healthcare, taxation, defense…), and the top lobbying spenders ' +
    'of a year. Text or JSON with the source of every answer.',
  tags: [
    'lobbying',
    'lobbyists',
    'lobbying disclosure',
    'lda',
    'influence',
    'congress',
    'political spending',
    'government affairs',
  ],
  skills: [
    skill({
      id: 'top-spenders',
      name: 'Top lobbying spenders',
      description:
        'The clients that reported the most lobbying income or expenses in a year (optionally a ' +
        'quarter and an issue area), summed over the filings read, with the number of filings.',
      tags: ['top spenders', 'spending', 'ranking'],
      examples: [
        'top lobbying spenders on healthcare in 2025',
        '{"skill": "top-spenders", "year": 2025, "issue": "HCR", "limit": 5}',
      ],
      input: TopSpendersInput,
      fromText: topSpendersFromText,
      async run(input, _req, ctx) {
        const year = input.year ?? lastFullYear();
        const r = await read(
          ctx,
          { year, period: input.period, issueCode: input.issue },
          readable(ctx)
        );
        const filings = input.issue
          ? r.filings.filter((f) => f.issues.some((i) => i.code === input.issue))
          : r.filings;
        const s = spending(filings);
        const limit = input.limit ?? DEFAULT_LIMIT;
        const when = windowLabel(year, input.period);
        const what = `${input.issue ? `on ${issueLabel(input.issue)} ` : ''}in ${when}`;
        return {
          text: renderSpenders(what, s, r.total, limit),
          data: {
            year,
            period: input.period ?? null,
            issue: input.issue ?? null,
            filingsListed: r.total,
            filingsRead: s.filingsRead,
            amendmentsFolded: s.amendmentsFolded,
            reportsWithoutAmount: s.withoutAmount,
            complete: r.total <= s.filingsRead,
            totalReported: s.total,
            results: s.spenders.slice(0, limit),
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'company',
      name: 'Company lobbying',
      description:
        'A company’s lobbying as a client: its filings, the firms it hired or its in-house ' +
        'reports, the issues, and what it reported spending over the filings read.',
      tags: ['company', 'client', 'spending'],
      examples: [
        'Pfizer lobbying in 2025',
        '{"skill": "company", "company": "Pfizer", "year": 2025}',
      ],
      input: CompanyInput,
      fromText: companyFromText,
      async run(input, _req, ctx) {
        const r = await read(ctx, { clientName: input.company, year: input.year }, readable(ctx));
        const s = spending(r.filings);
        const shown = r.filings.slice(0, input.limit ?? DEFAULT_LIMIT);
        const when = windowLabel(input.year, undefined);
        return {
          text: renderCompany(input.company, when, r.filings, shown, r.total, s),
          data: {
            company: input.company,
            year: input.year ?? null,
            filingsListed: r.total,
            filingsRead: s.filingsRead,
            amendmentsFolded: s.amendmentsFolded,
            complete: r.total <= s.filingsRead,
            totalReported: s.total,
            clients: s.spenders,
            results: shown,
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'issue',
      name: 'Lobbying on an issue',
      description:
        'Filings in one of LDA’s general issue areas (HCR health, TAX taxation, DEF defense, IMM ' +
        'immigration…), newest first, with what each says it lobbied on.',
      tags: ['issue', 'policy area', 'topic'],
      examples: [
        'who lobbies on immigration in 2025',
        '{"skill": "issue", "issue": "TAX", "year": 2024}',
      ],
      input: IssueInput,
      fromText: issueFromText,
      async run(input, _req, ctx) {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const r = await read(
          ctx,
          { issueCode: input.issue, year: input.year, period: input.period },
          limit
        );
        // DRF ignores a filter it does not know: each filing is checked for the area too.
        const filings = r.filings.filter((f) => f.issues.some((i) => i.code === input.issue));
        const heading = `${issueLabel(input.issue)}, ${windowLabel(input.year, input.period)}`;
        const focus = (f: Filing) => f.issues.find((i) => i.code === input.issue)?.description;
        return {
          text: renderFilings(heading, filings, r.total, focus),
          data: {
            issue: input.issue,
            year: input.year ?? null,
            period: input.period ?? null,
            total: r.total,
            results: filings,
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search lobbying filings',
      description:
        'Filings whose specific lobbying issues mention the words (a bill, a program, a topic), ' +
        'newest first.',
      tags: ['search', 'bill', 'keyword'],
      examples: [
        'lobbying on drone delivery',
        '{"skill": "search", "query": "H.R. 1", "year": 2025}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const r = await read(
          ctx,
          { specificIssues: input.query, year: input.year },
          input.limit ?? DEFAULT_LIMIT
        );
        const asked = words(input.query);
        const focus = (f: Filing) =>
          f.issues.find((i) => asked.every((w) => i.description.toLowerCase().includes(w)))
            ?.description;
        const heading = `“${input.query}”${input.year ? `, ${input.year}` : ''}`;
        return {
          text: renderFilings(heading, r.filings, r.total, focus),
          data: {
            query: input.query,
            year: input.year ?? null,
            total: r.total,
            results: r.filings,
          },
          provenance: r.provenance,
        };
      },
    }),
  ],
});
