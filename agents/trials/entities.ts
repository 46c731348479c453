// What the trials agent tells the shared entity graph (kit/public-data/entities): each study as a
// trial node (its NCT id), its lead sponsor as a company that sponsors it, and its sites as
// facilities it has a site at, all with the provenance of the request that returned the study.
import type { AgentContext } from '../kit/index.js';
import { EntityBatch, recordEntities, type Provenance } from '../kit/public-data/index.js';
import type { Trial } from './studies.js';

export const TRIALS_ID = 'agent-trials-official';

export async function recordTrials(
  ctx: AgentContext,
  trials: readonly Trial[],
  provenance: readonly Provenance[]
): Promise<void> {
  // Pages are not told apart per study: the first request of the query stands for them all.
  const from = provenance[0];
  if (from === undefined || trials.length === 0) return;
  const g = new EntityBatch(TRIALS_ID);
  for (const t of trials) {
    const r = g.record(t.nctId, from);
    const trial = r.node('trial', t.title, {
      ids: { nct: t.nctId },
      attrs: { status: t.status, phases: t.phases, conditions: t.conditions, url: t.url },
    });
    r.edge(r.node('company', t.sponsor, { attrs: { class: t.sponsorClass } }), 'sponsors', trial);
    for (const l of t.locations) {
      const site = r.node('facility', l.facility, {
        attrs: { city: l.city, state: l.state, country: l.country },
      });
      r.edge(trial, 'has_site', site);
    }
  }
  await recordEntities(ctx, g);
}
