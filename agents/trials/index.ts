// trials (agent-trials-official): clinical trials from ClinicalTrials.gov API v2: search, detail,
// recruiting, by sponsor, and nearby a place geocoded by the hub's geocoder (data-sources.md §0).
import { fail, type AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import { recordTrials } from './entities.js';
import { geocoderFor } from './geo.js';
import {
  DetailInput,
  NearbyInput,
  RecruitingInput,
  SearchInput,
  SponsorInput,
  detailFromText,
  nearbyFromText,
  recruitingFromText,
  searchFromText,
  sponsorFromText,
} from './parse.js';
import { phaseLabel, renderDetail, renderList, type Listed } from './render.js';
import { SOURCE, nearestSite, searchStudies, studyDetail, type StudyQuery } from './studies.js';

/** nearby without a distance: 50 miles, ClinicalTrials.gov's own example. */
export const DEFAULT_MILES = 50;

function upstream(ctx: AgentContext): Upstream {
  return new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.trials, {
      source: SOURCE,
      bucket: 'clinicaltrials',
      urlSetting: 'TRIALS_URL',
    })
  );
}

async function list(ctx: AgentContext, q: StudyQuery, limit: number | undefined) {
  const r = await searchStudies(
    upstream(ctx),
    q,
    limit ?? DEFAULT_LIMIT,
    ctx.config.publicData.maxPages
  );
  await recordTrials(ctx, r.trials, r.provenance);
  return r;
}

function filters(q: { phase?: string | undefined; recruiting?: boolean | undefined }): string {
  const f = [q.recruiting === true ? 'recruiting' : '', q.phase ? phaseLabel([q.phase]) : ''];
  return f.filter((s) => s !== '').join(', ');
}

function heading(
  what: string,
  q: { phase?: string | undefined; recruiting?: boolean | undefined }
) {
  const f = filters(q);
  return f === '' ? what : `${what} (${f})`;
}

export default definePublicDataAgent({
  id: 'agent-trials-official',
  alias: 'trials',
  name: 'Clinical Trials',
  description:
    'Clinical trials from ClinicalTrials.gov: search by condition or treatment, detail of one ' +
    'study (NCT number), recruiting trials, trials by sponsor, and trials near a place. Text or ' +
    'JSON with the source of every answer.',
  tags: ['clinical trials', 'clinicaltrials.gov', 'medical research', 'health', 'patients', 'nct'],
  skills: [
    skill({
      id: 'detail',
      name: 'Trial detail',
      description:
        'One study by its NCT number: status, phase, sponsor, conditions, interventions, dates, sites.',
      tags: ['nct', 'study'],
      examples: ['NCT04280705', '{"skill": "detail", "nctId": "NCT04280705"}'],
      input: DetailInput,
      fromText: detailFromText,
      async run(input, _req, ctx) {
        const { trial, provenance } = await studyDetail(upstream(ctx), input.nctId);
        if (trial === undefined) {
          return {
            text: `🧪 ${SOURCE} has no study ${input.nctId}.`,
            data: { nctId: input.nctId, trial: null },
            provenance,
          };
        }
        await recordTrials(ctx, [trial], provenance);
        return { text: renderDetail(trial), data: { nctId: input.nctId, trial }, provenance };
      },
    }),
    skill({
      id: 'nearby',
      name: 'Trials near a place',
      description:
        'Trials with a site within a distance (default 50 miles) of a place, nearest site first.',
      tags: ['location', 'near me', 'distance'],
      examples: [
        'recruiting melanoma trials near Boston',
        '{"skill": "nearby", "location": "Chicago", "query": "diabetes", "distanceMiles": 25}',
      ],
      input: NearbyInput,
      fromText: nearbyFromText,
      async run(input, _req, ctx) {
        const place = await geocoderFor(ctx.config).geocode(input.location);
        if (place === null) {
          fail(`I could not find the place “${input.location}”; name a city, e.g. "near Boston"`);
        }
        const at = { lat: place.lat, lon: place.lng };
        const miles = input.distanceMiles ?? DEFAULT_MILES;
        const r = await list(
          ctx,
          {
            term: input.query,
            phase: input.phase,
            recruiting: input.recruiting,
            geo: { ...at, miles },
          },
          input.limit
        );
        const trials: Listed[] = r.trials
          .map((t): Listed => {
            const nearest = nearestSite(t, at);
            return nearest ? { ...t, nearest } : t;
          })
          .sort((a, b) => (a.nearest?.miles ?? Infinity) - (b.nearest?.miles ?? Infinity));
        const what = `${input.query ? `“${input.query}” ` : ''}within ${miles} mi of ${place.displayName}`;
        return {
          text: renderList(heading(what, input), trials, r.total),
          data: {
            query: input.query ?? null,
            location: { asked: input.location, ...place },
            distanceMiles: miles,
            total: r.total ?? null,
            results: trials,
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'sponsor',
      name: 'Trials by sponsor',
      description: 'Trials whose lead sponsor or collaborator matches a name, e.g. a drug company.',
      tags: ['sponsor', 'company', 'pharma'],
      examples: ['trials sponsored by Pfizer', '{"skill": "sponsor", "sponsor": "Moderna"}'],
      input: SponsorInput,
      fromText: sponsorFromText,
      async run(input, _req, ctx) {
        const r = await list(
          ctx,
          {
            term: input.query,
            sponsor: input.sponsor,
            phase: input.phase,
            recruiting: input.recruiting,
          },
          input.limit
        );
        const what = `sponsor “${input.sponsor}”${input.query ? ` and “${input.query}”` : ''}`;
        return {
          text: renderList(heading(what, input), r.trials, r.total),
          data: {
            sponsor: input.sponsor,
            query: input.query ?? null,
            total: r.total ?? null,
            results: r.trials,
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'recruiting',
      name: 'Recruiting trials',
      description: 'Trials recruiting participants now for a condition or treatment.',
      tags: ['recruiting', 'enrolling', 'participants'],
      examples: [
        'recruiting phase 3 lung cancer trials',
        '{"skill": "recruiting", "query": "asthma"}',
      ],
      input: RecruitingInput,
      fromText: recruitingFromText,
      async run(input, _req, ctx) {
        const r = await list(
          ctx,
          { term: input.query, phase: input.phase, recruiting: true },
          input.limit
        );
        return {
          text: renderList(
            heading(`“${input.query}”`, { ...input, recruiting: true }),
            r.trials,
            r.total
          ),
          data: { query: input.query, total: r.total ?? null, results: r.trials },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search trials',
      description: 'Trials for a condition, treatment or keyword, any status, optionally by phase.',
      tags: ['search', 'condition', 'treatment'],
      examples: ['type 2 diabetes phase 2 trials', '{"skill": "search", "query": "melanoma"}'],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const r = await list(
          ctx,
          { term: input.query, phase: input.phase, recruiting: input.recruiting },
          input.limit
        );
        return {
          text: renderList(heading(`“${input.query}”`, input), r.trials, r.total),
          data: { query: input.query, total: r.total ?? null, results: r.trials },
          provenance: r.provenance,
        };
      },
    }),
  ],
});
