// What the epa agent tells the shared entity graph (kit/public-data/entities): every facility ECHO
// returned, by its FRS registry id. ECHO names no operator, so a company's facilities (the
// `company` skill, a facility-name search) are tied to the company asked for by name only: the
// edge keeps how well the company's name is found in the facility's (pg_trgm word similarity) and
// is left out below the graph's threshold.
import type { AgentContext } from '../kit/index.js';
import { EntityBatch, recordEntities, type Provenance } from '../kit/public-data/index.js';
import type { Facility } from './echo.js';

export const EPA_ID = 'agent-epa';

export async function recordFacilities(
  ctx: AgentContext,
  facilities: readonly Facility[],
  provenance: readonly Provenance[],
  operator?: string
): Promise<void> {
  const from = provenance[0];
  if (from === undefined || facilities.length === 0) return;
  const g = new EntityBatch(EPA_ID);
  // The company as asked, recorded as the search that found its facilities, not as an ECHO record.
  const company =
    operator === undefined
      ? undefined
      : g.record(`facility name search “${operator}”`, from).node('company', operator);
  for (const f of facilities) {
    const r = g.record(f.registryId, from);
    const facility = r.node('facility', f.name, {
      ids: { epa_registry: f.registryId },
      attrs: {
        city: f.city,
        state: f.state,
        zip: f.zip,
        complianceStatus: f.complianceStatus,
        snc: f.snc,
        url: f.url,
      },
    });
    if (operator !== undefined) {
      r.edge(company, 'operates', facility, { byName: { of: operator, in: f.name } });
    }
  }
  await recordEntities(ctx, g);
}
