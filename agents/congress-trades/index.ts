// congress-trades (agent-congress-trades): stock trades members of Congress disclose in periodic
// transaction reports: the House Clerk's yearly index and PTR PDFs, and the Senate's eFD (after
// its agreement step). Skills: search, member, stock, recent (data-sources.md §0). Every reply
// carries the Ethics in Government Act notice on the use of these reports.
import type { AgentContext, AgentResult, OfficialAgent } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  definePublicDataAgent,
  skill,
  type SkillReply,
} from '../kit/public-data/index.js';
import {
  MemberInput,
  RecentInput,
  SearchInput,
  StockInput,
  memberFromText,
  recentFromText,
  searchFromText,
  stockFromText,
  windowOf,
  type Window,
} from './parse.js';
import { collect, type Scope, type TradeFilter } from './reports.js';
import { NOTICE, renderTrades } from './render.js';

const CHAMBER_WORD = { house: ' in the House', senate: ' in the Senate' } as const;

async function answer(
  ctx: AgentContext,
  heading: string,
  w: Window,
  scope: Omit<Scope, 'from' | 'to'>,
  filter: TradeFilter,
  limit: number | undefined,
  asked: Record<string, unknown>
): Promise<SkillReply> {
  const c = await collect(ctx, { ...scope, from: w.from, to: w.to }, filter);
  const shown = c.trades.slice(0, limit ?? DEFAULT_LIMIT);
  const where = scope.chamber ? CHAMBER_WORD[scope.chamber] : '';
  return {
    text: [renderTrades(`${heading}${where} (${w.label})`.trim(), c, shown), NOTICE].join('\n\n'),
    data: {
      ...asked,
      chamber: scope.chamber ?? null,
      window: { from: w.from, to: w.to },
      total: c.trades.length,
      results: shown,
      reports: { found: c.found, read: c.read },
      notice: NOTICE,
    },
    provenance: c.provenance,
  };
}

const agent = definePublicDataAgent({
  id: 'agent-congress-trades',
  alias: 'congress-trades',
  name: 'Congress Trades',
  description:
    'Stock trades disclosed by members of the U.S. Congress in periodic transaction reports ' +
    '(STOCK Act): House Clerk PTR filings and the Senate eFD. Search trades, one member’s ' +
    'trades, trades in one stock (ticker), and recent trades. Scanned filings are named, not ' +
    'guessed. Text or JSON with the source of every answer.',
  tags: [
    'congress',
    'congressional stock trades',
    'stock act',
    'periodic transaction report',
    'ptr',
    'house',
    'senate',
    'senator',
    'financial disclosure',
  ],
  skills: [
    skill({
      id: 'stock',
      name: 'Trades in a stock',
      description:
        'Trades members of Congress reported in one stock (ticker), newest first, in a window.',
      tags: ['ticker', 'stock', 'shares'],
      examples: [
        'which members of Congress traded $NVDA',
        '{"skill": "stock", "ticker": "NVDA", "days": 90}',
      ],
      input: StockInput,
      fromText: stockFromText,
      run(input, _req, ctx) {
        const w = windowOf(ctx.now(), input, 90);
        return answer(
          ctx,
          `in ${input.ticker}`,
          w,
          { chamber: input.chamber },
          { ticker: input.ticker, type: input.type },
          input.limit,
          { ticker: input.ticker }
        );
      },
    }),
    skill({
      id: 'member',
      name: 'A member’s trades',
      description:
        'The trades one senator or representative reported, by name, in a window or a year.',
      tags: ['senator', 'representative', 'member', 'politician'],
      examples: [
        'stock trades by Nancy Pelosi',
        '{"skill": "member", "name": "Tuberville", "chamber": "senate", "year": 2026}',
      ],
      input: MemberInput,
      fromText: memberFromText,
      run(input, _req, ctx) {
        const w = windowOf(ctx.now(), input, 365);
        return answer(
          ctx,
          `by ${input.name}`,
          w,
          { chamber: input.chamber, member: input.name },
          { ticker: input.ticker, type: input.type },
          input.limit,
          { name: input.name }
        );
      },
    }),
    skill({
      id: 'recent',
      name: 'Recent trades',
      description: 'Trades in the reports filed most recently (last 30 days unless asked).',
      tags: ['recent', 'latest', 'new filings'],
      examples: [
        'recent congress stock trades',
        '{"skill": "recent", "days": 7, "chamber": "senate"}',
      ],
      input: RecentInput,
      fromText: recentFromText,
      run(input, _req, ctx) {
        const w = windowOf(ctx.now(), input, 30);
        return answer(
          ctx,
          '',
          w,
          { chamber: input.chamber },
          { type: input.type },
          input.limit,
          {}
        );
      },
    }),
    skill({
      id: 'search',
      name: 'Search trades',
      description:
        'Trades whose asset, ticker or member matches the words, in a window (last 90 days unless asked).',
      tags: ['search', 'asset', 'company'],
      examples: [
        'congress trades in Microsoft shares this year',
        '{"skill": "search", "query": "treasury bill", "year": 2026}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      run(input, _req, ctx) {
        const w = windowOf(ctx.now(), input, 90);
        return answer(
          ctx,
          `matching “${input.query}”`,
          w,
          { chamber: input.chamber },
          { query: input.query, type: input.type },
          input.limit,
          { query: input.query }
        );
      },
    }),
  ],
});

/** The notice goes on the help answer too: every reply of this agent carries it. */
const congressTrades: OfficialAgent = {
  ...agent,
  async handle(req, ctx): Promise<AgentResult> {
    const r = await agent.handle(req, ctx);
    if (typeof r === 'string' || r.state !== 'input-required') return r;
    return { ...r, text: `${r.text ?? ''}\n\n${NOTICE}` };
  },
};

export default congressTrades;
