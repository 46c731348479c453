// epa (agent-epa): regulated facilities and their compliance from EPA ECHO: search facilities
// (name, city, state, ZIP), a company's facilities, a state's picture, and violators (significant
// non-compliance and quarters in violation), per data-sources.md §0.
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import {
  PAGE_SIZE,
  SOURCE,
  byConcern,
  findFacilities,
  isViolator,
  type FacilityQuery,
} from './echo.js';
import { recordFacilities } from './entities.js';
import {
  CompanyInput,
  SearchInput,
  StateInput,
  ViolatorsInput,
  companyFromText,
  searchFromText,
  stateFromText,
  violatorsFromText,
} from './parse.js';
import { money, renderFacilities, renderTotals, stateName } from './render.js';

function upstream(ctx: AgentContext): Upstream {
  return new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.epa, {
      source: SOURCE,
      bucket: 'echo',
      urlSetting: 'EPA_URL',
    })
  );
}

function describe(q: FacilityQuery): string {
  const where = [q.city, q.state ? stateName(q.state) : undefined, q.zip]
    .filter(Boolean)
    .join(', ');
  return [q.name ? `named “${q.name}”` : '', where ? `in ${where}` : ''].filter(Boolean).join(' ');
}

export default definePublicDataAgent({
  id: 'agent-epa',
  alias: 'epa',
  name: 'EPA Compliance',
  description:
    'Environmental compliance of U.S. regulated facilities from EPA ECHO: find facilities, a ' +
    'company’s facilities with their violations and penalties, a state’s totals, and violators ' +
    '(significant non-compliance first). Text or JSON with the source of every answer.',
  tags: ['epa', 'echo', 'environment', 'pollution', 'compliance', 'violations', 'facilities'],
  skills: [
    skill({
      id: 'violators',
      name: 'Violators',
      description:
        'Facilities in violation (significant non-compliance, quarters in violation) in a state, ' +
        'city or by name, worst first.',
      tags: ['violations', 'non-compliance', 'polluters'],
      examples: [
        'significant violators in Ohio',
        '{"skill": "violators", "state": "TX", "city": "Houston"}',
      ],
      input: ViolatorsInput,
      fromText: violatorsFromText,
      async run(input, _req, ctx) {
        const q = { name: input.name, city: input.city, state: input.state };
        const keep = input.significantOnly === true ? (f: { snc: boolean }) => f.snc : isViolator;
        const r = await findFacilities(
          upstream(ctx),
          q,
          input.limit ?? DEFAULT_LIMIT,
          ctx.config.publicData.maxPages,
          keep
        );
        const found = [...r.facilities].sort(byConcern);
        await recordFacilities(ctx, found, r.provenance);
        const what = `${input.significantOnly ? 'Significant violators' : 'Violators'} ${describe(q)}`;
        const scanned = Math.min(r.totals.facilities, r.pages * PAGE_SIZE);
        return {
          text:
            renderFacilities(
              `🚨 ${what}`,
              found,
              found.length,
              `🚨 No ${input.significantOnly ? 'significant violators' : 'violators'} ${describe(q)} among ${scanned} facilities checked.`
            ) + `\n\n🔎 ${scanned} of ${r.totals.facilities} active facilities checked.`,
          data: {
            query: { ...q, significantOnly: input.significantOnly === true },
            checked: scanned,
            totals: r.totals,
            results: found,
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'company',
      name: 'Company facilities',
      description:
        'A company’s facilities (by facility name), with how many are in violation and their penalties.',
      tags: ['company', 'owner', 'penalties'],
      examples: [
        'ExxonMobil’s facilities',
        '{"skill": "company", "company": "Acme", "state": "TX"}',
      ],
      input: CompanyInput,
      fromText: companyFromText,
      async run(input, _req, ctx) {
        const q = { name: input.company, state: input.state };
        const r = await findFacilities(
          upstream(ctx),
          q,
          input.limit ?? DEFAULT_LIMIT,
          ctx.config.publicData.maxPages
        );
        const shown = r.facilities;
        await recordFacilities(ctx, shown, r.provenance, input.company);
        const violating = shown.filter(isViolator);
        const summary = {
          facilities: r.totals.facilities,
          shown: shown.length,
          inViolation: violating.length,
          significant: shown.filter((f) => f.snc).length,
          penalties: shown.reduce((n, f) => n + f.totalPenalties, 0),
        };
        const where = input.state ? ` in ${stateName(input.state)}` : '';
        const head =
          `🏢 EPA ECHO, facilities of “${input.company}”${where}: ${r.totals.facilities}` +
          (shown.length > 0
            ? `\n⚖️ Of ${shown.length} shown: ${summary.inViolation} in violation ` +
              `(${summary.significant} significant) · ${money(summary.penalties)} in penalties`
            : '');
        return {
          text:
            shown.length === 0
              ? `🏢 EPA ECHO has no active facilities named like “${input.company}”${where}.`
              : `${head}\n\n${renderFacilities('Facilities', [...shown].sort(byConcern), r.totals.facilities, '')}`,
          data: { company: input.company, state: input.state ?? null, summary, results: shown },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'state',
      name: 'State overview',
      description:
        'A state’s active regulated facilities, penalties and programs, and its facilities.',
      tags: ['state', 'overview'],
      examples: ['facilities in Texas', '{"skill": "state", "state": "OH"}'],
      input: StateInput,
      fromText: stateFromText,
      async run(input, _req, ctx) {
        const r = await findFacilities(
          upstream(ctx),
          { state: input.state },
          input.limit ?? DEFAULT_LIMIT,
          ctx.config.publicData.maxPages
        );
        const name = stateName(input.state);
        await recordFacilities(ctx, r.facilities, r.provenance);
        return {
          text:
            r.totals.facilities === 0
              ? `🗺️ EPA ECHO has no active facilities in ${name}.`
              : `🗺️ EPA ECHO, ${name}\n${renderTotals(r.totals)}\n\n` +
                renderFacilities('Facilities', r.facilities, r.totals.facilities, ''),
          data: { state: input.state, totals: r.totals, results: r.facilities },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search facilities',
      description:
        'Regulated facilities by name, city, state or ZIP, with their compliance status.',
      tags: ['search', 'facility'],
      examples: [
        'facilities in Houston, TX',
        '{"skill": "search", "name": "refinery", "zip": "77001"}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const q = { name: input.name, city: input.city, state: input.state, zip: input.zip };
        const r = await findFacilities(
          upstream(ctx),
          q,
          input.limit ?? DEFAULT_LIMIT,
          ctx.config.publicData.maxPages
        );
        await recordFacilities(ctx, r.facilities, r.provenance);
        return {
          text: renderFacilities(
            `🏭 EPA ECHO facilities ${describe(q)}`,
            r.facilities,
            r.totals.facilities,
            `🏭 EPA ECHO has no active facilities ${describe(q)}.`
          ),
          data: { query: q, totals: r.totals, results: r.facilities },
          provenance: r.provenance,
        };
      },
    }),
  ],
});
