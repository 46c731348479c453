// What the patents agent tells the shared entity graph (kit/public-data/entities): each patent or
// application (by application and patent number), its assignees as companies and its inventors as
// people, with the provenance of the request that returned it.
import type { AgentContext } from '../kit/index.js';
import { EntityBatch, recordEntities, type Provenance } from '../kit/public-data/index.js';
import type { Patent } from './patent.js';

export const PATENTS_ID = 'agent-patents-official';

export async function recordPatents(
  ctx: AgentContext,
  patents: readonly Patent[],
  provenance: readonly Provenance[]
): Promise<void> {
  const from = provenance[0];
  if (from === undefined || patents.length === 0) return;
  const g = new EntityBatch(PATENTS_ID);
  for (const p of patents) {
    const key = p.applicationNumber ?? p.patentNumber;
    if (key === undefined) continue;
    const r = g.record(key, from);
    const patent = r.node('patent', p.title, {
      ids: { patent_application: p.applicationNumber, patent_number: p.patentNumber },
      attrs: { filingDate: p.filingDate, grantDate: p.grantDate, status: p.status, url: p.url },
    });
    for (const a of p.assignees) r.edge(r.node('company', a), 'assignee_of', patent);
    for (const i of p.inventors) r.edge(r.node('person', i), 'inventor_of', patent);
  }
  await recordEntities(ctx, g);
}
