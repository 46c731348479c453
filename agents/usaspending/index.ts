// usaspending (agent-usaspending): federal awards from USAspending.gov: search by keyword, a
// contractor's (recipient's) awards, an agency's awards, and the detail of one award. Award-type
// groups are asked one per request and merged (data-sources.md §0, "usaspending").
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
  type Provenance,
} from '../kit/public-data/index.js';
import {
  SOURCE,
  countAwards,
  findAgency,
  findRecipients,
  searchAwards,
  type AwardFilters,
} from './awards.js';
import { awardDetail } from './detail.js';
import { DEFAULT_GROUPS, type Group } from './groups.js';
import {
  AgencyInput,
  ContractorInput,
  DetailInput,
  SearchInput,
  agencyFromText,
  contractorFromText,
  detailFromText,
  searchFromText,
} from './parse.js';
import { agencyLabel, recipientLine, renderAwards, renderDetail } from './render.js';

function upstream(ctx: AgentContext): Upstream {
  return new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.usaspending, {
      source: SOURCE,
      bucket: 'usaspending',
      urlSetting: 'USASPENDING_URL',
    })
  );
}

function period(i: { from?: string | undefined; to?: string | undefined }): string {
  if (i.from === undefined && i.to === undefined) return '';
  return ` ${i.from ?? 'FY2008'} → ${i.to ?? 'today'}`;
}

/** The awards and the per-group counts of one filter set. */
async function awards(
  ctx: AgentContext,
  f: AwardFilters,
  types: readonly Group[] | undefined,
  limit: number | undefined
) {
  const up = upstream(ctx);
  const groups = types ?? DEFAULT_GROUPS;
  const [found, count] = await Promise.all([
    searchAwards(up, f, groups, limit ?? DEFAULT_LIMIT, ctx.config.publicData.maxPages),
    countAwards(up, f),
  ]);
  return {
    groups,
    found,
    counts: count.counts,
    provenance: [count.provenance, ...found.provenance],
  };
}

function awardData(
  r: Awaited<ReturnType<typeof awards>>,
  extra: Record<string, unknown>
): Record<string, unknown> {
  return {
    ...extra,
    types: r.groups,
    counts: r.counts,
    groups: r.found.groups,
    results: r.found.awards,
  };
}

export default definePublicDataAgent({
  id: 'agent-usaspending',
  alias: 'usaspending',
  name: 'USAspending',
  description:
    'U.S. federal spending from USAspending.gov: contracts, IDVs, grants, loans and other awards ' +
    'by keyword, a contractor’s or recipient’s awards, an agency’s awards, and the detail of one ' +
    'award. Text or JSON with the source of every answer.',
  tags: [
    'usaspending',
    'federal spending',
    'government contracts',
    'contractor',
    'grants',
    'awards',
    'procurement',
    'agency',
  ],
  skills: [
    skill({
      id: 'detail',
      name: 'Award detail',
      description:
        'One award by its USAspending id (CONT_AWD_…, ASST_NON_…) or its PIID/FAIN: amounts, ' +
        'recipient, agencies, dates, place, NAICS and PSC.',
      tags: ['award', 'piid', 'fain', 'contract detail'],
      examples: [
        'award CONT_AWD_W912DY24C0001_9700_-NONE-_-NONE-',
        '{"skill": "detail", "awardId": "W912DY24C0001"}',
      ],
      input: DetailInput,
      fromText: detailFromText,
      async run(input, _req, ctx) {
        const { award, provenance } = await awardDetail(
          upstream(ctx),
          input.awardId,
          ctx.config.publicData.maxPages
        );
        if (award === undefined) {
          return {
            text: `💰 ${SOURCE} has no award ${input.awardId}.`,
            data: { awardId: input.awardId, award: null },
            provenance,
          };
        }
        return { text: renderDetail(award), data: { awardId: input.awardId, award }, provenance };
      },
    }),
    skill({
      id: 'contractor',
      name: 'Contractor awards',
      description:
        'The awards of a contractor or other recipient (by name or UEI), largest first, with the ' +
        'recipients the name matches.',
      tags: ['contractor', 'recipient', 'vendor', 'company', 'uei'],
      examples: [
        'contracts awarded to Lockheed Martin in 2024',
        '{"skill": "contractor", "recipient": "Booz Allen Hamilton", "types": ["contracts"]}',
      ],
      input: ContractorInput,
      fromText: contractorFromText,
      async run(input, _req, ctx) {
        const found = await findRecipients(upstream(ctx), input.recipient);
        if (found.recipients.length === 0) {
          return {
            text: `💰 ${SOURCE} knows no recipient matching “${input.recipient}”.`,
            data: { recipient: input.recipient, recipients: [], results: [] },
            provenance: [found.provenance],
          };
        }
        const r = await awards(
          ctx,
          { recipient: input.recipient, query: input.query, from: input.from, to: input.to },
          input.types,
          input.limit
        );
        const names = found.recipients.slice(0, 5).map(recipientLine);
        const heading = `recipient “${input.recipient}”${input.query ? ` and “${input.query}”` : ''}${period(input)}`;
        return {
          text: [
            `🏢 Recipients matching “${input.recipient}”: ${names.join('; ')}`,
            renderAwards(heading, r.found.awards, r.counts, r.groups),
          ].join('\n\n'),
          data: awardData(r, {
            recipient: input.recipient,
            query: input.query ?? null,
            from: input.from ?? null,
            to: input.to ?? null,
            recipients: found.recipients,
          }),
          provenance: [found.provenance, ...r.provenance],
        };
      },
    }),
    skill({
      id: 'agency',
      name: 'Agency awards',
      description:
        'The awards an agency made (a department or sub-agency, by name or abbreviation), largest ' +
        'first, optionally about a topic.',
      tags: ['agency', 'department', 'awarding agency'],
      examples: [
        'cybersecurity contracts from the Department of Homeland Security',
        '{"skill": "agency", "agency": "NASA", "types": ["grants"], "from": "2024-01-01"}',
      ],
      input: AgencyInput,
      fromText: agencyFromText,
      async run(input, _req, ctx) {
        const found = await findAgency(upstream(ctx), input.agency);
        const provenance: Provenance[] = [found.provenance];
        if (found.agency === undefined) {
          return {
            text: `💰 ${SOURCE} knows no awarding agency matching “${input.agency}”.`,
            data: { agency: input.agency, resolved: null, results: [] },
            provenance,
          };
        }
        const r = await awards(
          ctx,
          { agency: found.agency, query: input.query, from: input.from, to: input.to },
          input.types,
          input.limit
        );
        const heading = `${agencyLabel(found.agency)}${input.query ? ` and “${input.query}”` : ''}${period(input)}`;
        return {
          text: renderAwards(heading, r.found.awards, r.counts, r.groups),
          data: awardData(r, {
            agency: input.agency,
            resolved: found.agency,
            query: input.query ?? null,
            from: input.from ?? null,
            to: input.to ?? null,
          }),
          provenance: [...provenance, ...r.provenance],
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search awards',
      description:
        'Federal awards whose text matches keywords, largest first, over contracts, IDVs and ' +
        'grants unless other types are named (loans, direct payments, other).',
      tags: ['search', 'keyword', 'spending'],
      examples: [
        'largest cybersecurity contracts in 2024',
        '{"skill": "search", "query": "wildfire", "types": ["grants", "direct_payments"]}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const r = await awards(
          ctx,
          { query: input.query, from: input.from, to: input.to },
          input.types,
          input.limit
        );
        return {
          text: renderAwards(
            `“${input.query}”${period(input)}`,
            r.found.awards,
            r.counts,
            r.groups
          ),
          data: awardData(r, {
            query: input.query,
            from: input.from ?? null,
            to: input.to ?? null,
          }),
          provenance: r.provenance,
        };
      },
    }),
  ],
});
