// The kanban agent through the running hub: every action and its errors, done lanes and
// completed_at, WIP limits (exact under concurrent moves), soft deletes, card history, the default
// board, and boards that belong to one sender agent only (same tenant or not, forged fields or not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  forgedIdentity,
  startAgentHub,
  type AgentHub,
  type Answer,
} from '../support/official-agents.js';

interface LaneData {
  id: string;
  name: string;
  position: number;
  is_done: boolean;
  wip_limit: number | null;
  card_count?: number;
}
interface BoardData {
  id: string;
  name: string;
  slug: string;
}
interface CardData {
  id: string;
  board_id: string;
  lane_id: string;
  title: string;
  description: string;
  due_at: string | null;
  priority: number | null;
  labels: string[];
  source_ref: string | null;
  completed_at: string | null;
  overdue: boolean;
  lane?: string;
  board?: string;
}
interface EventData {
  kind: string;
  at: string;
  details: Record<string, unknown>;
}

const JSON_OUT = { accept: ['application/json'] };
const CARD_ID = /^kb_card_[0-9a-f]{16}$/;

let h: AgentHub;
let tenantA: string;
let tenantB: string;

beforeAll(async () => {
  h = await startAgentHub();
  tenantA = await h.tenant('kanban-a');
  tenantB = await h.tenant('kanban-b');
});

afterAll(async () => {
  await h?.close();
});

let agents = 0;
/** A fresh agent: every test starts with no boards. */
async function fresh(tenantId = tenantA): Promise<string> {
  agents += 1;
  return (await h.agent(tenantId, `kanban-${agents}`)).key;
}

function kb(
  key: string,
  body: string | Record<string, unknown>,
  o: Parameters<typeof ask>[4] = JSON_OUT
) {
  return ask(h.url, key, 'kanban', body, o);
}

/** Run an action that must succeed; its JSON data. */
async function ok<T>(key: string, body: Record<string, unknown>): Promise<T> {
  const a = await kb(key, body);
  expect(a.error).toBeUndefined();
  expect(a.state, a.statusText).toBe('completed');
  return a.data as T;
}

async function failed(
  key: string,
  body: string | Record<string, unknown>,
  pattern: RegExp
): Promise<Answer> {
  const a = await kb(key, body);
  expect(a.error).toBeUndefined();
  expect(a.state, a.text).toBe('failed');
  expect(a.statusText).toMatch(pattern);
  return a;
}

async function newCard(key: string, fields: Record<string, unknown>): Promise<CardData> {
  return (await ok<{ card: CardData }>(key, { action: 'card:create', ...fields })).card;
}

async function getCard(
  key: string,
  card: string
): Promise<{ card: CardData; events: EventData[] }> {
  return ok(key, { action: 'card:get', card });
}

async function lanesOf(key: string, board?: string): Promise<LaneData[]> {
  return (
    await ok<{ lanes: LaneData[] }>(key, { action: 'board:get', ...(board ? { board } : {}) })
  ).lanes;
}

async function listIds(key: string, filters: Record<string, unknown>): Promise<string[]> {
  const d = await ok<{ cards: CardData[] }>(key, { action: 'card:list', ...filters });
  return d.cards.map((c) => c.id);
}

describe('help and malformed requests', () => {
  it('answers "help" with the actions, and fails other plain text with the same help', async () => {
    const key = await fresh();
    const help = await kb(key, 'help', {});
    expect(help.state).toBe('completed');
    for (const name of ['board:create', 'lane:reorder', 'card:uncomplete', 'card:list']) {
      expect(help.text).toContain(`• ${name}:`);
    }
    const plain = await failed(key, 'add a card to buy milk', /JSON text with an "action"/);
    expect(plain.statusText).toContain('card:create');
  });

  it('names a missing or unknown action', async () => {
    const key = await fresh();
    await failed(key, { title: 'x' }, /add "action" with one of .*"card:create"/);
    await failed(key, { action: 'card:explode' }, /unknown action "card:explode"/);
  });
});

describe('boards', () => {
  it('creates a board with the default lanes and a slug from its name', async () => {
    const key = await fresh();
    const a = await kb(key, { action: 'board:create', name: 'Q3 Launch' }, {});
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^✅ Created board\n📋 Board Q3 Launch \(q3-launch\)/);
    const lanes = await lanesOf(key, 'q3-launch');
    expect(lanes.map((l) => [l.name, l.position, l.is_done])).toEqual([
      ['Todo', 10, false],
      ['Doing', 20, false],
      ['Done', 30, true],
    ]);
  });

  it('takes lanes by name or with is_done and wip_limit', async () => {
    const key = await fresh();
    const d = await ok<{ board: BoardData; lanes: LaneData[] }>(key, {
      action: 'board:create',
      name: 'Ops',
      slug: 'ops-2026',
      lanes: [
        'Inbox',
        { name: 'Fixing', wip_limit: 2 },
        { name: 'Shipped', is_done: true },
        'Done',
      ],
    });
    expect(d.board.slug).toBe('ops-2026');
    expect(d.lanes.map((l) => [l.name, l.position, l.is_done, l.wip_limit])).toEqual([
      ['Inbox', 10, false, null],
      ['Fixing', 20, false, 2],
      ['Shipped', 30, true, null],
      ['Done', 40, true, null],
    ]);
  });

  it('names the field at fault, and refuses a slug in use', async () => {
    const key = await fresh();
    await failed(key, { action: 'board:create' }, /board:create: `name` is required/);
    await failed(key, { action: 'board:create', name: 'X', slug: 'Not A Slug' }, /`slug`/);
    await failed(key, { action: 'board:create', name: 'X', lanes: [] }, /`lanes`/);
    await failed(key, { action: 'board:create', name: 'X', lanes: ['A', 'a'] }, /names "a" twice/);
    await failed(
      key,
      { action: 'board:create', name: 'X', lanes: [{ name: 'A', wip_limit: 0 }] },
      /`lanes\.0\.wip_limit`|`lanes\.0`/
    );
    await failed(key, { action: 'board:create', name: '!!!' }, /`slug` is required/);
    await ok(key, { action: 'board:create', name: 'Team' });
    await failed(key, { action: 'board:create', name: 'Team' }, /slug "team" exists already/);
  });

  it('lists boards, gets one by slug or id, and asks which when it cannot tell', async () => {
    const key = await fresh();
    expect((await kb(key, { action: 'board:list' }, {})).text).toMatch(/No boards yet/);
    await failed(key, { action: 'board:get' }, /no boards yet/);
    const one = (await ok<{ board: BoardData }>(key, { action: 'board:create', name: 'Alpha' }))
      .board;
    // With a single board, the board may be left out.
    expect((await ok<{ board: BoardData }>(key, { action: 'board:get' })).board.id).toBe(one.id);
    await ok(key, { action: 'board:create', name: 'Beta' });
    const list = await ok<{ boards: Array<BoardData & { card_count: number }> }>(key, {
      action: 'board:list',
    });
    expect(list.boards.map((b) => [b.slug, b.card_count])).toEqual([
      ['alpha', 0],
      ['beta', 0],
    ]);
    expect((await kb(key, { action: 'board:list' }, {})).text).toContain('• Beta (beta) — 0 cards');
    expect(
      (await ok<{ board: BoardData }>(key, { action: 'board:get', board: one.id })).board.slug
    ).toBe('alpha');
    expect(
      (await ok<{ board: BoardData }>(key, { action: 'board:get', board: 'BETA' })).board.slug
    ).toBe('beta');
    await failed(
      key,
      { action: 'board:get' },
      /say which board: add "board" with one of "alpha", "beta"/
    );
    await failed(
      key,
      { action: 'board:get', board: 'gamma' },
      /no board "gamma"; your boards are "alpha", "beta"/
    );
  });

  it('renders the board as markdown, with the structure as JSON', async () => {
    const key = await fresh();
    await ok(key, {
      action: 'board:create',
      name: 'Blog',
      lanes: ['Ideas', { name: 'Writing', wip_limit: 2 }, 'Done'],
    });
    await newCard(key, {
      title: 'Launch post',
      priority: 1,
      due_at: '2020-01-01',
      labels: ['launch'],
    });
    const done = await newCard(key, { title: 'Old post', lane: 'done' });
    const text = await kb(key, { action: 'board:render' }, {});
    expect(text.state, text.statusText).toBe('completed');
    expect(text.text).toMatch(
      /^# 📋 Blog \(`blog`\)\n\n## Ideas \(1 card\)\n\n- \[P1\] Launch post \(due 2020-01-01, ⚠️ overdue\) #launch · kb_card_/
    );
    expect(text.text).toContain('## Writing (0 cards — WIP 0/2)\n\n_no cards_');
    expect(text.text).toContain(`## Done ✅ (1 card)\n\n- ✅ Old post · ${done.id}`);
    const d = await ok<{ lanes: Array<LaneData & { cards: CardData[] }>; markdown: string }>(key, {
      action: 'board:render',
      board: 'blog',
    });
    expect(d.markdown).toBe(text.text);
    expect(d.lanes.map((l) => [l.name, l.cards.map((c) => c.title)])).toEqual([
      ['Ideas', ['Launch post']],
      ['Writing', []],
      ['Done', ['Old post']],
    ]);
    expect(d.lanes[0]?.cards[0]?.overdue).toBe(true);
  });
});

describe('lanes', () => {
  it('adds lanes at the end or after another, in steps of 10', async () => {
    const key = await fresh();
    await ok(key, { action: 'board:create', name: 'Flow' });
    const added = await kb(
      key,
      { action: 'lane:add', name: 'Review', after: 'doing', wip_limit: 1 },
      {}
    );
    expect(added.text).toMatch(/^✅ Added lane Review \(0 cards — WIP 0\/1\) at position 30/);
    await ok(key, { action: 'lane:add', name: 'Archive', is_done: true });
    expect((await lanesOf(key)).map((l) => [l.name, l.position])).toEqual([
      ['Todo', 10],
      ['Doing', 20],
      ['Review', 30],
      ['Done', 40],
      ['Archive', 50],
    ]);
    await failed(key, { action: 'lane:add', name: 'review' }, /already has a lane "review"/);
    await failed(key, { action: 'lane:add', name: 'X', after: 'Nope' }, /no lane "Nope" \(after\)/);
    await failed(key, { action: 'lane:add' }, /lane:add: `name` is required/);
    await failed(key, { action: 'lane:add', name: 'X', board: 'other' }, /no board "other"/);
  });

  it('renames a lane, sets and clears its WIP limit, and refuses a name in use', async () => {
    const key = await fresh();
    await ok(key, { action: 'board:create', name: 'Flow' });
    const d = await ok<{ lane: LaneData }>(key, {
      action: 'lane:update',
      lane: 'doing',
      name: 'In progress',
      wip_limit: 3,
    });
    expect([d.lane.name, d.lane.wip_limit]).toEqual(['In progress', 3]);
    const cleared = await ok<{ lane: LaneData }>(key, {
      action: 'lane:update',
      lane: d.lane.id,
      wip_limit: null,
    });
    expect(cleared.lane.wip_limit).toBeNull();
    await failed(
      key,
      { action: 'lane:update', lane: 'todo', name: 'DONE' },
      /already has a lane "Done"/
    );
    await failed(key, { action: 'lane:update', lane: 'todo' }, /give at least one of `name`/);
    await failed(
      key,
      { action: 'lane:update', lane: 'Nope', name: 'X' },
      /no lane "Nope" on board "flow"; lanes are "Todo", "In progress", "Done"/
    );
    await failed(key, { action: 'lane:update', lane: 'todo', wip_limit: 1.5 }, /`wip_limit`/);
  });

  it('completes the cards of a lane that becomes done, and reopens them when it stops being done', async () => {
    const key = await fresh();
    const card = await newCard(key, { title: 'Ship it', lane: 'Doing' });
    expect(card.completed_at).toBeNull();
    const made = await ok<{ affected_cards: number }>(key, {
      action: 'lane:update',
      lane: 'Doing',
      is_done: true,
    });
    expect(made.affected_cards).toBe(1);
    expect((await getCard(key, card.id)).card.completed_at).not.toBeNull();
    await ok(key, { action: 'lane:update', lane: 'Doing', is_done: false });
    const after = await getCard(key, card.id);
    expect(after.card.completed_at).toBeNull();
    expect(after.events.map((e) => e.kind)).toEqual(['created', 'completed', 'uncompleted']);
  });

  it('reorders lanes and renumbers them', async () => {
    const key = await fresh();
    await ok(key, { action: 'board:create', name: 'Flow' });
    const d = await ok<{ lanes: LaneData[] }>(key, {
      action: 'lane:reorder',
      lanes: ['done', 'Todo', 'DOING'],
    });
    expect(d.lanes.map((l) => [l.name, l.position])).toEqual([
      ['Done', 10],
      ['Todo', 20],
      ['Doing', 30],
    ]);
    await failed(
      key,
      { action: 'lane:reorder', lanes: ['Todo', 'Done'] },
      /lane:reorder: list every lane once; missing "Doing"/
    );
    await failed(
      key,
      { action: 'lane:reorder', lanes: ['Todo', 'todo', 'Done'] },
      /lane "Todo" is listed twice/
    );
    await failed(
      key,
      { action: 'lane:reorder', lanes: ['Todo', 'Doing', 'Done', 'Later'] },
      /no lane "Later"/
    );
    await failed(key, { action: 'lane:reorder' }, /`lanes` is required/);
  });

  it('removes an empty lane; a lane with cards only when they move, WIP and completion applied', async () => {
    const key = await fresh();
    await ok(key, {
      action: 'board:create',
      name: 'Flow',
      lanes: ['Todo', 'Doing', 'Review', 'Done'],
    });
    await ok(key, { action: 'lane:remove', lane: 'Review' });
    expect((await lanesOf(key)).map((l) => [l.name, l.position])).toEqual([
      ['Todo', 10],
      ['Doing', 20],
      ['Done', 30],
    ]);
    const a = await newCard(key, { title: 'A', lane: 'Doing' });
    const b = await newCard(key, { title: 'B', lane: 'Doing' });
    await failed(
      key,
      { action: 'lane:remove', lane: 'Doing' },
      /lane "Doing" still has 2 cards; move them first, or add "move_to"/
    );
    await ok(key, { action: 'lane:update', lane: 'Done', wip_limit: 1 });
    await failed(
      key,
      { action: 'lane:remove', lane: 'Doing', move_to: 'Done' },
      /lane "Done" has a WIP limit of 1 and 0 card\(s\); it cannot take the 2 card\(s\) of "Doing"/
    );
    await failed(
      key,
      { action: 'lane:remove', lane: 'Doing', move_to: 'Doing' },
      /`move_to` must name another lane/
    );
    await ok(key, { action: 'lane:update', lane: 'Done', wip_limit: null });
    const d = await ok<{ moved_cards: number; lanes: LaneData[] }>(key, {
      action: 'lane:remove',
      lane: 'Doing',
      move_to: 'Done',
    });
    expect(d.moved_cards).toBe(2);
    expect(d.lanes.map((l) => [l.name, l.position])).toEqual([
      ['Todo', 10],
      ['Done', 20],
    ]);
    for (const c of [a, b]) {
      const got = await getCard(key, c.id);
      expect(got.card.lane).toBe('Done');
      expect(got.card.completed_at).not.toBeNull();
      expect(got.events.map((e) => e.kind)).toEqual(['created', 'moved', 'completed']);
    }
    // Reopening goes to the first open lane: the lane they came from is gone.
    expect(
      (await ok<{ to: LaneData }>(key, { action: 'card:uncomplete', card: a.id })).to.name
    ).toBe('Todo');
    await ok(key, { action: 'lane:remove', lane: 'Done', move_to: 'Todo' });
    await failed(key, { action: 'lane:remove', lane: 'Todo' }, /last lane of board "flow"/);
    await failed(key, { action: 'lane:remove', lane: 'Nope' }, /no lane "Nope"/);
  });
});

describe('cards', () => {
  it('makes the default board on the first card, in Todo', async () => {
    const key = await fresh();
    const a = await kb(key, { action: 'card:create', title: 'First thing' }, {});
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^✅ Created card in Default \(default\) \/ Todo\n• First thing · kb_card_[0-9a-f]{16}$/
    );
    const boards = await ok<{ boards: BoardData[] }>(key, { action: 'board:list' });
    expect(boards.boards.map((b) => [b.name, b.slug])).toEqual([['Default', 'default']]);
    expect((await lanesOf(key, 'default')).map((l) => [l.name, l.position, l.is_done])).toEqual([
      ['Todo', 10, false],
      ['Doing', 20, false],
      ['Done', 30, true],
    ]);
    // The next card goes to the same board.
    await newCard(key, { title: 'Second thing' });
    expect((await ok<{ boards: BoardData[] }>(key, { action: 'board:list' })).boards).toHaveLength(
      1
    );
  });

  it('makes one default board when two first cards arrive at once', async () => {
    const key = await fresh();
    const made = await Promise.all(
      [1, 2, 3].map((i) => kb(key, { action: 'card:create', title: `c${i}` }))
    );
    for (const a of made) expect(a.state, a.statusText).toBe('completed');
    const boards = await ok<{ boards: Array<BoardData & { card_count: number }> }>(key, {
      action: 'board:list',
    });
    expect(boards.boards.map((b) => [b.slug, b.card_count])).toEqual([['default', 3]]);
    expect(await lanesOf(key)).toHaveLength(3);
  });

  it('stores every field, dates in UTC', async () => {
    const key = await fresh();
    const c = await newCard(key, {
      title: 'Call Acme',
      description: 'About the renewal',
      due_at: '2030-05-01T09:30:00+02:00',
      priority: 0,
      labels: ['sales', 'Sales', 'acme'],
      source_ref: 'crm:crm_ent_42',
      lane: 'doing',
    });
    expect(c.id).toMatch(CARD_ID);
    expect(c).toMatchObject({
      title: 'Call Acme',
      description: 'About the renewal',
      due_at: '2030-05-01T07:30:00.000Z',
      priority: 0,
      labels: ['sales', 'acme'],
      source_ref: 'crm:crm_ent_42',
      completed_at: null,
      overdue: false,
    });
    expect((await getCard(key, c.id)).card.lane).toBe('Doing');
  });

  it('names the field at fault', async () => {
    const key = await fresh();
    await failed(key, { action: 'card:create' }, /card:create: `title` is required/);
    await failed(key, { action: 'card:create', title: '   ' }, /`title`: must not be empty/);
    await failed(
      key,
      { action: 'card:create', title: 'x', due_at: 'next friday' },
      /`due_at`: must be an ISO 8601/
    );
    await failed(key, { action: 'card:create', title: 'x', priority: 6 }, /`priority`/);
    await failed(key, { action: 'card:create', title: 'x', priority: 1.5 }, /`priority`/);
    await failed(key, { action: 'card:create', title: 'x', labels: 'bug' }, /`labels`/);
    await failed(
      key,
      { action: 'card:create', title: 'x', board: 'nope' },
      /no board "nope": you have no boards yet/
    );
    await newCard(key, { title: 'makes the default board' });
    await failed(
      key,
      { action: 'card:create', title: 'x', lane: 'Later' },
      /no lane "Later" on board "default"; lanes are "Todo", "Doing", "Done"/
    );
    await failed(
      key,
      { action: 'card:get', card: 'kb_card_0000000000000000' },
      /no card "kb_card_0000000000000000"/
    );
    await failed(key, { action: 'card:get' }, /card:get: `card` is required/);
  });

  it('updates only the fields given and records the changes', async () => {
    const key = await fresh();
    const c = await newCard(key, {
      title: 'Draft',
      priority: 3,
      labels: ['x'],
      due_at: '2030-01-01',
    });
    const d = await ok<{ card: CardData; changed: string[] }>(key, {
      action: 'card:update',
      card: c.id,
      title: 'Final draft',
      due_at: null,
      labels: ['y'],
    });
    expect(d.changed).toEqual(['title', 'due_at', 'labels']);
    expect(d.card).toMatchObject({
      title: 'Final draft',
      due_at: null,
      priority: 3,
      labels: ['y'],
    });
    const same = await ok<{ changed: string[] }>(key, {
      action: 'card:update',
      card: c.id,
      priority: 3,
    });
    expect(same.changed).toEqual([]);
    const { events } = await getCard(key, c.id);
    expect(events.map((e) => e.kind)).toEqual(['created', 'updated']);
    expect(events[1]?.details).toEqual({
      changes: {
        title: { from: 'Draft', to: 'Final draft' },
        due_at: { from: '2030-01-01T00:00:00.000Z', to: null },
        labels: { from: ['x'], to: ['y'] },
      },
    });
    await failed(key, { action: 'card:update', card: c.id }, /give at least one of `title`/);
    await failed(key, { action: 'card:update', card: c.id, priority: -1 }, /`priority`/);
  });

  it('sets completed_at on entering a done lane and clears it on leaving', async () => {
    const key = await fresh();
    await ok(key, {
      action: 'board:create',
      name: 'Flow',
      lanes: ['Todo', 'Doing', 'Done', 'Archived'],
    });
    await ok(key, { action: 'lane:update', lane: 'Archived', is_done: true });
    const c = await newCard(key, { title: 'Task' });
    const toDoing = await ok<{ card: CardData; moved: boolean }>(key, {
      action: 'card:move',
      card: c.id,
      lane: 'Doing',
    });
    expect([toDoing.moved, toDoing.card.completed_at]).toEqual([true, null]);
    const text = await kb(key, { action: 'card:move', card: c.id, lane: 'done' }, {});
    expect(text.text).toMatch(/^✅ Moved \(completed\) Doing → Done\n• ✅ Task · kb_card_/);
    const done = await getCard(key, c.id);
    expect(done.card.completed_at).not.toBeNull();
    // Done to another done lane: still completed, at the same time.
    const archived = await ok<{ card: CardData }>(key, {
      action: 'card:move',
      card: c.id,
      lane: 'Archived',
    });
    expect(archived.card.completed_at).toBe(done.card.completed_at);
    const back = await ok<{ card: CardData }>(key, {
      action: 'card:move',
      card: c.id,
      lane: 'Todo',
    });
    expect(back.card.completed_at).toBeNull();
    const same = await ok<{ moved: boolean }>(key, {
      action: 'card:move',
      card: c.id,
      lane: 'Todo',
    });
    expect(same.moved).toBe(false);
    const { events } = await getCard(key, c.id);
    expect(
      events.map((e) => [e.kind, e.details.from ?? e.details.lane, e.details.to ?? null])
    ).toEqual([
      ['created', 'Todo', null],
      ['moved', 'Todo', 'Doing'],
      ['moved', 'Doing', 'Done'],
      ['completed', 'Done', null],
      ['moved', 'Done', 'Archived'],
      ['moved', 'Archived', 'Todo'],
      ['uncompleted', 'Todo', null],
    ]);
    await failed(
      key,
      { action: 'card:move', card: c.id, lane: 'Nowhere' },
      /no lane "Nowhere" on board "flow"/
    );
    await failed(key, { action: 'card:move', card: c.id }, /`lane` is required/);
  });

  it('completes into the first done lane and reopens into the lane the card came from', async () => {
    const key = await fresh();
    const c = await newCard(key, { title: 'Task', lane: 'Doing' });
    const done = await ok<{ card: CardData; to: LaneData }>(key, {
      action: 'card:complete',
      card: c.id,
    });
    expect(done.to.name).toBe('Done');
    expect(done.card.completed_at).not.toBeNull();
    expect((await ok<{ moved: boolean }>(key, { action: 'card:complete', card: c.id })).moved).toBe(
      false
    );
    const reopened = await kb(key, { action: 'card:uncomplete', card: c.id }, {});
    expect(reopened.text).toMatch(/^↩️ Reopened Done → Doing/);
    const got = await getCard(key, c.id);
    expect([got.card.lane, got.card.completed_at]).toEqual(['Doing', null]);
    expect(got.events.map((e) => e.kind)).toEqual([
      'created',
      'moved',
      'completed',
      'moved',
      'uncompleted',
    ]);
    expect(
      (await ok<{ moved: boolean }>(key, { action: 'card:uncomplete', card: c.id })).moved
    ).toBe(false);
  });

  it('refuses to complete on a board without a done lane', async () => {
    const key = await fresh();
    await ok(key, { action: 'board:create', name: 'Plain', lanes: ['Todo', 'Doing'] });
    const c = await newCard(key, { title: 'Task' });
    await failed(
      key,
      { action: 'card:complete', card: c.id },
      /board "plain" has no done lane; add one with lane:add and "is_done": true/
    );
    expect((await getCard(key, c.id)).card.completed_at).toBeNull();
  });

  it('lists cards by lane, overdue, due date, label and source', async () => {
    const key = await fresh();
    const now = Date.now();
    const past = new Date(now - 86_400_000).toISOString();
    const soon = new Date(now + 86_400_000).toISOString();
    const later = new Date(now + 30 * 86_400_000).toISOString();
    const late = await newCard(key, { title: 'Late', due_at: past, labels: ['Bug'], priority: 1 });
    const lateButDone = await newCard(key, { title: 'Late but done', due_at: past, lane: 'Done' });
    const next = await newCard(key, {
      title: 'Next',
      due_at: soon,
      lane: 'Doing',
      source_ref: 'crm:crm_ent_1',
    });
    const far = await newCard(key, { title: 'Far', due_at: later, labels: ['bug', 'ui'] });
    const undated = await newCard(key, { title: 'Undated', priority: 0 });

    expect(await listIds(key, {})).toEqual([undated.id, late.id, far.id, next.id, lateButDone.id]);
    expect(await listIds(key, { overdue: true })).toEqual([late.id]);
    expect(await listIds(key, { overdue: false })).toEqual([
      undated.id,
      far.id,
      next.id,
      lateButDone.id,
    ]);
    expect(await listIds(key, { due_before: later })).toEqual([late.id, next.id, lateButDone.id]);
    expect(await listIds(key, { label: 'BUG' })).toEqual([late.id, far.id]);
    expect(await listIds(key, { source_ref: 'crm:crm_ent_1' })).toEqual([next.id]);
    expect(await listIds(key, { lane: 'doing' })).toEqual([next.id]);
    expect(await listIds(key, { lane: 'Todo', label: 'ui' })).toEqual([far.id]);
    expect(await listIds(key, { completed: true })).toEqual([lateButDone.id]);
    expect(await listIds(key, { board: 'default', limit: 2 })).toEqual([undated.id, late.id]);

    const text = await kb(key, { action: 'card:list', overdue: true }, {});
    expect(text.text).toMatch(
      /^🗂️ 1 card \(overdue\)\n• \[P1\] Late \(due .*, ⚠️ overdue\) #Bug · kb_card_\w+ — default \/ Todo$/
    );
    await failed(
      key,
      { action: 'card:list', due_before: 'soon' },
      /`due_before`: must be an ISO 8601/
    );
    await failed(key, { action: 'card:list', lane: 'Later' }, /no lane "Later"/);
    await failed(key, { action: 'card:list', board: 'nope' }, /no board "nope"/);
  });

  it('shows a card with its history, for people', async () => {
    const key = await fresh();
    const c = await newCard(key, {
      title: 'Write docs',
      description: 'All of them',
      labels: ['docs'],
      source_ref: 'memory:mem_1',
    });
    await ok(key, { action: 'card:move', card: c.id, lane: 'Doing' });
    const a = await kb(key, { action: 'card:get', card: c.id }, {});
    expect(a.text).toMatch(
      /^🗂️ Write docs #docs · kb_card_\w+\n📋 Default \(default\) \/ Doing\n\nAll of them\n/
    );
    expect(a.text).toContain('• source: memory:mem_1');
    expect(a.text).toMatch(
      /🕒 History:\n• \d{4}-\d\d-\d\d \d\d:\d\d UTC created in Todo\n• .* moved Todo → Doing$/
    );
  });

  it('deletes softly: the card vanishes from get, list and render but not its history', async () => {
    const key = await fresh();
    const c = await newCard(key, { title: 'Gone soon' });
    const keep = await newCard(key, { title: 'Stays' });
    const a = await kb(key, { action: 'card:delete', card: c.id }, {});
    expect(a.text).toBe(`🗑️ Deleted card Gone soon · ${c.id}`);
    await failed(key, { action: 'card:get', card: c.id }, /no card/);
    await failed(key, { action: 'card:delete', card: c.id }, /no card/);
    await failed(key, { action: 'card:move', card: c.id, lane: 'Doing' }, /no card/);
    expect(await listIds(key, {})).toEqual([keep.id]);
    const render = await kb(key, { action: 'board:render' }, {});
    expect(render.text).not.toContain('Gone soon');
    expect(render.text).toContain('Stays');
    // The deleted card no longer holds a lane: its lane can go.
    await ok(key, { action: 'card:move', card: keep.id, lane: 'Doing' });
    await ok(key, { action: 'lane:remove', lane: 'Todo' });
  });
});

describe('WIP limits', () => {
  it('refuse a card created into or moved into a full lane, naming the lane and limit', async () => {
    const key = await fresh();
    await ok(key, {
      action: 'board:create',
      name: 'Flow',
      lanes: ['Todo', { name: 'Doing', wip_limit: 1 }, 'Done'],
    });
    const a = await newCard(key, { title: 'A', lane: 'Doing' });
    await failed(
      key,
      { action: 'card:create', title: 'B', lane: 'Doing' },
      /lane "Doing" is at its WIP limit of 1 \(1 card in it\)/
    );
    const b = await newCard(key, { title: 'B' });
    await failed(
      key,
      { action: 'card:move', card: b.id, lane: 'doing' },
      /lane "Doing" is at its WIP limit of 1/
    );
    // Moving within the same lane is no entry; leaving frees the slot.
    expect(
      (await ok<{ moved: boolean }>(key, { action: 'card:move', card: a.id, lane: 'Doing' })).moved
    ).toBe(false);
    await ok(key, { action: 'card:complete', card: a.id });
    await ok(key, { action: 'card:move', card: b.id, lane: 'Doing' });
    // Reopening is an entry too.
    await failed(
      key,
      { action: 'card:uncomplete', card: a.id },
      /lane "Doing" is at its WIP limit of 1/
    );
    expect((await listIds(key, { lane: 'Doing' })).length).toBe(1);
  });

  it('let exactly one of two concurrent moves into the last free slot win', async () => {
    const key = await fresh();
    await ok(key, {
      action: 'board:create',
      name: 'Race',
      lanes: ['Todo', { name: 'Doing', wip_limit: 2 }, 'Done'],
    });
    for (let round = 0; round < 4; round += 1) {
      const holder = await newCard(key, { title: `holder ${round}`, lane: 'Doing' });
      const x = await newCard(key, { title: `x ${round}` });
      const y = await newCard(key, { title: `y ${round}` });
      const answers = await Promise.all(
        [x, y].map((c) => kb(key, { action: 'card:move', card: c.id, lane: 'Doing' }))
      );
      const states = answers.map((a) => a.state).sort();
      expect(states, answers.map((a) => a.statusText).join(' | ')).toEqual(['completed', 'failed']);
      const loser = answers.find((a) => a.state === 'failed')!;
      expect(loser.statusText).toMatch(/lane "Doing" is at its WIP limit of 2 \(2 cards in it\)/);
      expect(await listIds(key, { lane: 'Doing' })).toHaveLength(2);
      // Empty the lane for the next round.
      for (const id of await listIds(key, { lane: 'Doing' })) {
        await ok(key, { action: 'card:complete', card: id });
      }
      expect(holder.id).toMatch(CARD_ID);
    }
  });

  it('let exactly one of two concurrent creates into the last free slot win', async () => {
    const key = await fresh();
    await ok(key, {
      action: 'board:create',
      name: 'Race',
      lanes: ['Todo', { name: 'Doing', wip_limit: 1 }, 'Done'],
    });
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(
        ['p', 'q'].map((t) =>
          kb(key, { action: 'card:create', title: `${t} ${round}`, lane: 'Doing' })
        )
      );
      expect(answers.map((a) => a.state).sort()).toEqual(['completed', 'failed']);
      const ids = await listIds(key, { lane: 'Doing' });
      expect(ids).toHaveLength(1);
      await ok(key, { action: 'card:complete', card: ids[0] });
    }
  });
});

describe('ownership', () => {
  let owner: { id: string; key: string };
  let neighbour: { id: string; key: string };
  let stranger: { id: string; key: string };
  let secret: CardData;

  beforeAll(async () => {
    owner = await h.agent(tenantA, 'kanban-owner');
    neighbour = await h.agent(tenantA, 'kanban-neighbour');
    stranger = await h.agent(tenantB, 'kanban-stranger');
    await ok(owner.key, { action: 'board:create', name: 'Secret plans', slug: 'plans' });
    secret = await newCard(owner.key, { title: 'Secret card', board: 'plans', source_ref: 'x:1' });
  });

  /** Every way a caller might claim to be the owner: body fields and params, envelope included. */
  const forged = () =>
    forgedIdentity(
      'agent-kanban-official',
      { agentId: owner.id, tenantId: tenantA },
      { owner_agent_id: owner.id }
    );

  async function cannotReach(
    key: string,
    body: Record<string, unknown> = {},
    params?: Record<string, unknown>
  ) {
    const o = { ...JSON_OUT, ...(params ? { params } : {}) };
    const expectFailed = async (req: Record<string, unknown>, pattern: RegExp) => {
      const a = await kb(key, { ...body, ...req }, o);
      expect(a.error).toBeUndefined();
      expect(a.state, JSON.stringify(a.data)).toBe('failed');
      expect(a.statusText).toMatch(pattern);
    };
    const list = await kb(key, { ...body, action: 'board:list' }, o);
    expect((list.data as { boards: BoardData[] }).boards.map((b) => b.slug)).not.toContain('plans');
    await expectFailed({ action: 'board:get', board: 'plans' }, /no board "plans"/);
    await expectFailed({ action: 'board:render', board: 'plans' }, /no board "plans"/);
    await expectFailed({ action: 'lane:add', board: 'plans', name: 'Mine' }, /no board "plans"/);
    await expectFailed(
      { action: 'card:create', board: 'plans', title: 'intrude' },
      /no board "plans"/
    );
    for (const act of ['card:get', 'card:complete', 'card:delete', 'card:uncomplete']) {
      await expectFailed({ action: act, card: secret.id }, /no card/);
    }
    await expectFailed({ action: 'card:move', card: secret.id, lane: 'Doing' }, /no card/);
    await expectFailed({ action: 'card:update', card: secret.id, title: 'mine' }, /no card/);
    const cards = await kb(key, { ...body, action: 'card:list', source_ref: 'x:1' }, o);
    expect((cards.data as { cards: CardData[] }).cards).toEqual([]);
  }

  it.each([
    ['another agent of the same tenant', () => neighbour],
    ['an agent of another tenant', () => stranger],
  ])('%s cannot see or touch the boards and cards', async (_, who) => {
    await cannotReach(who().key);
  });

  it.each([
    ['another agent of the same tenant', () => neighbour],
    ['an agent of another tenant', () => stranger],
  ])('%s cannot reach them with forged tenant or sender fields', async (_, who) => {
    const f = forged();
    await cannotReach(who().key, f.body, f.params);
  });

  it('gives each agent its own boards under the same slugs', async () => {
    const mine = await newCard(neighbour.key, { title: 'Neighbour card' });
    const theirs = await newCard(stranger.key, { title: 'Stranger card' });
    await ok(neighbour.key, { action: 'board:create', name: 'Plans', slug: 'plans' });
    expect(await listIds(neighbour.key, { board: 'default' })).toEqual([mine.id]);
    expect(await listIds(stranger.key, {})).toEqual([theirs.id]);
    // The owner's board and card are untouched by all of the above.
    const got = await getCard(owner.key, secret.id);
    expect(got.card).toMatchObject({ title: 'Secret card', completed_at: null, board: 'plans' });
    expect(got.events.map((e) => e.kind)).toEqual(['created']);
    expect(
      (await ok<{ boards: BoardData[] }>(owner.key, { action: 'board:list' })).boards.map(
        (b) => b.slug
      )
    ).toEqual(['plans']);
  });
});
