// rfp-hunter (agent-rfp-hunter): government procurement and funding opportunities from SAM.gov
// (contract notices, key required) and Grants.gov (funding, no key), merged and de-duplicated:
// search, the detail of one, and recent opportunities (data-sources.md §0, "rfp-hunter").
import { fail, type AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
  type Provenance,
} from '../kit/public-data/index.js';
import { grantDetail, searchGrants, type GrantDetail, type GrantsQuery } from './grants-gov.js';
import { GRANTS_GOV, SAM, merge, type Opportunity } from './opportunity.js';
import {
  DetailInput,
  RecentInput,
  SearchInput,
  detailFromText,
  recentFromText,
  searchFromText,
  yearAfter,
  type Source,
} from './parse.js';
import { renderList, renderOpportunity } from './render.js';
import { SamUnavailable, searchSam, type SamQuery } from './sam.js';

function samUpstream(ctx: AgentContext): Upstream | undefined {
  const s = ctx.config.publicData.sam;
  if (s.apiKey === undefined) return undefined;
  return new Upstream(
    upstreamOptions(ctx, s, {
      source: SAM,
      bucket: 'sam',
      urlSetting: 'SAM_URL',
      secretParams: { api_key: s.apiKey },
    })
  );
}

function grantsUpstream(ctx: AgentContext): Upstream {
  return new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.grantsGov, {
      source: GRANTS_GOV,
      bucket: 'grants-gov',
      urlSetting: 'GRANTS_GOV_URL',
    })
  );
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Gathered {
  opportunities: Opportunity[];
  counts: string[];
  totals: Record<string, number>;
  notes: string[];
  provenance: Provenance[];
}

/**
 * Both sources (or the one asked), merged. With both, SAM.gov without a usable key is a note and
 * Grants.gov answers alone; asked alone, it fails the task. Other failures fail the task.
 */
async function gather(
  ctx: AgentContext,
  source: Source,
  sam: SamQuery,
  grants: GrantsQuery,
  limit: number
): Promise<Gathered> {
  const maxPages = ctx.config.publicData.maxPages;
  const samPart =
    source === 'grants'
      ? undefined
      : searchSam(samUpstream(ctx), sam, limit, maxPages).catch((err: unknown) => {
          if (err instanceof SamUnavailable && source === 'all') return err;
          throw err;
        });
  const grantsPart =
    source === 'sam' ? undefined : searchGrants(grantsUpstream(ctx), grants, limit, maxPages);
  const [s, g] = await Promise.all([samPart, grantsPart]);
  const out: Gathered = { opportunities: [], counts: [], totals: {}, notes: [], provenance: [] };
  const lists: Opportunity[][] = [];
  if (s instanceof SamUnavailable) {
    out.notes.push(`${s.message}; showing ${GRANTS_GOV} only`);
  } else if (s !== undefined) {
    lists.push(s.opportunities);
    out.counts.push(`${SAM}: ${s.opportunities.length} solicitations of ${s.total} notices`);
    out.totals[SAM] = s.total;
    out.provenance.push(...s.provenance);
  }
  if (g !== undefined) {
    lists.push(g.opportunities);
    out.counts.push(`${GRANTS_GOV}: ${g.opportunities.length} of ${g.total}`);
    out.totals[GRANTS_GOV] = g.total;
    out.provenance.push(...g.provenance);
  }
  out.opportunities = merge(...lists).slice(0, limit);
  return out;
}

function sourcesLabel(source: Source): string {
  return source === 'sam' ? SAM : source === 'grants' ? GRANTS_GOV : `${SAM} and ${GRANTS_GOV}`;
}

/** SAM.gov's window: `to` (default today) and `from` (default 364 days before it). */
function window(from: string | undefined, to: string | undefined, now: number) {
  const today = isoDay(now);
  const end = to ?? (from !== undefined && yearAfter(from) < today ? yearAfter(from) : today);
  const start = from ?? isoDay(Date.parse(`${end}T00:00:00Z`) - 364 * DAY);
  return { from: start, to: end };
}

function listData(g: Gathered, extra: Record<string, unknown>): Record<string, unknown> {
  return { ...extra, totals: g.totals, notes: g.notes, results: g.opportunities };
}

export default definePublicDataAgent({
  id: 'agent-rfp-hunter',
  alias: 'rfp-hunter',
  name: 'RFP Hunter',
  description:
    'U.S. government procurement and funding opportunities: contract solicitations (RFPs, RFQs, ' +
    'sources sought) from SAM.gov and grants from Grants.gov, merged and de-duplicated: search, ' +
    'the detail of one, and recent opportunities. Text or JSON with the source of every answer.',
  tags: [
    'rfp',
    'procurement',
    'solicitation',
    'tender',
    'government contracts',
    'grants',
    'funding opportunities',
    'sam.gov',
    'grants.gov',
  ],
  skills: [
    skill({
      id: 'detail',
      name: 'Opportunity detail',
      description:
        'One opportunity: a SAM.gov notice id, a Grants.gov opportunity id, or a solicitation / ' +
        'funding opportunity number looked up on both.',
      tags: ['notice', 'solicitation number', 'opportunity number'],
      examples: [
        'solicitation W912DY25R0001',
        '{"skill": "detail", "id": "350123", "source": "grants"}',
      ],
      input: DetailInput,
      fromText: detailFromText,
      async run(input, _req, ctx) {
        const byId =
          input.source ??
          (/^[0-9a-f]{32}$/i.test(input.id)
            ? 'sam'
            : /^\d+$/.test(input.id)
              ? 'grants'
              : undefined);
        if (byId === 'grants') {
          const d = await grantDetail(grantsUpstream(ctx), input.id);
          return detailReply(input.id, d.opportunity, [], [d.provenance]);
        }
        const w = window(undefined, undefined, Date.now());
        if (byId === 'sam') {
          const s = await searchSam(samUpstream(ctx), { ...w, noticeid: input.id }, 1, 1);
          return detailReply(input.id, s.opportunities[0], [], s.provenance);
        }
        // A number: SAM.gov's solicitation number or Grants.gov's opportunity number.
        const g = await gather(ctx, 'all', { ...w, solnum: input.id }, { oppNum: input.id }, 5);
        const grant = g.opportunities.find((o) => o.source === GRANTS_GOV);
        const listed = g.opportunities.find((o) => o.source === SAM) ?? grant;
        if (listed === undefined) return detailReply(input.id, undefined, g.notes, g.provenance);
        const granted =
          listed.source === GRANTS_GOV
            ? listed
            : listed.alsoOn.find((l) => l.source === GRANTS_GOV);
        if (granted === undefined) return detailReply(input.id, listed, g.notes, g.provenance);
        const d = await grantDetail(grantsUpstream(ctx), granted.id);
        const shown: Opportunity | GrantDetail | undefined =
          listed.source === SAM
            ? listed
            : d.opportunity === undefined
              ? listed
              : { ...d.opportunity, alsoOn: listed.alsoOn };
        return detailReply(input.id, shown, g.notes, [...g.provenance, d.provenance]);
      },
    }),
    skill({
      id: 'recent',
      name: 'Recent opportunities',
      description:
        'Opportunities posted in the last days (default 7, at most 365), newest first, optionally ' +
        'about a topic, from SAM.gov, Grants.gov or both.',
      tags: ['recent', 'new', 'this week', 'latest'],
      examples: [
        'new cybersecurity RFPs this week',
        '{"skill": "recent", "query": "broadband", "days": 30, "source": "grants"}',
      ],
      input: RecentInput,
      fromText: recentFromText,
      async run(input, _req, ctx) {
        const days = input.days ?? 7;
        const now = Date.now();
        const w = { from: isoDay(now - days * DAY), to: isoDay(now) };
        const source = input.source ?? 'all';
        const g = await gather(
          ctx,
          source,
          { ...w, title: input.query },
          { keyword: input.query, openedFrom: w.from, openedTo: w.to },
          input.limit ?? DEFAULT_LIMIT
        );
        const heading =
          `${input.query ? `“${input.query}” ` : ''}posted ${w.from} → ${w.to} ` +
          `(${sourcesLabel(source)})`;
        return {
          text: renderList(heading, g.opportunities, g.counts, g.notes),
          data: listData(g, { query: input.query ?? null, days, ...w, source }),
          provenance: g.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search opportunities',
      description:
        'Contract opportunities (SAM.gov, by title, NAICS and state) and funding opportunities ' +
        '(Grants.gov, by keyword) for a topic, merged, newest first; SAM.gov looks back a year.',
      tags: ['search', 'rfp', 'grant', 'naics'],
      examples: [
        'cybersecurity RFPs',
        '{"skill": "search", "query": "wildfire", "source": "all", "from": "2026-01-01"}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const w = window(input.from, input.to, Date.now());
        if (yearAfter(w.from) < w.to)
          fail('search: `to`: SAM.gov searches at most one year at a time');
        const source = input.source ?? 'all';
        const g = await gather(
          ctx,
          source,
          { ...w, title: input.query, naics: input.naics, state: input.state },
          {
            keyword: input.query,
            ...(input.from !== undefined ? { openedFrom: input.from } : {}),
            ...(input.to !== undefined ? { openedTo: input.to } : {}),
          },
          input.limit ?? DEFAULT_LIMIT
        );
        const heading =
          `“${input.query}” (${sourcesLabel(source)}` +
          `${source === 'grants' ? '' : `; ${SAM} posted ${w.from} → ${w.to}`})`;
        return {
          text: renderList(heading, g.opportunities, g.counts, g.notes),
          data: listData(g, { query: input.query, ...w, source }),
          provenance: g.provenance,
        };
      },
    }),
  ],
});

function detailReply(
  id: string,
  o: Opportunity | GrantDetail | undefined,
  notes: string[],
  provenance: Provenance[]
) {
  if (o === undefined) {
    return {
      text: [
        `📣 No opportunity ${id} found (SAM.gov looks back one year).`,
        ...notes.map((n) => `⚠️ ${n}`),
      ].join('\n'),
      data: { id, opportunity: null, notes },
      provenance,
    };
  }
  return {
    text: [renderOpportunity(o), ...notes.map((n) => `⚠️ ${n}`)].join('\n'),
    data: { id, opportunity: o, notes },
    provenance,
  };
}
