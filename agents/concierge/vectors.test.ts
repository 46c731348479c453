import { describe, expect, it } from 'vitest';
import { cosine } from '../../infra/embed/index.js';
import { createVectorCache } from './vectors.js';
import { agent, vocabularyEmbedder } from './test-fakes.js';

const a = agent({
  id: 'agent-a',
  name: 'rain',
  skills: [{ name: 'forecast', description: '', tags: [], examples: [] }],
});
const b = agent({ id: 'agent-b', name: 'pasta' });

describe('vector cache', () => {
  it('embeds each card once, and the query every time, in one call', async () => {
    const e = vocabularyEmbedder(['rain', 'forecast', 'pasta']);
    const cache = createVectorCache();
    const first = await cache.embed(e, 'rain', [a, b]);
    expect(e.calls).toHaveLength(1);
    expect(e.calls[0]).toHaveLength(1 + 2 + 1); // query, a's card and skill, b's card
    // a's card text holds its name and its skill: rain and forecast.
    expect(cosine(first.query, first.agents[0]!.vectors.card)).toBeCloseTo(Math.SQRT1_2, 5);
    expect(first.agents[0]!.vectors.skills).toHaveLength(1);
    expect(cosine(first.query, first.agents[0]!.vectors.skills[0]!)).toBe(0);

    await cache.embed(e, 'pasta', [a, b]);
    expect(e.calls[1]).toEqual(['pasta']);
  });

  it('re-embeds a card whose record changed', async () => {
    const e = vocabularyEmbedder(['rain', 'pasta']);
    const cache = createVectorCache();
    await cache.embed(e, 'x', [a, b]);
    const changed = { ...b, name: 'rain', updatedAt: new Date('2026-02-01T00:00:00Z') };
    const r = await cache.embed(e, 'rain', [a, changed]);
    expect(e.calls[1]).toHaveLength(2);
    expect(cosine(r.query, r.agents[1]!.vectors.card)).toBeCloseTo(1, 5);
  });

  it('keeps vectors of different embedders apart', async () => {
    const one = vocabularyEmbedder(['rain'], 'one');
    const two = vocabularyEmbedder(['rain'], 'two');
    const cache = createVectorCache();
    await cache.embed(one, 'x', [a]);
    await cache.embed(two, 'x', [a]);
    expect(two.calls[0]).toHaveLength(3);
    expect(cache.size).toBe(2);
  });

  it('stays within its size, and still answers for every agent asked', async () => {
    const e = vocabularyEmbedder(['rain', 'pasta']);
    const cache = createVectorCache(1);
    const r = await cache.embed(e, 'pasta', [a, b]);
    expect(cache.size).toBe(1);
    expect(r.agents.map((x) => x.agent.id)).toEqual(['agent-a', 'agent-b']);
    expect(cosine(r.query, r.agents[1]!.vectors.card)).toBeCloseTo(1, 5);
  });
});
