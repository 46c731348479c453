import { describe, expect, it } from 'vitest';
import { cosine, pgVector, fromPg } from './embedder.js';
import { createLocalEmbedder, stem, words } from './local.js';

const e = createLocalEmbedder();
const one = async (t: string) => (await e.embed([t]))[0]!;
const sim = async (a: string, b: string) => cosine(await one(a), await one(b));

describe('the local embedder', () => {
  it('is deterministic and returns unit vectors, zero for a text without words', async () => {
    const [a, b, empty] = await e.embed(['Solar panels for homes', 'Solar panels for homes', '?!']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
    expect(cosine(empty!, empty!)).toBe(0);
  });

  it('ranks shared words above unrelated text', async () => {
    const q = 'solar panel installer';
    expect(await sim(q, 'We install solar panels on roofs')).toBeGreaterThan(
      await sim(q, 'A bakery selling sourdough bread')
    );
  });

  it('matches word forms through stems and typos through trigrams', async () => {
    expect(stem('forecasting')).toBe(stem('forecasts'));
    expect(stem('companies')).toBe('company');
    expect(await sim('invoices', 'invoice')).toBeGreaterThan(0.9);
    expect(await sim('kubernetes', 'kubernets')).toBeGreaterThan(0.25);
    expect(await sim('kubernetes', 'bread')).toBeLessThan(0.2);
  });

  it('brings words of one topic together although they share no letters', async () => {
    expect(await sim('will it rain tomorrow', 'weather forecast')).toBeGreaterThan(
      await sim('will it rain tomorrow', 'legal contract review')
    );
    expect(await sim('find a client', 'customer records')).toBeGreaterThan(0.2);
  });

  it('ignores stop words, case and accents', async () => {
    expect(words('The Café of the Year')).toEqual(['cafe', 'year']);
    expect(await sim('Café', 'cafe')).toBeCloseTo(1, 5);
  });

  it('round-trips a vector through the real[] literal', async () => {
    const v = await one('round trip');
    const literal = pgVector(v);
    expect(literal.startsWith('{') && literal.endsWith('}')).toBe(true);
    const back = fromPg(literal.slice(1, -1).split(',').map(Number));
    expect(cosine(v, back)).toBeCloseTo(1, 4);
  });
});
