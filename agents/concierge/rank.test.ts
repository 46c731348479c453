import { describe, expect, it } from 'vitest';
import { above, cardText, rank, skillText, MAX_BOOST, WORD_BOOST } from './rank.js';
import { agent, vocabularyEmbedder } from './test-fakes.js';

const vocabulary = [
  'rain',
  'forecast',
  'weather',
  'contract',
  'clause',
  'recipe',
  'cook',
  'pasta',
  'paris',
];
const embedder = vocabularyEmbedder(vocabulary);

const weather = agent({
  id: 'agent-weather',
  name: 'Weather Forecaster',
  alias: 'weather',
  description: 'rain and forecast',
  tags: ['weather'],
  skills: [
    { name: 'Forecast', description: 'rain forecast', tags: [], examples: ['rain in paris'] },
  ],
});
const legal = agent({
  id: 'agent-legal',
  name: 'Contract Reviewer',
  description: 'contract clause review',
  tags: ['contract', 'legal'],
});
const cooking = agent({
  id: 'agent-cooking',
  name: 'Chef',
  description: 'recipe cook pasta',
  tags: ['recipe'],
});

async function ranked(query: string, agents = [weather, legal, cooking]) {
  const [q, ...cards] = await embedder.embed([query, ...agents.map(cardText)]);
  const skills = await Promise.all(agents.map((a) => embedder.embed(a.skills.map(skillText))));
  return rank(
    query,
    q!,
    agents.map((a, i) => ({ agent: a, vectors: { card: cards[i]!, skills: skills[i]! } }))
  );
}

describe('rank', () => {
  it('puts the agent whose card means the query first', async () => {
    const r = await ranked('will it rain in paris tomorrow');
    expect(r.map((m) => m.agent.id)).toEqual(['agent-weather', 'agent-cooking', 'agent-legal']);
    expect(r[0]!.similarity).toBeGreaterThan(0.5);
    expect(r[1]!.score).toBe(0);
  });

  it('scores the best of the card and each skill, and names the skills that matched', async () => {
    const r = await ranked('rain forecast');
    const w = r.find((m) => m.agent.id === 'agent-weather')!;
    // Skill: forecast ×2, rain ×2, paris → 4/(√2·3) = 0.943; the whole card (weather ×3, rain ×3,
    // forecast ×3, paris) only 6/(√2·√28) = 0.802.
    expect(w.why.skills).toEqual(['Forecast']);
    expect(w.similarity).toBeCloseTo(4 / (Math.SQRT2 * 3), 5);
    expect(w.why.tags).toEqual([]);
  });

  it('adds a word boost per distinct tag or name word the query says, capped', async () => {
    const r = await ranked('contract clause');
    const l = r.find((m) => m.agent.id === 'agent-legal')!;
    expect(l.why.tags).toEqual(['contract']);
    expect(l.boost).toBeCloseTo(WORD_BOOST, 6);
    expect(l.score).toBeCloseTo(l.similarity + WORD_BOOST, 6);

    const many = agent({
      id: 'agent-many',
      name: 'alpha beta gamma delta',
      tags: ['alpha', 'beta', 'gamma', 'delta'],
    });
    const m = (await ranked('alpha beta gamma delta', [many]))[0]!;
    expect(m.boost).toBeCloseTo(MAX_BOOST, 6);
  });

  it('does not boost for common words like "agent" or "the"', async () => {
    const a = agent({ id: 'agent-x', name: 'The Pasta Agent', tags: [] });
    const m = (await ranked('the agent', [a]))[0]!;
    expect(m.boost).toBe(0);
    expect(m.why.names).toEqual([]);
  });

  it('breaks ties by id so the order is stable', async () => {
    const b = agent({ id: 'agent-b', name: 'B', description: 'pasta' });
    const a = agent({ id: 'agent-a', name: 'A', description: 'pasta' });
    const r = await ranked('pasta', [b, a]);
    expect(r.map((m) => m.agent.id)).toEqual(['agent-a', 'agent-b']);
  });
});

describe('above', () => {
  it('keeps matches at or over the minimum, up to the limit', async () => {
    const r = await ranked('rain contract recipe');
    expect(above(r, 0.3, 5).length).toBe(3);
    expect(above(r, 0.3, 2).length).toBe(2);
    expect(above(r, 0.99, 5)).toEqual([]);
  });
});

describe('cardText', () => {
  it('holds name, alias, description, category, tags and every skill with its examples', () => {
    const t = cardText({ ...weather, category: 'utilities' });
    for (const s of [
      'Weather Forecaster (weather)',
      'rain and forecast',
      'Category: utilities',
      'Tags: weather',
      'Forecast: rain forecast',
      'Examples: rain in paris',
    ]) {
      expect(t).toContain(s);
    }
  });
});
