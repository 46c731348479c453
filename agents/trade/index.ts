// trade (agent-trade): international trade in goods: a country's exports and imports of a product,
// U.S. trade with one country, and top partners. U.S. figures from the Census Bureau's
// international trade time series, other reporters from UN Comtrade (keyed, or its keyless
// preview with its 500-row cap); HS codes and country names resolved both ways (data-sources.md §0).
import { fail, type AgentContext } from '../kit/index.js';
import {
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import type { Provenance } from '../kit/public-data/index.js';
import { CENSUS, WORLD, census, isCountry, type CensusRow, type Flow } from './census.js';
import { COMTRADE, PREVIEW_ROWS, areas, comtrade, hsCodes, type HsEntry } from './comtrade.js';
import {
  CountryInput,
  FlowInput,
  PartnersInput,
  countryFromText,
  exportsFromText,
  importsFromText,
  partnersFromText,
  type FlowInput as FlowArgs,
} from './parse.js';
import { ranked, usd, type Ranked } from './render.js';
import { findHs, isUnitedStates, matchArea, matchName } from './resolve.js';

const TOP = 5;

function censusUp(ctx: AgentContext): Upstream {
  const s = ctx.config.publicData.trade.census;
  return new Upstream(
    upstreamOptions(ctx, s, {
      source: CENSUS,
      bucket: 'census-intltrade',
      urlSetting: 'CENSUS_URL',
      ...(s.apiKey ? { secretParams: { key: s.apiKey } } : {}),
    })
  );
}

function comtradeUp(ctx: AgentContext): { up: Upstream; keyed: boolean } {
  const s = ctx.config.publicData.trade.comtrade;
  const up = new Upstream(
    upstreamOptions(ctx, s, {
      source: COMTRADE,
      bucket: 'comtrade',
      urlSetting: 'COMTRADE_URL',
      ...(s.apiKey ? { secretHeaders: { 'ocp-apim-subscription-key': s.apiKey } } : {}),
    })
  );
  return { up, keyed: s.apiKey !== undefined };
}

/** Last full year: the latest both sources have in full (Comtrade may lag further: it says so). */
function defaultPeriod(ctx: AgentContext): string {
  return String(new Date(ctx.now()).getUTCFullYear() - 1);
}

async function commodityOf(
  ctx: AgentContext,
  asked: string | undefined,
  prov: Provenance[]
): Promise<HsEntry | undefined> {
  if (asked === undefined || /^(?:all|total|everything|goods|all goods)$/i.test(asked)) {
    return undefined;
  }
  if (/^\d{2}(\d{2}){0,2}$/.test(asked.trim())) return findHs(asked, []);
  const ref = await hsCodes(comtradeUp(ctx).up);
  prov.push(ref.provenance);
  const hs = findHs(asked, ref.codes);
  if (hs === undefined) {
    fail(`no HS code matches “${asked}”; give the code (e.g. 8471) or other words for the goods`);
  }
  return hs;
}

const countries = (rows: readonly CensusRow[]) =>
  rows.filter((r) => isCountry(r.ctyCode)).map((r) => ({ ...r, name: r.ctyName }));

function top(rows: readonly CensusRow[], n: number): Ranked[] {
  return countries(rows)
    .sort((a, b) => b.value - a.value)
    .slice(0, n)
    .map((r) => ({ code: r.ctyCode, name: r.ctyName, value: r.value }));
}

function what(flow: Flow, hs: HsEntry | undefined): string {
  return `${flow}${hs ? ` of ${hs.name} [HS ${hs.code}]` : ''}`;
}

async function flowRun(flow: Flow, input: FlowArgs, ctx: AgentContext) {
  const prov: Provenance[] = [];
  const period = input.period ?? defaultPeriod(ctx);
  const hs = await commodityOf(ctx, input.commodity, prov);
  const reporter = input.reporter ?? 'United States';
  const n = input.limit ?? TOP;
  const dir = flow === 'exports' ? 'to' : 'from';
  if (isUnitedStates(reporter)) {
    const r = await census(censusUp(ctx), { flow, period, commodity: hs?.code });
    prov.push(r.provenance);
    const named = hs && r.rows[0]?.commodityName ? { ...hs, name: r.rows[0].commodityName } : hs;
    const world = r.rows.find((x) => x.ctyCode === WORLD);
    const head = `🚢 U.S. ${what(flow, named)} in ${period}`;
    if (r.rows.length === 0) {
      return {
        text: `${head}: no data (${CENSUS} has none for this period yet, or none at all).`,
        data: {
          source: 'census',
          reporter: 'United States',
          flow,
          period,
          commodity: named ?? null,
          value: null,
          partner: null,
          topPartners: [],
        },
        provenance: prov,
      };
    }
    if (input.partner !== undefined) {
      const p = matchName(input.partner, countries(r.rows));
      const text = p
        ? `${head} ${dir} ${p.ctyName} [${p.ctyCode}]: ${usd(p.value)}` +
          (world
            ? ` (${((p.value / world.value) * 100).toFixed(1)}% of ${usd(world.value)} in all)`
            : '')
        : `${head}: no row for “${input.partner}” (no such trade, or not a name ${CENSUS} uses).`;
      return {
        text,
        data: {
          source: 'census',
          reporter: 'United States',
          flow,
          period,
          commodity: named ?? null,
          partner: p ? { code: p.ctyCode, name: p.ctyName } : null,
          value: p?.value ?? null,
          world: world?.value ?? null,
        },
        provenance: prov,
      };
    }
    const t = top(r.rows, n);
    return {
      text: [
        `${head}: ${world ? usd(world.value) : 'no total given'}`,
        ...ranked(`Top partners (${dir}):`, t, world?.value),
      ].join('\n'),
      data: {
        source: 'census',
        reporter: 'United States',
        flow,
        period,
        commodity: named ?? null,
        value: world?.value ?? null,
        topPartners: t,
      },
      provenance: prov,
    };
  }
  return comtradeFlow(ctx, flow, { reporter, period, hs, partner: input.partner, n }, prov);
}

async function comtradeFlow(
  ctx: AgentContext,
  flow: Flow,
  q: {
    reporter: string;
    period: string;
    hs: HsEntry | undefined;
    partner?: string | undefined;
    n: number;
    all?: boolean;
  },
  prov: Provenance[]
) {
  if (!/^\d{4}$/.test(q.period))
    fail(`${COMTRADE} is asked for annual figures: give a year, e.g. "2023"`);
  const { up, keyed } = comtradeUp(ctx);
  const reporters = await areas(up, 'Reporters');
  prov.push(reporters.provenance);
  const rep = matchArea(q.reporter, reporters.areas);
  if (rep === undefined) fail(`${COMTRADE} has no reporter named “${q.reporter}”`);
  const partnersRef = await areas(up, 'partnerAreas');
  prov.push(partnersRef.provenance);
  let partnerCode: number | undefined = 0;
  let partnerName = 'World';
  if (q.partner !== undefined) {
    const p = matchArea(q.partner, partnersRef.areas);
    if (p === undefined) fail(`${COMTRADE} has no partner named “${q.partner}”`);
    partnerCode = p.code;
    partnerName = p.name;
  } else if (q.all === true) partnerCode = undefined;
  const r = await comtrade(up, keyed, {
    flow,
    reporterCode: rep.code,
    period: q.period,
    partnerCode,
    commodity: q.hs?.code ?? 'TOTAL',
  });
  prov.push(r.provenance);
  const named = q.hs && r.rows[0] ? { ...q.hs, name: r.rows[0].commodityName } : q.hs;
  const head = `🚢 ${rep.name} ${what(flow, named)} in ${q.period}`;
  const cap = r.capped
    ? `\n⚠️ ${COMTRADE}'s keyless preview returns at most ${PREVIEW_ROWS} rows, so this may be incomplete; set COMTRADE_API_KEY for complete answers.`
    : '';
  const base = {
    source: 'comtrade',
    access: keyed ? 'key' : 'preview',
    capped: r.capped,
    reporter: { code: rep.code, name: rep.name },
    flow,
    period: q.period,
    commodity: named ?? null,
  };
  if (partnerCode === undefined) {
    const groups = new Set(partnersRef.areas.filter((a) => a.isGroup).map((a) => a.code));
    const world = r.rows.find((x) => x.partnerCode === 0)?.value;
    const t: Ranked[] = r.rows
      .filter((x) => x.partnerCode !== 0 && !groups.has(x.partnerCode))
      .sort((a, b) => b.value - a.value)
      .slice(0, q.n)
      .map((x) => ({ code: String(x.partnerCode), name: x.partner, value: x.value }));
    return {
      text:
        [
          `${head}: ${world !== undefined ? usd(world) : 'no world total given'}`,
          ...ranked('Top partners:', t, world),
        ].join('\n') + cap,
      data: { ...base, value: world ?? null, topPartners: t },
      provenance: prov,
    };
  }
  const value = r.rows.length > 0 ? r.rows.reduce((a, x) => a + x.value, 0) : null;
  const dir = flow === 'exports' ? 'to' : 'from';
  return {
    text:
      value === null
        ? `${head} ${dir} ${partnerName}: no data (${COMTRADE} has none for this period yet, or none at all).${cap}`
        : `${head} ${dir} ${partnerName} [${partnerCode}]: ${usd(value)}${cap}`,
    data: { ...base, partner: { code: partnerCode, name: partnerName }, value },
    provenance: prov,
  };
}

export default definePublicDataAgent({
  id: 'agent-trade',
  alias: 'trade',
  name: 'Trade',
  description:
    'International trade in goods: exports and imports of a product (HS code or words) by ' +
    'country and partner, U.S. trade with one country, and top trading partners. U.S. figures ' +
    'from the Census Bureau, other countries from UN Comtrade. Text or JSON with sources.',
  tags: [
    'trade',
    'exports',
    'imports',
    'tariffs',
    'hs codes',
    'census',
    'comtrade',
    'trade balance',
  ],
  skills: [
    skill({
      id: 'top-partners',
      name: 'Top partners',
      description:
        'A country’s biggest export markets or import suppliers, optionally for one product.',
      tags: ['partners', 'markets', 'suppliers', 'ranking'],
      examples: [
        'top export partners of the US for soybeans in 2024',
        '{"skill": "top-partners", "reporter": "Germany", "flow": "imports", "period": "2023"}',
      ],
      input: PartnersInput,
      fromText: partnersFromText,
      async run(input, _req, ctx) {
        const flow = input.flow ?? 'exports';
        const reporter = input.reporter ?? 'United States';
        if (isUnitedStates(reporter)) {
          const r = await flowRun(flow, { ...input, reporter, partner: undefined }, ctx);
          return r;
        }
        const prov: Provenance[] = [];
        const hs = await commodityOf(ctx, input.commodity, prov);
        return comtradeFlow(
          ctx,
          flow,
          {
            reporter,
            period: input.period ?? defaultPeriod(ctx),
            hs,
            n: input.limit ?? TOP,
            all: true,
          },
          prov
        );
      },
    }),
    skill({
      id: 'country',
      name: 'U.S. trade with a country',
      description:
        'U.S. exports to and imports from one country, the balance, and the top goods each way.',
      tags: ['country', 'bilateral', 'trade balance', 'deficit'],
      examples: [
        'US trade with Canada in 2024',
        '{"skill": "country", "country": "Vietnam", "period": "2025-03"}',
      ],
      input: CountryInput,
      fromText: countryFromText,
      async run(input, _req, ctx) {
        const period = input.period ?? defaultPeriod(ctx);
        const up = censusUp(ctx);
        const prov: Provenance[] = [];
        const totals = { exports: 0, imports: 0 };
        let found: { code: string; name: string } | undefined;
        for (const flow of ['exports', 'imports'] as const) {
          const r = await census(up, { flow, period });
          prov.push(r.provenance);
          const p = matchName(input.country, countries(r.rows));
          if (p) {
            totals[flow] = p.value;
            found = { code: p.ctyCode, name: p.ctyName };
          }
        }
        if (found === undefined) {
          return {
            text: `🚢 U.S. trade with “${input.country}” in ${period}: no data (no such country in ${CENSUS}'s answer, or no data for the period yet).`,
            data: {
              source: 'census',
              country: null,
              period,
              exports: null,
              imports: null,
              balance: null,
            },
            provenance: prov,
          };
        }
        const goods: Record<Flow, Ranked[]> = { exports: [], imports: [] };
        for (const flow of ['exports', 'imports'] as const) {
          const r = await census(up, { flow, period, byChapter: true, ctyCode: found.code });
          prov.push(r.provenance);
          goods[flow] = r.rows
            .filter((x) => x.commodity !== undefined)
            .sort((a, b) => b.value - a.value)
            .slice(0, input.limit ?? TOP)
            .map((x) => ({
              code: x.commodity!,
              name: x.commodityName ?? x.commodity!,
              value: x.value,
            }));
        }
        const balance = totals.exports - totals.imports;
        const text = [
          `🚢 U.S. trade with ${found.name} [${found.code}] in ${period}`,
          `📤 Exports: ${usd(totals.exports)} · 📥 Imports: ${usd(totals.imports)} · ⚖️ Balance: ${usd(balance)} (${balance >= 0 ? 'surplus' : 'deficit'})`,
          ...ranked('Top exports (HS chapters):', goods.exports, totals.exports),
          ...ranked('Top imports (HS chapters):', goods.imports, totals.imports),
        ].join('\n');
        return {
          text,
          data: {
            source: 'census',
            country: found,
            period,
            ...totals,
            balance,
            topExports: goods.exports,
            topImports: goods.imports,
          },
          provenance: prov,
        };
      },
    }),
    skill({
      id: 'exports',
      name: 'Exports',
      description:
        'A country’s exports (U.S. by default) of a product or in all, to one partner or the world with the top markets.',
      tags: ['exports', 'exported', 'shipments'],
      examples: [
        'US exports of soybeans to China in 2024',
        '{"skill": "exports", "reporter": "Germany", "commodity": "8703", "partner": "USA", "period": "2023"}',
      ],
      input: FlowInput,
      fromText: exportsFromText,
      run: (input, _req, ctx) => flowRun('exports', input, ctx),
    }),
    skill({
      id: 'imports',
      name: 'Imports',
      description:
        'A country’s imports (U.S. by default) of a product or in all, from one partner or the world with the top suppliers.',
      tags: ['imports', 'imported', 'suppliers'],
      examples: [
        'US imports of computers from Mexico in 2025-03',
        '{"skill": "imports", "commodity": "crude oil", "period": "2024"}',
      ],
      input: FlowInput,
      fromText: importsFromText,
      run: (input, _req, ctx) => flowRun('imports', input, ctx),
    }),
  ],
});
