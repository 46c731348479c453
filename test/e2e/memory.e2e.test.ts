// The memory agent through the running hub: every form in plain language and as JSON, their
// errors, recall ranking with the local embedder, list pages, forgetting, and the isolation of
// one agent's memories from every other agent's (same tenant or not, forged fields or not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  forgedIdentity,
  startAgentHub,
  type AgentHub,
  type Answer,
} from '../support/official-agents.js';

interface MemoryData {
  id: string;
  content: string;
  tags: string[];
  createdAt: string;
}
type Scored = MemoryData & { score: number };

const JSON_OUT = { accept: ['application/json'] };
const MEM_ID = /mem_[0-9a-f]{24}/;

let h: AgentHub;
let tenantA: string;
let tenantB: string;

beforeAll(async () => {
  h = await startAgentHub();
  tenantA = await h.tenant('memory-a');
  tenantB = await h.tenant('memory-b');
});

afterAll(async () => {
  await h?.close();
});

/** A fresh agent of `tenantId`: every test starts from an empty memory. */
async function agent(tenantId: string, name: string): Promise<{ id: string; key: string }> {
  return h.agent(tenantId, name);
}

function mem(
  key: string,
  body: string | Record<string, unknown>,
  o: Parameters<typeof ask>[4] = {}
): Promise<Answer> {
  return ask(h.url, key, 'memory', body, o);
}

async function store(key: string, content: string, tags?: string[]): Promise<MemoryData> {
  const a = await mem(key, { action: 'store', content, ...(tags ? { tags } : {}) }, JSON_OUT);
  expect(a.state, a.statusText).toBe('completed');
  return (a.data as { memory: MemoryData }).memory;
}

async function listAll(key: string): Promise<{ total: number; memories: MemoryData[] }> {
  const a = await mem(key, { action: 'list', limit: 100 }, JSON_OUT);
  expect(a.state, a.statusText).toBe('completed');
  return a.data as { total: number; memories: MemoryData[] };
}

function failedWith(a: Answer, pattern: RegExp): void {
  expect(a.error).toBeUndefined();
  expect(a.state).toBe('failed');
  expect(a.statusText).toMatch(pattern);
}

describe('store', () => {
  it('remembers the three plain-language forms, for people', async () => {
    const { key } = await agent(tenantA, 'store-plain');
    const forms = [
      [
        'Remember this: the staging database moves on Friday',
        'the staging database moves on Friday',
      ],
      ['Remember: Alice prefers email', 'Alice prefers email'],
      ['Remember that Bob is allergic to peanuts', 'Bob is allergic to peanuts'],
    ] as const;
    for (const [text, content] of forms) {
      const a = await mem(key, text);
      expect(a.state, a.statusText).toBe('completed');
      expect(a.text).toMatch(/^🧠 Remembered \(mem_[0-9a-f]{24}\)/);
      expect(a.text).toContain(content);
    }
    const { memories } = await listAll(key);
    expect(memories.map((m) => m.content)).toEqual([
      'Bob is allergic to peanuts',
      'Alice prefers email',
      'the staging database moves on Friday',
    ]);
  });

  it('stores JSON with tags (and the alias "remember"), answering JSON when asked', async () => {
    const { key } = await agent(tenantA, 'store-json');
    const a = await mem(
      key,
      { action: 'store', content: 'Ship v2 on Monday', tags: ['Release', 'work', 'release'] },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const data = a.data as { memory: MemoryData; duplicate: boolean };
    expect(data.duplicate).toBe(false);
    expect(data.memory.id).toMatch(MEM_ID);
    expect(data.memory.content).toBe('Ship v2 on Monday');
    expect(data.memory.tags).toEqual(['release', 'work']);
    expect(Number.isNaN(Date.parse(data.memory.createdAt))).toBe(false);

    const alias = await mem(key, { action: 'remember', content: 'Demo on Thursday' });
    expect(alias.state, alias.statusText).toBe('completed');
    expect(alias.text).toMatch(/^🧠 Remembered \(mem_/);

    const plainTags = await mem(
      key,
      'Remember this: Retro at 4pm (tags: meetings, team)',
      JSON_OUT
    );
    expect((plainTags.data as { memory: MemoryData }).memory).toMatchObject({
      content: 'Retro at 4pm',
      tags: ['meetings', 'team'],
    });
  });

  it('keeps one copy of identical content, merging its tags', async () => {
    const { key } = await agent(tenantA, 'store-dedupe');
    const first = await store(key, 'The API rate limit is 100 requests per minute', ['api']);
    const again = await mem(
      key,
      {
        action: 'store',
        content: '  The API rate limit is 100 requests per minute ',
        tags: ['limits'],
      },
      JSON_OUT
    );
    const data = again.data as { memory: MemoryData; duplicate: boolean };
    expect(data.duplicate).toBe(true);
    expect(data.memory.id).toBe(first.id);
    expect(data.memory.tags).toEqual(['api', 'limits']);
    const text = await mem(key, 'Remember: The API rate limit is 100 requests per minute');
    expect(text.text).toContain(`🧠 Already remembered (${first.id})`);
    expect((await listAll(key)).total).toBe(1);
  });

  it('refuses empty content, content over 8 KiB, and bad tags, saying what to fix', async () => {
    const { key } = await agent(tenantA, 'store-errors');
    failedWith(await mem(key, 'Remember this:'), /`content`.*cannot be empty/);
    failedWith(await mem(key, { action: 'store', content: '   ' }), /`content`.*cannot be empty/);
    failedWith(await mem(key, { action: 'store' }), /`content` is required/);
    failedWith(await mem(key, `Remember: ${'x'.repeat(8193)}`), /8193 bytes.*8192 bytes \(8 KiB\)/);
    // The limit is in bytes: 2,731 three-byte characters are 8,193 bytes.
    failedWith(
      await mem(key, { action: 'store', content: '€'.repeat(2731) }),
      /8193 bytes.*limit is 8192/
    );
    failedWith(await mem(key, { action: 'store', content: 'ok', tags: 'work' }), /`tags`/);
    expect((await listAll(key)).total).toBe(0);
    // Exactly 8 KiB is fine.
    expect((await mem(key, { action: 'store', content: 'y'.repeat(8192) })).state).toBe(
      'completed'
    );
  });
});

describe('recall', () => {
  const seeds = [
    'The staging database moves to eu-west-2 on Friday',
    'Alice prefers email over phone calls',
    'Our quarterly sales report is due on the 15th',
    'The office wifi password is kept in the shared vault',
    'Deploy the billing service only after the database migration finishes',
    'Lisbon weather is sunny in June',
  ];
  let key: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    ({ key } = await agent(tenantA, 'recall'));
    for (const s of seeds) ids.set(s, (await store(key, s)).id);
  });

  it.each([
    ['Search memories for: staging database', seeds[0]],
    ['Recall Alice email', seeds[1]],
    ['What do you remember about the sales report deadline?', seeds[2]],
    ['Search memories for: wifi password', seeds[3]],
    ['Recall billing service deployment', seeds[4]],
    ['What do you remember about the rain forecast in Lisbon?', seeds[5]],
  ])('%s → the right memory first', async (text, expected) => {
    const a = await mem(key, text);
    expect(a.state, a.statusText).toBe('completed');
    const first = a.text.split('\n')[1] ?? '';
    expect(first).toMatch(/^1\. /);
    expect(first).toContain(expected);
    expect(a.text).toContain(ids.get(expected!));
    expect(a.text).toMatch(/\d+% match • \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it('returns scores and ids as JSON, best first, above the floor only', async () => {
    const a = await mem(key, { action: 'recall', query: 'database' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const data = a.data as { query: string; minScore: number; results: Scored[] };
    expect(data.results.map((r) => r.content)).toEqual([seeds[0], seeds[4]]);
    expect(data.results[0]!.id).toBe(ids.get(seeds[0]!));
    expect(data.results[0]!.score).toBeGreaterThan(data.results[1]!.score);
    for (const r of data.results) expect(r.score).toBeGreaterThanOrEqual(data.minScore);
  });

  it('honours limit and the alias "search"', async () => {
    const a = await mem(key, { action: 'search', query: 'database', limit: 1 }, JSON_OUT);
    expect((a.data as { results: Scored[] }).results.map((r) => r.content)).toEqual([seeds[0]]);
    const plain = await mem(key, 'Search memories for: database (limit: 1)');
    expect(plain.text).toMatch(/^🔎 1 memory matches “database”/);
  });

  it('shows nothing below the similarity floor', async () => {
    const a = await mem(key, 'Search memories for: quantum chromodynamics');
    expect(a.state).toBe('completed');
    expect(a.text).toBe('🔎 Nothing I remember matches “quantum chromodynamics”.');
    const json = await mem(key, { action: 'recall', query: 'quantum chromodynamics' }, JSON_OUT);
    expect((json.data as { results: Scored[] }).results).toEqual([]);
  });

  it('refuses an empty query, a wordless one, and a bad limit', async () => {
    failedWith(await mem(key, 'Search memories for:'), /`query`.*cannot be empty/);
    failedWith(await mem(key, { action: 'recall' }), /`query` is required/);
    failedWith(await mem(key, { action: 'recall', query: '?!' }), /no words to match/);
    failedWith(await mem(key, { action: 'recall', query: 'x', limit: 0 }), /`limit`.*at least 1/);
    failedWith(await mem(key, { action: 'recall', query: 'x', limit: 51 }), /`limit`.*at most 50/);
    failedWith(await mem(key, 'Recall database (limit: lots)'), /`limit`.*whole number/);
  });
});

describe('recall after the embedder changed', () => {
  it('re-embeds memories whose vectors come from another embedder', async () => {
    const { key } = await agent(tenantA, 'recall-reembed');
    const m = await store(key, 'The office wifi password is kept in the shared vault');
    // As if stored while the hub used another embedder: that vector is not comparable.
    await h.hub.sql`
      update memory_items set embedder_id = 'old-embedder', embedding = '{1,0,0}'
      where id = ${m.id}`;
    const a = await mem(key, { action: 'recall', query: 'wifi password' }, JSON_OUT);
    expect((a.data as { results: Scored[] }).results.map((r) => r.id)).toEqual([m.id]);
    const [row] = await h.hub.sql<Array<{ embedderId: string }>>`
      select embedder_id from memory_items where id = ${m.id}`;
    expect(row?.embedderId).toBe('local-hash-v1');
  });
});

describe('list', () => {
  let key: string;
  const notes = Array.from({ length: 12 }, (_, i) => `note number ${i + 1}`);

  beforeAll(async () => {
    ({ key } = await agent(tenantA, 'list'));
    for (const n of notes) await store(key, n);
  });

  it('pages newest first with limit and offset', async () => {
    const page = async (body: Record<string, unknown>) => {
      const a = await mem(key, { action: 'list', ...body }, JSON_OUT);
      expect(a.state, a.statusText).toBe('completed');
      return a.data as { total: number; limit: number; offset: number; memories: MemoryData[] };
    };
    const first = await page({});
    expect(first).toMatchObject({ total: 12, limit: 10, offset: 0 });
    expect(first.memories.map((m) => m.content)).toEqual(notes.slice(2).reverse());
    const second = await page({ offset: 10 });
    expect(second.memories.map((m) => m.content)).toEqual(['note number 2', 'note number 1']);
    const middle = await page({ limit: 3, offset: 4 });
    expect(middle.memories.map((m) => m.content)).toEqual([
      'note number 8',
      'note number 7',
      'note number 6',
    ]);
    expect((await page({ offset: 50 })).memories).toEqual([]);
  });

  it('lists for people, numbered with dates, and points to the next page', async () => {
    const a = await mem(key, 'List my recent memories (limit: 5, offset: 5)');
    expect(a.state, a.statusText).toBe('completed');
    const lines = a.text.split('\n');
    expect(lines[0]).toBe('📋 Your memories 6–10 of 12 (newest first):');
    expect(lines[1]).toMatch(
      /^6\. \d{4}-\d\d-\d\d \d\d:\d\d UTC — note number 7 \(mem_[0-9a-f]{24}\)$/
    );
    expect(lines[5]).toContain('note number 3');
    expect(lines[6]).toBe('➡️ More: List my recent memories (limit: 5, offset: 10)');
    const defaults = await mem(key, 'List my recent memories');
    expect(defaults.text.split('\n')[0]).toBe('📋 Your memories 1–10 of 12 (newest first):');
  });

  it('refuses a bad limit or offset', async () => {
    failedWith(await mem(key, 'List my recent memories (limit: 0)'), /`limit`.*at least 1/);
    failedWith(await mem(key, 'List my recent memories (limit: 101)'), /`limit`.*at most 100/);
    failedWith(await mem(key, 'List my recent memories (limit: many)'), /`limit`.*whole number/);
    failedWith(await mem(key, { action: 'list', limit: 2.5 }), /`limit`.*whole number/);
    failedWith(await mem(key, { action: 'list', offset: -1 }), /`offset`.*at least 0/);
  });

  it('says so when there is nothing yet', async () => {
    const { key: empty } = await agent(tenantA, 'list-empty');
    const a = await mem(empty, 'List my recent memories');
    expect(a.text).toBe('📋 No memories yet. Store one with “Remember this: …”.');
  });
});

describe('forget', () => {
  it('by query: deletes what clearly matches and says which', async () => {
    const { key } = await agent(tenantA, 'forget-query');
    const staging = await store(key, 'The staging database moves to eu-west-2 on Friday');
    const billing = await store(
      key,
      'Deploy the billing service only after the database migration finishes'
    );
    const alice = await store(key, 'Alice prefers email over phone calls');

    const a = await mem(key, 'Forget memories matching: staging database');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toBe(
      `🗑️ Forgot 1 memory matching “staging database”:\n• ${staging.id} — ${staging.content}`
    );
    const left = await listAll(key);
    expect(left.memories.map((m) => m.id).sort()).toEqual([billing.id, alice.id].sort());

    // A loose match is shown by recall but not deleted.
    const loose = await mem(key, { action: 'forget', query: 'database' }, JSON_OUT);
    expect(loose.state).toBe('completed');
    expect((loose.data as { forgotten: unknown[] }).forgotten).toEqual([]);
    expect((await listAll(key)).total).toBe(2);

    const json = await mem(key, { action: 'forget', query: 'Alice email preference' }, JSON_OUT);
    const forgotten = (json.data as { forgotten: Scored[] }).forgotten;
    expect(forgotten.map((f) => [f.id, f.content])).toEqual([[alice.id, alice.content]]);
    expect(forgotten[0]!.score).toBeGreaterThan(0.4);
  });

  it('by id: deletes exactly that one; an unknown or malformed id fails', async () => {
    const { key } = await agent(tenantA, 'forget-id');
    const one = await store(key, 'first thing');
    const two = await store(key, 'second thing');
    const a = await mem(key, `Forget ${one.id}`);
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toBe(`🗑️ Forgot 1 memory:\n• ${one.id} — first thing`);
    expect((await listAll(key)).memories.map((m) => m.id)).toEqual([two.id]);

    failedWith(
      await mem(key, { action: 'forget', id: one.id }),
      /no memory mem_.*forgotten already/
    );
    failedWith(await mem(key, 'Forget mem_nope'), /"mem_nope" is not a memory id/);
    failedWith(await mem(key, { action: 'forget' }), /either `query`.*or `id`/);
    failedWith(await mem(key, { action: 'forget', id: two.id, query: 'x' }), /either `query`/);
    failedWith(await mem(key, 'Forget memories matching:'), /`query`.*cannot be empty/);

    const json = await mem(key, { action: 'forget', id: two.id }, JSON_OUT);
    expect((json.data as { forgotten: MemoryData[] }).forgotten.map((m) => m.id)).toEqual([two.id]);
    expect((await listAll(key)).total).toBe(0);
  });
});

describe('requests that match no form', () => {
  it('fails with the four forms', async () => {
    const { key } = await agent(tenantA, 'confused');
    const a = await mem(key, 'hello there');
    failedWith(a, /Remember this: <text>/);
    expect(a.statusText).toMatch(/Search memories for: <query>/);
    expect(a.statusText).toMatch(/Forget memories matching: <query>/);
    expect(a.statusText).toMatch(/List my recent memories/);
    failedWith(await mem(key, { action: 'teleport' }), /unknown action "teleport"/);
    failedWith(await mem(key, { content: 'no action' }), /say which action to run/);
  });
});

describe('isolation', () => {
  let owner: { id: string; key: string };
  let neighbour: { id: string; key: string };
  let stranger: { id: string; key: string };
  let secret: MemoryData;

  beforeAll(async () => {
    owner = await agent(tenantA, 'iso-owner');
    neighbour = await agent(tenantA, 'iso-neighbour');
    stranger = await agent(tenantB, 'iso-stranger');
    secret = await store(owner.key, 'The secret launch code is tulip');
  });

  /** Every way a caller might claim to be the owner: body fields and params, envelope included. */
  const forged = () =>
    forgedIdentity(
      'agent-memory-official',
      { agentId: owner.id, tenantId: tenantA },
      { owner: owner.id }
    );

  it.each([
    ['another agent of the same tenant', () => neighbour],
    ['an agent of another tenant', () => stranger],
  ])('%s cannot recall, list or forget them', async (_, who) => {
    const { key } = who();
    const recall = await mem(key, { action: 'recall', query: 'launch code' }, JSON_OUT);
    expect(recall.state, recall.statusText).toBe('completed');
    expect((recall.data as { results: unknown[] }).results).toEqual([]);
    expect((await mem(key, 'What do you remember about the launch code?')).text).toMatch(
      /^🔎 Nothing I remember/
    );
    expect((await listAll(key)).total).toBe(0);
    failedWith(await mem(key, { action: 'forget', id: secret.id }), /no memory mem_/);
    const byQuery = await mem(key, { action: 'forget', query: 'tulip launch code' }, JSON_OUT);
    expect((byQuery.data as { forgotten: unknown[] }).forgotten).toEqual([]);
    // Its own memory of the same text is its own, not a duplicate of the owner's.
    const own = await store(key, 'The secret launch code is tulip');
    expect(own.id).not.toBe(secret.id);
    expect((await mem(key, { action: 'forget', id: own.id })).state).toBe('completed');
  });

  it.each([
    ['another agent of the same tenant', () => neighbour],
    ['an agent of another tenant', () => stranger],
  ])('%s cannot reach them with forged tenant or sender fields', async (_, who) => {
    const { key } = who();
    const f = forged();
    const recall = await mem(
      key,
      { action: 'recall', query: 'launch code', ...f.body },
      { ...JSON_OUT, params: f.params }
    );
    expect(recall.error).toBeUndefined();
    expect(recall.state, recall.statusText).toBe('completed');
    expect((recall.data as { results: unknown[] }).results).toEqual([]);
    const list = await mem(key, { action: 'list', ...f.body }, { ...JSON_OUT, params: f.params });
    expect((list.data as { total: number }).total).toBe(0);
    const plain = await mem(key, 'List my recent memories', { params: f.params });
    expect(plain.text).toMatch(/^📋 No memories yet/);
    failedWith(
      await mem(key, { action: 'forget', id: secret.id, ...f.body }, { params: f.params }),
      /no memory mem_/
    );
    // What a forged store writes lands in the caller's own memory, not the owner's.
    const stored = await mem(
      key,
      { action: 'store', content: 'planted by someone else', ...f.body },
      { ...JSON_OUT, params: f.params }
    );
    expect(stored.state, stored.statusText).toBe('completed');
    const mine = await listAll(key);
    expect(mine.memories.map((m) => m.content)).toEqual(['planted by someone else']);
    await mem(key, { action: 'forget', id: mine.memories[0]!.id });
  });

  it("leaves the owner's memory untouched", async () => {
    const { memories } = await listAll(owner.key);
    expect(memories.map((m) => [m.id, m.content])).toEqual([[secret.id, secret.content]]);
    const a = await mem(owner.key, { action: 'recall', query: 'launch code' }, JSON_OUT);
    expect((a.data as { results: Scored[] }).results.map((r) => r.id)).toEqual([secret.id]);
  });
});
