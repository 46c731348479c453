// research (agent-research): cross-dataset questions over the shared entity graph that the
// public-data agents fill (kit/public-data/entities, migration 0020): an entity's profile naming
// every dataset that contributed and how each link was made, its related entities, and entities
// seen by several datasets at once. Profiles first ask the other agents, through the hub and as
// the caller, so the graph holds what they know (issue 24; data-sources.md "research").
import { fail, type AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  KINDS,
  definePublicDataAgent,
  skill,
  without,
  type Kind,
} from '../kit/public-data/index.js';
import { fill, type Asked } from './fill.js';
import {
  datasets,
  findEntities,
  mentions,
  nodesById,
  sameAs,
  seenByAll,
  type Found,
} from './graph.js';
import {
  ProfileInput,
  QUERY_FILLER,
  QueryInput,
  RelatedInput,
  datasetsIn,
  kindsIn,
  profileFromText,
  queryFromText,
  relatedFromText,
} from './parse.js';
import { profile, provenanceOf, related, type Link } from './profile.js';
import {
  aliasOf,
  kindWord,
  renderProfile,
  renderQuery,
  renderRelated,
  type QueryHit,
} from './render.js';

export const RESEARCH_ID = 'agent-research';

/** Text that is an identifier (NCT id, CIK, LEI, a registry or application number): no fill. */
const ID_LIKE = /^(?:NCT\d{8}|(?:CIK\s*)?\d{4,15}|[A-Z0-9]{20})$/i;

/** The entity a name means: a company first (profiles are mostly of companies), then any kind. */
async function locate(
  ctx: AgentContext,
  name: string,
  kind: Kind | undefined
): Promise<Found | undefined> {
  const threshold = ctx.config.publicData.entityNameThreshold;
  const kinds: Kind[][] = kind ? [[kind]] : [['company'], [...KINDS]];
  for (const k of kinds) {
    const [best] = await findEntities(ctx.sql, name, { kinds: k, threshold, limit: 1 });
    if (best !== undefined) return best;
  }
  return undefined;
}

async function prepare(
  input: ProfileInput,
  req: Parameters<typeof fill>[1],
  ctx: AgentContext
): Promise<{ found: Found | undefined; asked: Asked[] | undefined }> {
  const wantFill =
    input.fill ?? ((input.kind ?? 'company') === 'company' && !ID_LIKE.test(input.name));
  const asked = wantFill ? await fill(input.name, req, ctx) : undefined;
  return { found: await locate(ctx, input.name, input.kind), asked };
}

function notFound(input: ProfileInput, asked: Asked[] | undefined) {
  const what = input.kind ? kindWord(input.kind) : 'entity';
  const tried =
    asked === undefined
      ? ' Ask without "graph only" to have the public-data agents look it up first.'
      : ` Asked first: ${asked.map((a) => `${a.alias} (${a.status})`).join(', ')}.`;
  return {
    text: `🕸️ The entity graph knows no ${what} like “${input.name}”.${tried}`,
    data: { name: input.name, entity: null, asked: asked ?? null },
    provenance: [],
  };
}

export default definePublicDataAgent({
  id: RESEARCH_ID,
  alias: 'research',
  name: 'Research',
  description:
    'Cross-dataset research over a shared entity graph of companies, people, trials, patents, ' +
    'facilities, products, filings and awards filled by the public-data agents (trials, fda, ' +
    'epa, patents…): an entity profile naming every dataset that contributed and how each link ' +
    'was made (identifier or name match with its score), related entities, and entities seen by ' +
    'several datasets at once.',
  tags: [
    'research',
    'entity graph',
    'company profile',
    'due diligence',
    'cross-dataset',
    'public data',
    'provenance',
  ],
  skills: [
    skill({
      id: 'related',
      name: 'Related entities',
      description:
        'Entities one and two links from a company or other entity (its trials, products, ' +
        'facilities, patents, their sites and inventors), each link with its dataset and how it was made.',
      tags: ['related', 'connections', 'network'],
      examples: [
        'entities related to Acme Pharma',
        '{"skill": "related", "name": "Acme Pharma", "limit": 20}',
      ],
      input: RelatedInput,
      fromText: relatedFromText,
      async run(input, req, ctx) {
        const startedAt = ctx.now();
        const { found, asked } = await prepare(input, req, ctx);
        if (found === undefined) return notFound(input, asked);
        const v = await related(ctx.sql, found, input.limit ?? 20);
        const links: Link[] = [
          ...v.direct,
          ...v.twoSteps.flatMap((h) => [h.first, h.second]),
          ...v.members.flatMap((m) => (m.join.method === 'name' ? [m.join.via] : [])),
        ];
        return {
          text: renderRelated(v, asked),
          data: { name: input.name, ...v, asked: asked ?? null },
          provenance: provenanceOf(links, startedAt),
        };
      },
    }),
    skill({
      id: 'profile',
      name: 'Entity profile',
      description:
        'Everything the graph holds on a company (or a trial, patent, facility…): the names each ' +
        'dataset gives it and how they were joined, every dataset that contributed, and its relations.',
      tags: ['profile', 'company', 'due diligence'],
      examples: [
        'profile of Acme Pharma',
        'tell me about Pfizer',
        '{"skill": "profile", "name": "Acme Pharma", "fill": false}',
      ],
      input: ProfileInput,
      fromText: profileFromText,
      async run(input, req, ctx) {
        const startedAt = ctx.now();
        const { found, asked } = await prepare(input, req, ctx);
        if (found === undefined) return notFound(input, asked);
        const p = await profile(ctx.sql, found);
        const links: Link[] = [
          ...p.sightings,
          ...p.relations,
          ...p.members.flatMap((m) => (m.join.method === 'name' ? [m.join.via] : [])),
        ];
        return {
          text: renderProfile(p, asked),
          data: { name: input.name, ...p, asked: asked ?? null },
          provenance: provenanceOf(links, startedAt),
        };
      },
    }),
    skill({
      id: 'query',
      name: 'Cross-dataset query',
      description:
        'Entities seen by every one of several datasets (e.g. companies in both trials and fda), ' +
        'or entities of the graph by name, with the datasets that saw each.',
      tags: ['query', 'cross-dataset', 'search'],
      examples: [
        'companies seen by trials and fda',
        'acme',
        '{"skill": "query", "kinds": ["company"], "datasets": ["ClinicalTrials.gov", "openFDA"]}',
      ],
      input: QueryInput,
      fromText: queryFromText,
      async run(input, _req, ctx) {
        const startedAt = ctx.now();
        const known = (await datasets(ctx.sql)).map((d) => ({
          dataset: d.dataset,
          alias: aliasOf(d.agentId) === d.agentId ? undefined : aliasOf(d.agentId),
        }));
        let required: string[] = [];
        let rest = input.text ?? '';
        if (input.datasets !== undefined) {
          for (const d of input.datasets) {
            const hit = datasetsIn(d, known).datasets[0];
            if (hit === undefined) {
              fail(
                `query: unknown dataset “${d}”; the graph holds ${known.map((k) => k.dataset).join(', ') || 'nothing yet'}`
              );
            }
            if (!required.includes(hit)) required.push(hit);
          }
        } else {
          const r = datasetsIn(rest, known);
          required = r.datasets;
          rest = r.rest;
        }
        const k = kindsIn(rest);
        const name = without(k.rest, QUERY_FILLER);
        const kinds: Kind[] =
          input.kinds ?? (k.kinds.length > 0 ? k.kinds : name === '' ? ['company'] : [...KINDS]);
        const limit = input.limit ?? DEFAULT_LIMIT;
        const threshold = ctx.config.publicData.entityNameThreshold;
        const byName =
          name === ''
            ? undefined
            : await findEntities(ctx.sql, name, { kinds, threshold, limit: 200 });
        if (name === '' && required.length === 0) {
          fail('query: say which datasets must have seen it, or a name to look for');
        }
        const rows =
          byName !== undefined && byName.length === 0
            ? []
            : await seenByAll(
                ctx.sql,
                { kinds, required, ...(byName ? { nameIds: byName.map((f) => f.id) } : {}) },
                200
              );
        if (byName !== undefined) {
          const rank = new Map(byName.map((f, i) => [f.id, i]));
          rows.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
        }
        // One row per entity: a node tied by name to one already listed is left out.
        const alike = await sameAs(
          ctx.sql,
          rows.map((r) => r.id)
        );
        const kept: typeof rows = [];
        for (const r of rows) {
          const twin = alike.some(
            (e) =>
              (e.src === r.id && kept.some((x) => x.id === e.dst)) ||
              (e.dst === r.id && kept.some((x) => x.id === e.src))
          );
          if (!twin) kept.push(r);
          if (kept.length >= limit) break;
        }
        const nodes = await nodesById(
          ctx.sql,
          kept.map((r) => r.id)
        );
        const ms = await mentions(
          ctx.sql,
          kept.map((r) => r.id)
        );
        const hits: QueryHit[] = kept.flatMap((r) => {
          const node = nodes.get(r.id);
          if (node === undefined) return [];
          const names = ms
            .filter((m) => m.nodeId === r.id)
            .map((m) => ({ dataset: m.dataset, name: m.name }));
          return [{ node, datasets: r.datasets, names }];
        });
        const what = [
          kinds.length === KINDS.length
            ? 'entities'
            : kinds.map((x) => kindWord(x, 2)).join(' or '),
          name !== '' ? `named like “${name}”` : '',
          required.length > 0 ? `seen by ${required.join(' and ')}` : '',
        ]
          .filter(Boolean)
          .join(' ');
        const shownMentions = ms.filter((m) => kept.some((r) => r.id === m.nodeId));
        return {
          text: renderQuery(what, hits),
          data: {
            text: input.text ?? null,
            name: name || null,
            kinds,
            datasets: required,
            results: hits,
          },
          provenance: provenanceOf(
            shownMentions.map((m) => ({
              dataset: m.dataset,
              agentId: m.agentId,
              record: m.record,
              url: m.url,
              fetchedAt: m.fetchedAt.toISOString(),
            })),
            startedAt
          ),
        };
      },
    }),
  ],
});
