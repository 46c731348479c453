// What the fda agent tells the shared entity graph (kit/public-data/entities): the companies of
// openFDA records and their products: an application's sponsor holds the application for its
// products, a label's manufacturer manufactures the labelled drug, a recall's firm recalled the
// product. Each with the provenance of the request that returned the record.
import type { AgentContext } from '../kit/index.js';
import { EntityBatch, recordEntities, type Provenance } from '../kit/public-data/index.js';
import type { Application, Label, Recall } from './openfda.js';

export const FDA_ID = 'agent-fda';

export interface FdaRecords {
  applications?: { records: readonly Application[]; from: readonly Provenance[] };
  labels?: { records: readonly Label[]; from: readonly Provenance[] };
  recalls?: { records: readonly Recall[]; from: readonly Provenance[] };
}

export async function recordFda(ctx: AgentContext, r: FdaRecords): Promise<void> {
  const g = new EntityBatch(FDA_ID);
  const apps = r.applications;
  if (apps?.from[0] !== undefined) {
    for (const a of apps.records) {
      const s = g.record(a.applicationNumber, apps.from[0]);
      const sponsor = s.node('company', a.sponsor);
      const names = new Set(a.products.map((p) => p.brandName).filter((n) => n !== ''));
      if (names.size === 0 && a.brandName !== '') names.add(a.brandName);
      for (const name of names) {
        const product = s.node('product', name, {
          attrs: {
            genericName: a.genericName,
            application: a.applicationNumber,
            approvedOn: a.approvedOn,
          },
        });
        s.edge(sponsor, 'holds_application', product);
      }
    }
  }
  const labels = r.labels;
  if (labels?.from[0] !== undefined) {
    for (const l of labels.records) {
      const s = g.record(l.setId, labels.from[0]);
      const product = l.brandName === 'unnamed' ? undefined : l.brandName;
      s.edge(
        s.node('company', l.manufacturer),
        'manufactures',
        s.node('product', product, { attrs: { genericName: l.genericName } })
      );
    }
  }
  const recalls = r.recalls;
  if (recalls?.from[0] !== undefined) {
    for (const c of recalls.records) {
      const s = g.record(c.recallNumber, recalls.from[0]);
      const product = c.product.length > 120 ? `${c.product.slice(0, 119)}…` : c.product;
      s.edge(
        s.node('company', c.firm, { attrs: { state: c.state, country: c.country } }),
        'recalled',
        s.node('product', product, { attrs: { recall: c.recallNumber, status: c.status } })
      );
    }
  }
  await recordEntities(ctx, g);
}
