// companies (agent-companies): a company across registries: SEC EDGAR (tickers, profile), GLEIF
// (LEI records) and UK Companies House (key required); its officers; and which of the hub's public
// datasets hold it, with the identifiers each knows it by.
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
  type Provenance,
} from '../kit/public-data/index.js';
import {
  executivesOf,
  findCompany,
  secClient,
  submissions,
  type Submissions,
} from '../kit/public-data/sec/index.js';
import {
  CH_NOT_CONFIGURED,
  companiesHouse,
  officersOf,
  searchCompanies,
  type ChCompany,
} from './companies-house.js';
import { GLEIF_SOURCE, leiByName } from './gleif.js';
import {
  LookupInput,
  OfficersInput,
  PresenceInput,
  lookupFromText,
  officersFromText,
  presenceFromText,
} from './parse.js';
import {
  epaPresence,
  fdaPresence,
  patentsPresence,
  trialsPresence,
  type Presence,
} from './presence.js';
import {
  chLines,
  gleifLines,
  officerLines,
  presenceLines,
  secLines,
  secOfficerLines,
} from './render.js';

/** Ownership filings read for SEC officers (each is one request). */
export const OFFICER_FORMS = 10;

function gleif(ctx: AgentContext): Upstream {
  return new Upstream(
    upstreamOptions(ctx, ctx.config.publicData.gleif, {
      source: GLEIF_SOURCE,
      bucket: 'gleif',
      urlSetting: 'GLEIF_URL',
    })
  );
}

async function sec(
  ctx: AgentContext,
  company: string
): Promise<{ subs: Submissions | undefined; provenance: Provenance[] }> {
  const client = secClient(ctx);
  const m = await findCompany(client, company);
  const provenance = [...m.provenance];
  const subs = m.best === undefined ? undefined : await submissions(client, m.best.cik);
  if (subs !== undefined) provenance.push(subs.provenance);
  return { subs, provenance };
}

export default definePublicDataAgent({
  id: 'agent-companies',
  alias: 'companies',
  name: 'Companies',
  description:
    'Company registries in one place: SEC EDGAR (CIK, ticker, profile), GLEIF (LEI) and UK ' +
    'Companies House: look a company up, list its officers, and see which public datasets of the ' +
    'hub (SEC, GLEIF, Companies House, clinical trials, FDA, EPA, patents) hold it, with identifiers.',
  tags: [
    'companies',
    'company registry',
    'lei',
    'gleif',
    'companies house',
    'cik',
    'officers',
    'corporate',
  ],
  skills: [
    skill({
      id: 'presence',
      name: 'Data presence',
      description:
        'Which datasets hold a company (SEC, GLEIF, Companies House, ClinicalTrials.gov, openFDA, EPA ECHO, USPTO), with identifiers.',
      tags: ['data presence', 'datasets', 'identifiers'],
      examples: ['which datasets hold Pfizer', '{"skill": "presence", "company": "Pfizer"}'],
      input: PresenceInput,
      fromText: presenceFromText,
      async run(input, _req, ctx) {
        const s = await sec(ctx, input.company);
        const name = s.subs?.profile.name ?? input.company;
        const provenance = [...s.provenance];
        const rows: Presence[] = [
          s.subs === undefined
            ? { dataset: 'SEC EDGAR', agent: 'sec-filings', status: 'none', count: 0, ids: [] }
            : {
                dataset: 'SEC EDGAR',
                agent: 'sec-filings',
                status: 'found',
                count: 1,
                ids: [`CIK ${s.subs.profile.cik}`, ...s.subs.profile.tickers],
              },
        ];
        const g = await leiByName(gleif(ctx), name, 3, 1);
        provenance.push(...g.provenance);
        rows.push({
          dataset: 'GLEIF',
          agent: 'companies',
          status: g.records.length > 0 ? 'found' : 'none',
          count: g.total ?? g.records.length,
          ids: g.records.map((r) => `LEI ${r.lei}`),
        });
        const ch = companiesHouse(ctx);
        if (ch === undefined) {
          rows.push({
            dataset: 'Companies House',
            agent: 'companies',
            status: 'not configured',
            count: null,
            ids: [],
            note: 'set COMPANIES_HOUSE_API_KEY',
          });
        } else {
          const c = await searchCompanies(ch, input.company, 3);
          provenance.push(...c.provenance);
          rows.push({
            dataset: 'Companies House',
            agent: 'companies',
            status: c.items.length > 0 ? 'found' : 'none',
            count: c.total ?? c.items.length,
            ids: c.items.map((i) => `${i.companyNumber} ${i.name}`),
          });
        }
        // The other datasets know companies by the name people use, not the legal suffix.
        const plain = input.company;
        for (const probe of [trialsPresence, fdaPresence, epaPresence, patentsPresence]) {
          const r = await probe(ctx, plain);
          rows.push(r.p);
          provenance.push(...r.provenance);
        }
        return {
          text: [
            `🧭 Where “${input.company}” appears in the hub’s public datasets:`,
            ...presenceLines(rows),
          ].join('\n'),
          data: { company: input.company, datasets: rows },
          provenance,
        };
      },
    }),
    skill({
      id: 'officers',
      name: 'Officers',
      description:
        'A company’s officers: Companies House appointments (by name or company number) and SEC filers’ executives from their proxy and insider forms.',
      tags: ['officers', 'directors', 'executives'],
      examples: ['officers of Pfizer', '{"skill": "officers", "companyNumber": "00526209"}'],
      input: OfficersInput,
      fromText: officersFromText,
      async run(input, _req, ctx) {
        const provenance: Provenance[] = [];
        const lines: string[] = [];
        const data: Record<string, unknown> = {
          company: input.company ?? null,
          companyNumber: input.companyNumber ?? null,
        };
        if (input.company !== undefined) {
          const s = await sec(ctx, input.company);
          provenance.push(...s.provenance);
          if (s.subs === undefined) {
            lines.push(...secOfficerLines(undefined, [], []));
            data.sec = null;
          } else {
            const found = await executivesOf(secClient(ctx), s.subs, OFFICER_FORMS);
            provenance.push(...found.provenance);
            const peo = found.proxy?.peo.map((p) => p.name) ?? [];
            lines.push(...secOfficerLines(s.subs.profile, found.executives, peo));
            data.sec = {
              cik: s.subs.profile.cik,
              name: s.subs.profile.name,
              peo,
              executives: found.executives,
            };
          }
        }
        const ch = companiesHouse(ctx);
        if (ch === undefined) {
          lines.push(...officerLines(undefined, CH_NOT_CONFIGURED));
          data.companiesHouse = { status: 'not configured' };
        } else {
          let company: ChCompany | undefined;
          let number = input.companyNumber;
          if (number === undefined) {
            const c = await searchCompanies(ch, input.company!, 1);
            provenance.push(...c.provenance);
            company = c.items[0];
            number = company?.companyNumber;
          }
          if (number === undefined) {
            lines.push('🇬🇧 Companies House: no company by that name');
            data.companiesHouse = { status: 'none' };
          } else {
            const o = await officersOf(ch, number);
            provenance.push(...o.provenance);
            lines.push(
              ...officerLines(
                company ?? {
                  companyNumber: number,
                  name: number,
                  status: null,
                  type: null,
                  createdOn: null,
                  address: null,
                  url: '',
                },
                o.officers ?? 'no such company number'
              )
            );
            data.companiesHouse = {
              status: o.officers === undefined ? 'none' : 'found',
              companyNumber: number,
              company: company ?? null,
              officers: o.officers ?? [],
            };
          }
        }
        return { text: [`👥 Officers`, ...lines].join('\n'), data, provenance };
      },
    }),
    skill({
      id: 'lookup',
      name: 'Company lookup',
      description:
        'A company by name, ticker or CIK in SEC EDGAR (profile), GLEIF (LEI records) and Companies House.',
      tags: ['lookup', 'profile', 'lei', 'registry'],
      examples: ['look up Apple', '{"skill": "lookup", "company": "AAPL"}'],
      input: LookupInput,
      fromText: lookupFromText,
      async run(input, _req, ctx) {
        const limit = input.limit ?? DEFAULT_LIMIT;
        const s = await sec(ctx, input.company);
        const provenance = [...s.provenance];
        const legalName = s.subs?.profile.name ?? input.company;
        let g = await leiByName(gleif(ctx), legalName, limit, ctx.config.publicData.maxPages);
        provenance.push(...g.provenance);
        // GLEIF matches the legal name whole; the name asked may be it when EDGAR's is not.
        if (g.records.length === 0 && legalName !== input.company) {
          g = await leiByName(gleif(ctx), input.company, limit, ctx.config.publicData.maxPages);
          provenance.push(...g.provenance);
        }
        const ch = companiesHouse(ctx);
        let chPart: { status: string; total?: number | null; items?: ChCompany[] } = {
          status: 'not configured',
        };
        if (ch !== undefined) {
          const c = await searchCompanies(ch, input.company, Math.min(limit, 20));
          provenance.push(...c.provenance);
          chPart = {
            status: c.items.length > 0 ? 'found' : 'none',
            total: c.total,
            items: c.items,
          };
        }
        const text = [
          `🏢 “${input.company}” in company registries`,
          ...secLines(s.subs?.profile),
          ...gleifLines(g.records, g.total),
          ...chLines(chPart.items ?? CH_NOT_CONFIGURED, chPart.total ?? null),
        ].join('\n');
        return {
          text,
          data: {
            company: input.company,
            sec: s.subs?.profile ?? null,
            gleif: { total: g.total, records: g.records },
            companiesHouse: chPart,
          },
          provenance,
        };
      },
    }),
  ],
});
