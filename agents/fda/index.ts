// fda (agent-fda): drugs from openFDA: search (labels and recalls), sponsor (applications), recent
// approvals (original approvals in a window) and adverse events (FAERS tallies); the optional
// FDA_API_KEY raises openFDA's daily quota (data-sources.md §0).
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import {
  anyOf,
  countTerms,
  readApplication,
  readLabel,
  readRecall,
  searchRecords,
  SOURCE,
  term,
  type Application,
} from './openfda.js';
import { recordFda } from './entities.js';
import {
  AdverseInput,
  ApprovalsInput,
  SearchInput,
  SponsorInput,
  adverseFromText,
  approvalsFromText,
  compact,
  searchFromText,
  sponsorFromText,
  window,
} from './parse.js';
import { renderAdverse, renderApprovals, renderSearch, renderSponsor } from './render.js';

function upstream(ctx: AgentContext): Upstream {
  const s = ctx.config.publicData.fda;
  return new Upstream(
    upstreamOptions(ctx, s, {
      source: SOURCE,
      bucket: 'openfda',
      urlSetting: 'FDA_URL',
      ...(s.apiKey !== undefined ? { secretParams: { api_key: s.apiKey } } : {}),
    })
  );
}

function defined<T>(xs: ReadonlyArray<T | undefined>): T[] {
  return xs.filter((x): x is T => x !== undefined);
}

const SORT_BY_DATE = 'submissions.submission_status_date:desc';

export default definePublicDataAgent({
  id: 'agent-fda',
  alias: 'fda',
  name: 'FDA Drugs',
  description:
    'U.S. drug data from openFDA: drug labels and recalls, a sponsor’s drug applications, recent ' +
    'original approvals, and adverse event reports (FAERS) with the most reported reactions. Text ' +
    'or JSON with the source of every answer.',
  tags: ['fda', 'openfda', 'drug', 'pharmaceutical', 'medicine', 'recalls', 'adverse events'],
  skills: [
    skill({
      id: 'adverse-events',
      name: 'Adverse events',
      description:
        'Adverse event reports for a drug: how many, how many serious, the most reported reactions.',
      tags: ['adverse events', 'side effects', 'faers', 'safety'],
      examples: ['side effects of ibuprofen', '{"skill": "adverse-events", "drug": "metformin"}'],
      input: AdverseInput,
      fromText: adverseFromText,
      async run(input, _req, ctx) {
        const up = upstream(ctx);
        const search = anyOf(
          ['patient.drug.openfda.generic_name', 'patient.drug.openfda.brand_name'],
          input.drug
        );
        const limit = input.limit ?? DEFAULT_LIMIT;
        const reactions = await countTerms(
          up,
          '/drug/event.json',
          search,
          'patient.reaction.reactionmeddrapt.exact',
          limit
        );
        const serious = await countTerms(up, '/drug/event.json', search, 'serious', 2);
        const total = serious.terms.reduce((n, t) => n + t.count, 0);
        const reports = {
          total,
          serious: serious.terms.find((t) => t.term === '1')?.count ?? 0,
        };
        return {
          text: renderAdverse(input.drug, reports, reactions.terms),
          data: { drug: input.drug, reports, reactions: reactions.terms },
          provenance: [reactions.provenance, serious.provenance],
        };
      },
    }),
    skill({
      id: 'recent-approvals',
      name: 'Recent approvals',
      description:
        'Original drug approvals (NDA/BLA/ANDA) in the last N days (default 90) or between dates.',
      tags: ['approvals', 'new drugs', 'drugsfda'],
      examples: [
        'recent approvals in the last 30 days',
        '{"skill": "recent-approvals", "from": "2026-01-01", "to": "2026-03-31"}',
      ],
      input: ApprovalsInput,
      fromText: approvalsFromText,
      async run(input, _req, ctx) {
        const w = window(input, ctx.now());
        const search =
          `submissions.submission_type:${term('ORIG')} AND ` +
          `submissions.submission_status:${term('AP')} AND ` +
          `submissions.submission_status_date:[${compact(w.from)} TO ${compact(w.to)}]`;
        const r = await searchRecords(
          upstream(ctx),
          '/drug/drugsfda.json',
          { search, sort: SORT_BY_DATE },
          input.limit ?? DEFAULT_LIMIT,
          ctx.config.publicData.maxPages
        );
        // openFDA matches each condition in any submission: keep the original approvals in range.
        const apps = defined(r.records.map(readApplication))
          .filter(
            (a) => a.approvedOn !== undefined && a.approvedOn >= w.from && a.approvedOn <= w.to
          )
          .sort((a, b) => b.approvedOn!.localeCompare(a.approvedOn!));
        await recordFda(ctx, { applications: { records: apps, from: r.provenance } });
        return {
          text: renderApprovals(w, apps, r.total),
          data: { from: w.from, to: w.to, total: r.total, results: apps },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'sponsor',
      name: 'Drugs by sponsor',
      description: 'A company’s FDA drug applications with their products and approval dates.',
      tags: ['sponsor', 'company', 'applications'],
      examples: ['drugs by Pfizer', '{"skill": "sponsor", "sponsor": "Merck"}'],
      input: SponsorInput,
      fromText: sponsorFromText,
      async run(input, _req, ctx) {
        const r = await searchRecords(
          upstream(ctx),
          '/drug/drugsfda.json',
          { search: `sponsor_name:${term(input.sponsor)}` },
          input.limit ?? DEFAULT_LIMIT,
          ctx.config.publicData.maxPages
        );
        const apps: Application[] = defined(r.records.map(readApplication));
        await recordFda(ctx, { applications: { records: apps, from: r.provenance } });
        return {
          text: renderSponsor(input.sponsor, apps, r.total),
          data: { sponsor: input.sponsor, total: r.total, results: apps },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search drugs',
      description: 'A drug by brand or generic name: its labels (use, boxed warning) and recalls.',
      tags: ['search', 'label', 'recall'],
      examples: ['advil', '{"skill": "search", "drug": "ibuprofen", "limit": 5}'],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const up = upstream(ctx);
        const limit = input.limit ?? DEFAULT_LIMIT;
        const maxPages = ctx.config.publicData.maxPages;
        const labels = await searchRecords(
          up,
          '/drug/label.json',
          { search: anyOf(['openfda.brand_name', 'openfda.generic_name'], input.drug) },
          limit,
          maxPages
        );
        const recalls = await searchRecords(
          up,
          '/drug/enforcement.json',
          {
            search: anyOf(
              ['openfda.brand_name', 'openfda.generic_name', 'product_description'],
              input.drug
            ),
            sort: 'report_date:desc',
          },
          limit,
          maxPages
        );
        const l = defined(labels.records.map(readLabel));
        const rc = defined(recalls.records.map(readRecall));
        await recordFda(ctx, {
          labels: { records: l, from: labels.provenance },
          recalls: { records: rc, from: recalls.provenance },
        });
        return {
          text: renderSearch(input.drug, l, rc),
          data: {
            drug: input.drug,
            labels: { total: labels.total, results: l },
            recalls: { total: recalls.total, results: rc },
          },
          provenance: [...labels.provenance, ...recalls.provenance],
        };
      },
    }),
  ],
});
