// What the research-grants agent tells the shared entity graph (kit/public-data/entities): each
// grant as an award node (its NIH project number or NSF award id), the institution that received
// it as a company (the graph's one kind for an organisation, as trial sponsors are) and its
// investigators as people, each with the provenance of the request of the source that returned it.
import type { AgentContext } from '../kit/index.js';
import { EntityBatch, recordEntities, type Provenance } from '../kit/public-data/index.js';
import type { Grant } from './grant.js';

export const RESEARCH_GRANTS_ID = 'agent-research-grants';

/** One source's rows and the requests that fetched them. */
export interface SourceRows {
  grants: readonly Grant[];
  provenance: readonly Provenance[];
}

export async function recordGrants(ctx: AgentContext, found: readonly SourceRows[]): Promise<void> {
  const g = new EntityBatch(RESEARCH_GRANTS_ID);
  for (const f of found) {
    // Pages are not told apart per grant: the source's first request stands for them all.
    const from = f.provenance[0];
    if (from === undefined) continue;
    for (const grant of f.grants) {
      const r = g.record(grant.id, from);
      const award = r.node('award', grant.title, {
        ids: grant.source === 'NIH' ? { nih_project: grant.id } : { nsf_award: grant.id },
        attrs: {
          source: grant.source,
          amount: grant.amount,
          fiscalYear: grant.fiscalYear,
          startDate: grant.startDate,
          endDate: grant.endDate,
          funder: grant.funder,
          url: grant.url,
        },
      });
      const institution = r.node('company', grant.institution, {
        attrs: { city: grant.city, state: grant.state },
      });
      r.edge(institution, 'received', award);
      for (const name of grant.investigators) {
        r.edge(r.node('person', name), 'investigator_of', award);
      }
    }
  }
  await recordEntities(ctx, g);
}
