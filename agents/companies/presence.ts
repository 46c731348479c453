// Which of the hub's public datasets hold a company, with the identifiers they know it by: one
// small request per dataset of the other public-data agents (ClinicalTrials.gov sponsors, openFDA
// drug applications, EPA ECHO facilities, USPTO applicants), on those agents' own settings and
// rate buckets. Agents never call each other's code: these probes ask the upstreams directly.
import type { AgentContext } from '../kit/index.js';
import { Upstream, upstreamOptions, type Provenance } from '../kit/public-data/index.js';

export interface Presence {
  dataset: string;
  /** The agent that answers more about it. */
  agent: string;
  status: 'found' | 'none' | 'not configured';
  count: number | null;
  /** Identifiers of the first matches: NCT ids, application numbers, registry ids, patents. */
  ids: string[];
  note?: string;
}

const SAMPLE = 3;

/** A phrase for Lucene-style queries: quotes and backslashes out. */
const phrase = (s: string) => `"${s.replace(/["\\]/g, ' ').trim()}"`;

export async function trialsPresence(
  ctx: AgentContext,
  name: string
): Promise<{ p: Presence; provenance: Provenance[] }> {
  const up = new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.trials, {
      source: 'ClinicalTrials.gov',
      bucket: 'clinicaltrials',
      urlSetting: 'TRIALS_URL',
    })
  );
  const a = await up.get({
    path: '/studies',
    params: {
      format: 'json',
      countTotal: 'true',
      'query.spons': name,
      pageSize: SAMPLE,
      fields: 'protocolSection.identificationModule.nctId',
    },
  });
  const b = (a.body ?? {}) as { totalCount?: unknown; studies?: Array<Record<string, unknown>> };
  const ids = (b.studies ?? [])
    .map(
      (s) =>
        (s.protocolSection as { identificationModule?: { nctId?: unknown } } | undefined)
          ?.identificationModule?.nctId
    )
    .filter((x): x is string => typeof x === 'string');
  const count = typeof b.totalCount === 'number' ? b.totalCount : ids.length;
  return {
    p: {
      dataset: 'ClinicalTrials.gov (sponsor)',
      agent: 'trials',
      status: count > 0 ? 'found' : 'none',
      count,
      ids,
    },
    provenance: [a.provenance],
  };
}

export async function fdaPresence(
  ctx: AgentContext,
  name: string
): Promise<{ p: Presence; provenance: Provenance[] }> {
  const s = ctx.config.publicData.fda;
  const up = new Upstream(
    upstreamOptions(ctx, s, {
      source: 'openFDA',
      bucket: 'openfda',
      urlSetting: 'FDA_URL',
      ...(s.apiKey !== undefined ? { secretParams: { api_key: s.apiKey } } : {}),
    })
  );
  const a = await up.get({
    path: '/drug/drugsfda.json',
    params: { search: `sponsor_name:${phrase(name)}`, limit: SAMPLE },
    // openFDA answers "no matches" with a 404.
    noMatches: (status) => status === 404,
  });
  const b = (a.body ?? {}) as {
    meta?: { results?: { total?: unknown } };
    results?: Array<Record<string, unknown>>;
  };
  const ids = (b.results ?? [])
    .map((r) => r.application_number)
    .filter((x): x is string => typeof x === 'string');
  const total = b.meta?.results?.total;
  const count = typeof total === 'number' ? total : ids.length;
  return {
    p: {
      dataset: 'openFDA drug applications (sponsor)',
      agent: 'fda',
      status: count > 0 ? 'found' : 'none',
      count,
      ids,
    },
    provenance: [a.provenance],
  };
}

export async function epaPresence(
  ctx: AgentContext,
  name: string
): Promise<{ p: Presence; provenance: Provenance[] }> {
  const up = new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.epa, {
      source: 'EPA ECHO',
      bucket: 'echo',
      urlSetting: 'EPA_URL',
    })
  );
  const a = await up.get({
    path: '/echo_rest_services.get_facilities',
    params: { output: 'JSON', p_fn: name, responseset: SAMPLE },
    // A query id lives about 30 minutes upstream.
    cacheTtlMs: 25 * 60_000,
  });
  const r =
    ((a.body ?? {}) as { Results?: { QueryID?: unknown; QueryRows?: unknown } }).Results ?? {};
  const count = Number(r.QueryRows ?? 0);
  const provenance = [a.provenance];
  let ids: string[] = [];
  if (count > 0 && (typeof r.QueryID === 'string' || typeof r.QueryID === 'number')) {
    const q = await up.get({
      path: '/echo_rest_services.get_qid',
      params: {
        output: 'JSON',
        qid: String(r.QueryID),
        pageno: 1,
      },
      cacheTtlMs: 25 * 60_000,
    });
    provenance.push(q.provenance);
    const f =
      ((q.body ?? {}) as { Results?: { Facilities?: Array<Record<string, unknown>> } }).Results
        ?.Facilities ?? [];
    ids = f
      .slice(0, SAMPLE)
      .map((x) => x.RegistryID)
      .filter((x): x is string => typeof x === 'string');
  }
  return {
    p: {
      dataset: 'EPA ECHO facilities (name)',
      agent: 'epa',
      status: count > 0 ? 'found' : 'none',
      count,
      ids,
    },
    provenance,
  };
}

export async function patentsPresence(
  ctx: AgentContext,
  name: string
): Promise<{ p: Presence; provenance: Provenance[] }> {
  const s = ctx.config.publicData.patents;
  const base: Presence = {
    dataset: 'USPTO patents (applicant)',
    agent: 'patents',
    status: 'not configured',
    count: null,
    ids: [],
  };
  if (s.apiKey === undefined || s.provider !== 'odp') {
    return {
      p: {
        ...base,
        note:
          s.apiKey === undefined
            ? 'set PATENTS_API_KEY (a USPTO Open Data Portal key)'
            : 'PATENTS_PROVIDER=patentsview is not probed here; ask the patents agent',
      },
      provenance: [],
    };
  }
  const up = new Upstream(
    upstreamOptions(ctx, s, {
      source: 'USPTO Open Data Portal',
      bucket: 'uspto-odp',
      urlSetting: 'PATENTS_URL',
      secretHeaders: { 'x-api-key': s.apiKey },
    })
  );
  const a = await up.get({
    path: '/api/v1/patent/applications/search',
    params: {
      q: `applicationMetaData.firstApplicantName:${phrase(name)}`,
      offset: 0,
      limit: SAMPLE,
    },
    noMatches: (status) => status === 404,
  });
  const b = (a.body ?? {}) as {
    count?: unknown;
    patentFileWrapperDataBag?: Array<Record<string, unknown>>;
  };
  const ids = (b.patentFileWrapperDataBag ?? [])
    .map((p) => {
      const m = p.applicationMetaData as { patentNumber?: unknown } | undefined;
      return typeof m?.patentNumber === 'string' ? `US ${m.patentNumber}` : p.applicationNumberText;
    })
    .filter((x): x is string => typeof x === 'string');
  const count = typeof b.count === 'number' ? b.count : ids.length;
  return {
    p: { ...base, status: count > 0 ? 'found' : 'none', count, ids },
    provenance: [a.provenance],
  };
}
