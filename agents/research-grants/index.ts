// research-grants (agent-research-grants): U.S. research grants from NIH RePORTER and NSF Award
// Search, asked together and merged, each row naming its source: search, investigator,
// institution and recent awards (data-sources.md §0).
import { HubError } from '../../runtime/errors/index.js';
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
  type Provenance,
} from '../kit/public-data/index.js';
import { recordGrants, type SourceRows } from './entities.js';
import { merge, type Found, type SourceId } from './grant.js';
import { NIH, searchNih, type GrantQuery } from './nih.js';
import { NSF, searchNsf } from './nsf.js';
import {
  InstitutionInput,
  InvestigatorInput,
  RecentInput,
  SearchInput,
  institutionFromText,
  investigatorFromText,
  recentFromText,
  searchFromText,
} from './parse.js';
import { renderGrants, type Failure } from './render.js';

/** recent without a window: the last 90 days. */
export const DEFAULT_DAYS = 90;

function nih(ctx: AgentContext): Upstream {
  return new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.researchGrants.nih, {
      source: NIH,
      bucket: 'nih-reporter',
      urlSetting: 'RESEARCH_GRANTS_NIH_URL',
    })
  );
}

function nsf(ctx: AgentContext): Upstream {
  return new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.researchGrants.nsf, {
      source: NSF,
      bucket: 'nsf-awards',
      urlSetting: 'RESEARCH_GRANTS_NSF_URL',
    })
  );
}

interface Asked {
  found: Found[];
  failures: Failure[];
  provenance: Provenance[];
}

/**
 * Both sources at once. One that fails is named in the answer beside the other's rows; when
 * every source asked fails, so does the task, with each one's reason.
 */
async function ask(
  ctx: AgentContext,
  q: GrantQuery,
  sources: readonly SourceId[] | undefined,
  limit: number
): Promise<Asked> {
  const which = sources ?? ['nih', 'nsf'];
  const pages = ctx.config.publicData.maxPages;
  const calls = which.map((s) =>
    s === 'nih' ? searchNih(nih(ctx), q, limit, pages) : searchNsf(nsf(ctx), q, limit, pages)
  );
  const settled = await Promise.allSettled(calls);
  const out: Asked = { found: [], failures: [], provenance: [] };
  const errors: HubError[] = [];
  const rows: SourceRows[] = [];
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') {
      const { provenance, ...found } = r.value;
      out.found.push(found);
      out.provenance.push(...provenance);
      rows.push({ grants: found.grants, provenance });
      return;
    }
    // A cancel, or a fault of ours, is not one source's failure.
    if (ctx.signal.aborted || !(r.reason instanceof HubError)) throw r.reason;
    errors.push(r.reason);
    out.failures.push({ source: which[i] === 'nih' ? 'NIH' : 'NSF', message: r.reason.message });
  });
  if (out.found.length === 0) {
    const [first] = errors;
    if (errors.length === 1 && first !== undefined) throw first;
    throw new HubError(first?.code ?? 'UNAVAILABLE', errors.map((e) => e.message).join(' — '));
  }
  await recordGrants(ctx, rows);
  return out;
}

function reply(heading: string, extra: Record<string, unknown>, a: Asked, limit: number) {
  const grants = merge(a.found, limit);
  return {
    text: renderGrants(heading, grants, a.found, a.failures),
    data: {
      ...extra,
      totals: Object.fromEntries(a.found.map((f) => [f.source, f.total ?? null])),
      failures: a.failures,
      results: grants,
    },
    provenance: a.provenance,
  };
}

function scope(sources: readonly SourceId[] | undefined, year?: number): string {
  const parts = [
    sources?.length === 1 ? `${sources[0]!.toUpperCase()} only` : '',
    year !== undefined ? `${year}` : '',
  ].filter((s) => s !== '');
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function daysAgo(days: number, now = new Date()): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

export default definePublicDataAgent({
  id: 'agent-research-grants',
  alias: 'research-grants',
  name: 'Research Grants',
  description:
    'U.S. federal research grants from NIH RePORTER and the NSF Award Search, merged: search ' +
    'by topic, grants of a principal investigator, grants to a university or institute, and ' +
    'recent awards. Each grant names its source, amount, dates and institution; text or JSON ' +
    'with the source of every answer.',
  tags: [
    'research grants',
    'grants',
    'funding',
    'nih',
    'nsf',
    'science funding',
    'academic research',
    'awards',
  ],
  skills: [
    skill({
      id: 'investigator',
      name: 'Grants of an investigator',
      description:
        'Grants led by a principal investigator (first and last name, or a last name), from NIH ' +
        'and NSF, optionally on a topic or in a year.',
      tags: ['principal investigator', 'pi', 'scientist', 'researcher'],
      examples: [
        'grants to PI Jennifer Doudna',
        '{"skill": "investigator", "investigator": "Jennifer Doudna", "sources": ["nih"]}',
      ],
      input: InvestigatorInput,
      fromText: investigatorFromText,
      async run(input, _req, ctx) {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const a = await ask(
          ctx,
          { investigator: input.investigator, text: input.query, year: input.year },
          input.sources,
          limit
        );
        const heading = `investigator “${input.investigator}”${input.query ? ` on “${input.query}”` : ''}${scope(input.sources, input.year)}`;
        return reply(
          heading,
          {
            investigator: input.investigator,
            query: input.query ?? null,
            year: input.year ?? null,
          },
          a,
          limit
        );
      },
    }),
    skill({
      id: 'institution',
      name: 'Grants to an institution',
      description:
        'Grants to a university, institute, hospital or other awardee organisation, from NIH and ' +
        'NSF, optionally on a topic or in a year.',
      tags: ['institution', 'university', 'organization', 'awardee'],
      examples: [
        'grants at Johns Hopkins University in 2024',
        '{"skill": "institution", "institution": "Stanford University", "query": "battery"}',
      ],
      input: InstitutionInput,
      fromText: institutionFromText,
      async run(input, _req, ctx) {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const a = await ask(
          ctx,
          { institution: input.institution, text: input.query, year: input.year },
          input.sources,
          limit
        );
        const heading = `“${input.institution}”${input.query ? ` on “${input.query}”` : ''}${scope(input.sources, input.year)}`;
        return reply(
          heading,
          { institution: input.institution, query: input.query ?? null, year: input.year ?? null },
          a,
          limit
        );
      },
    }),
    skill({
      id: 'recent',
      name: 'Recent grants',
      description:
        'Grants that started (NIH) or were awarded (NSF) in the last days (default 90), newest ' +
        'first, optionally on a topic.',
      tags: ['recent', 'new awards', 'latest'],
      examples: [
        'recent grants on CRISPR',
        '{"skill": "recent", "query": "quantum computing", "days": 30}',
      ],
      input: RecentInput,
      fromText: recentFromText,
      async run(input, _req, ctx) {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const days = input.days ?? DEFAULT_DAYS;
        const since = daysAgo(days);
        const a = await ask(ctx, { text: input.query, since }, input.sources, limit);
        const heading = `${input.query ? `“${input.query}” ` : ''}since ${since} (last ${days} days)${scope(input.sources)}`;
        return reply(heading, { query: input.query ?? null, days, since }, a, limit);
      },
    }),
    skill({
      id: 'search',
      name: 'Search grants',
      description:
        'Grants whose title, terms or abstract match a topic, from NIH and NSF, optionally in a ' +
        'year.',
      tags: ['search', 'topic', 'keyword'],
      examples: [
        'research grants on CRISPR gene editing',
        '{"skill": "search", "query": "machine learning", "year": 2024, "sources": ["nsf"]}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const a = await ask(ctx, { text: input.query, year: input.year }, input.sources, limit);
        return reply(
          `“${input.query}”${scope(input.sources, input.year)}`,
          { query: input.query, year: input.year ?? null },
          a,
          limit
        );
      },
    }),
  ],
});
