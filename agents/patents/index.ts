// patents (agent-patents-official): patents by concept, similar patents, the detail of one, and a
// company's patents, from the USPTO Open Data Portal (or a PatentsView-compatible host), with
// relevance percentages from the upstream's score or the hub's embedder (data-sources.md §0).
import { fail, type AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import { recordPatents } from './entities.js';
import { ODP_SOURCE, OdpSource } from './odp.js';
import {
  AssigneeInput,
  DetailInput,
  SearchInput,
  SimilarInput,
  assigneeFromText,
  detailFromText,
  searchFromText,
  similarFromText,
} from './parse.js';
import { samePatent, type PatentSource } from './patent.js';
import { PATENTSVIEW_SOURCE, PatentsViewSource } from './patentsview.js';
import { basisText, patentText, rank, type Ranked } from './relevance.js';
import { label, renderDetail, renderList } from './render.js';

function source(ctx: AgentContext): PatentSource {
  const s = ctx.config.publicData.patents;
  const odp = s.provider === 'odp';
  if (s.apiKey === undefined) {
    fail(
      `not configured: set PATENTS_API_KEY (${odp ? 'a USPTO Open Data Portal key, sent as X-API-KEY' : 'the PatentsView key, sent as X-Api-Key'}); ` +
        'without it this hub has no patent source, and I will not invent results'
    );
  }
  const up = new Upstream(
    upstreamOptions(ctx, s, {
      source: odp ? ODP_SOURCE : PATENTSVIEW_SOURCE,
      bucket: odp ? 'uspto-odp' : 'patentsview',
      urlSetting: 'PATENTS_URL',
      secretHeaders: { 'x-api-key': s.apiKey },
    })
  );
  return odp ? new OdpSource(up) : new PatentsViewSource(up);
}

/** Candidates fetched to rank: twice what is shown, so ranking can reorder, within the cap. */
function candidates(limit: number | undefined): number {
  return Math.min(MAX_LIMIT, (limit ?? DEFAULT_LIMIT) * 2);
}

export default definePublicDataAgent({
  id: 'agent-patents-official',
  alias: 'patents',
  name: 'Patents',
  description:
    'U.S. patents and applications from the USPTO: search by concept, patents similar to one, the ' +
    'detail of one patent, and a company’s patents; results carry relevance percentages. Text or ' +
    'JSON with the source of every answer.',
  tags: ['patents', 'uspto', 'inventions', 'intellectual property', 'prior art', 'assignee'],
  skills: [
    skill({
      id: 'similar',
      name: 'Similar patents',
      description: 'Patents most like a given patent (by its title and abstract), with relevance.',
      tags: ['similar', 'prior art', 'related'],
      examples: ['patents similar to US 11,234,567', '{"skill": "similar", "patent": "11234567"}'],
      input: SimilarInput,
      fromText: similarFromText,
      async run(input, _req, ctx) {
        const src = source(ctx);
        const limit = input.limit ?? DEFAULT_LIMIT;
        const d = await src.detail(input.patent);
        if (d.patent === undefined) {
          return {
            text: `📜 ${src.source} has no patent ${input.patent.number}.`,
            data: { patent: input.patent, of: null, results: [] },
            provenance: d.provenance,
          };
        }
        const of = d.patent;
        const found = await src.search(
          of.title,
          candidates(limit) + 1,
          ctx.config.publicData.maxPages
        );
        const others = found.patents.filter((p) => !samePatent(p, of));
        const r = await rank(others, patentText(of), ctx.embedder, ctx.signal);
        const shown = r.ranked.slice(0, limit);
        await recordPatents(ctx, [of], d.provenance);
        await recordPatents(ctx, shown, found.provenance);
        return {
          text: renderList(
            `📜 Patents similar to ${label(of)} “${of.title}” (${src.source})`,
            shown,
            shown.length,
            basisText(r.basis, src.source),
            `📜 ${src.source} has no other patents like ${label(of)}.`
          ),
          data: { patent: input.patent, of, relevance: r.basis, results: shown },
          provenance: [...d.provenance, ...found.provenance],
        };
      },
    }),
    skill({
      id: 'detail',
      name: 'Patent detail',
      description: 'One patent or application by number: title, owners, inventors, dates, status.',
      tags: ['patent number', 'application'],
      examples: ['patent 11234567', '{"skill": "detail", "patent": "16/123,456"}'],
      input: DetailInput,
      fromText: detailFromText,
      async run(input, _req, ctx) {
        const src = source(ctx);
        const d = await src.detail(input.patent);
        if (d.patent !== undefined) await recordPatents(ctx, [d.patent], d.provenance);
        return {
          text:
            d.patent === undefined
              ? `📜 ${src.source} has no ${input.patent.kind} ${input.patent.number}.`
              : renderDetail(d.patent, src.source),
          data: { patent: input.patent, result: d.patent ?? null },
          provenance: d.provenance,
        };
      },
    }),
    skill({
      id: 'assignee',
      name: 'Patents by assignee',
      description:
        'A company’s patents and applications (assignee or applicant), optionally on a topic.',
      tags: ['assignee', 'company', 'portfolio'],
      examples: [
        'patents assigned to IBM',
        '{"skill": "assignee", "assignee": "Tesla", "concept": "battery"}',
      ],
      input: AssigneeInput,
      fromText: assigneeFromText,
      async run(input, _req, ctx) {
        const src = source(ctx);
        const limit = input.limit ?? DEFAULT_LIMIT;
        const want = input.concept ? candidates(limit) : limit;
        const found = await src.byAssignee(input.assignee, want, ctx.config.publicData.maxPages);
        let shown: Ranked[];
        let basis = '';
        let relevance: unknown = { method: 'none' };
        if (input.concept) {
          const r = await rank(found.patents, input.concept, ctx.embedder, ctx.signal);
          shown = r.ranked.slice(0, limit);
          basis = basisText(r.basis, src.source);
          relevance = r.basis;
        } else {
          shown = found.patents.slice(0, limit).map((p) => ({ ...p, relevance: null }));
          basis = `In ${src.source}'s order; add a topic for relevance percentages.`;
        }
        await recordPatents(ctx, shown, found.provenance);
        const what = `“${input.assignee}”${input.concept ? ` on “${input.concept}”` : ''}`;
        return {
          text: renderList(
            `📜 Patents of ${what} (${src.source})`,
            shown,
            found.total,
            basis,
            `📜 ${src.source} has no patents of ${what}.`
          ),
          data: {
            assignee: input.assignee,
            concept: input.concept ?? null,
            total: found.total,
            relevance,
            results: shown,
          },
          provenance: found.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search by concept',
      description: 'Patents about a concept or technology, best match first, with relevance.',
      tags: ['search', 'concept', 'technology'],
      examples: [
        'solid-state battery electrolytes',
        '{"skill": "search", "concept": "drone delivery", "limit": 5}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const src = source(ctx);
        const limit = input.limit ?? DEFAULT_LIMIT;
        const found = await src.search(
          input.concept,
          candidates(limit),
          ctx.config.publicData.maxPages
        );
        const r = await rank(found.patents, input.concept, ctx.embedder, ctx.signal);
        const shown = r.ranked.slice(0, limit);
        await recordPatents(ctx, shown, found.provenance);
        return {
          text: renderList(
            `📜 Patents for “${input.concept}” (${src.source})`,
            shown,
            found.total,
            basisText(r.basis, src.source),
            `📜 ${src.source} has no patents for “${input.concept}”.`
          ),
          data: { concept: input.concept, total: found.total, relevance: r.basis, results: shown },
          provenance: found.provenance,
        };
      },
    }),
  ],
});
