// What the lobbying agent tells the shared entity graph (kit/public-data/entities): each LDA filing
// read as a lobbying_filing node (its filing UUID), the registrant (the firm, or the company
// lobbying in-house) that filed it and the client it was filed for as companies, and the
// registrant lobbying for the client, each with the provenance of the request that returned it.
import type { AgentContext } from '../kit/index.js';
import {
  EntityBatch,
  normName,
  recordEntities,
  type Provenance,
} from '../kit/public-data/index.js';
import type { Filing } from './lda.js';

export const LOBBYING_ID = 'agent-lobbying';

export async function recordFilings(
  ctx: AgentContext,
  filings: readonly Filing[],
  provenance: readonly Provenance[]
): Promise<void> {
  // Pages are not told apart per filing: the first request of the query stands for them all.
  const from = provenance[0];
  if (from === undefined || filings.length === 0) return;
  const g = new EntityBatch(LOBBYING_ID);
  for (const f of filings) {
    const r = g.record(f.filingUuid, from);
    const who =
      normName(f.registrant.name) === normName(f.client.name)
        ? f.client.name
        : `${f.registrant.name} for ${f.client.name}`;
    const type = f.filingTypeDisplay || f.filingType;
    const filing = r.node('lobbying_filing', `${type} ${f.year}, ${who}`, {
      ids: { lda_filing: f.filingUuid },
      attrs: {
        year: f.year,
        period: f.period,
        amount: f.amount,
        amountKind: f.amountKind,
        issues: f.issues.map((i) => i.code),
        url: f.documentUrl,
      },
    });
    const registrant = r.node('company', f.registrant.name, {
      ids: { lda_registrant: f.registrant.id?.toString() },
    });
    // LDA's client id is the client as one registrant numbers it, so it names no company: the
    // client joins by name.
    const client = r.node('company', f.client.name, {
      attrs: { description: f.client.description },
    });
    r.edge(registrant, 'registrant_of', filing);
    r.edge(client, 'client_of', filing);
    // An in-house filing names the company twice; it does not lobby for itself.
    if (normName(f.registrant.name) !== normName(f.client.name)) {
      r.edge(registrant, 'lobbies_for', client);
    }
  }
  await recordEntities(ctx, g);
}
