import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config/index.js';
import { rateHold } from './listing.js';
import { credentials } from './oauth.js';
import {
  SubredditInput,
  companyFromText,
  searchFromText,
  sentimentFromText,
  subredditFromText,
} from './parse.js';
import { classify, overall } from './sentiment.js';

describe('plain language', () => {
  it('reads a sentiment question, with a subreddit and a time', () => {
    expect(sentimentFromText('how does reddit feel about Tesla this week')).toEqual({
      query: 'Tesla',
      time: 'week',
    });
    expect(sentimentFromText('sentiment on async in r/rust')).toEqual({
      query: 'async',
      subreddit: 'rust',
    });
    expect(sentimentFromText('reddit posts about tesla')).toBeUndefined();
  });

  it('reads a subreddit, its sort and a search within it', () => {
    expect(subredditFromText('top posts in r/rust this week')).toEqual({
      subreddit: 'rust',
      sort: 'top',
      time: 'week',
    });
    expect(subredditFromText('newest in subreddit python about packaging')).toEqual({
      subreddit: 'python',
      query: 'packaging',
      sort: 'new',
    });
    expect(subredditFromText('reddit threads about keyboards')).toBeUndefined();
  });

  it('reads a company and a plain search', () => {
    expect(companyFromText('reddit posts about the company Nvidia')).toEqual({ company: 'Nvidia' });
    expect(companyFromText('what does reddit say about Tesla stock today')).toEqual({
      company: 'Tesla',
      time: 'day',
    });
    expect(searchFromText('newest reddit threads about home espresso')).toEqual({
      query: 'newest home espresso',
      sort: 'new',
    });
    expect(searchFromText('help')).toBeUndefined();
  });
});

describe('inputs and settings', () => {
  it('takes a subreddit with or without r/, and refuses other names', () => {
    expect(SubredditInput.parse({ subreddit: '/r/rust' }).subreddit).toBe('rust');
    expect(SubredditInput.safeParse({ subreddit: 'a b' }).success).toBe(false);
    expect(SubredditInput.safeParse({ subreddit: 'x' }).success).toBe(false);
  });

  it('wants both OAuth settings or neither', () => {
    const none = loadConfig({}).publicData.reddit;
    expect(credentials(none)).toBeUndefined();
    const both = loadConfig({ REDDIT_CLIENT_ID: 'id', REDDIT_CLIENT_SECRET: 's' }).publicData
      .reddit;
    expect(credentials(both)).toEqual({ id: 'id', secret: 's' });
    expect([none.requestsPerMinute, both.requestsPerMinute]).toEqual([10, 100]);
    const half = loadConfig({ REDDIT_CLIENT_ID: 'id' }).publicData.reddit;
    expect(() => credentials(half)).toThrow(/set both REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET/);
  });

  it('holds off until the reset only when nothing remains', () => {
    const h = (remaining: string, reset: string) =>
      new Headers({ 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': reset });
    expect(rateHold(h('0.0', '42'))).toBe(42_000);
    expect(rateHold(h('3.0', '42'))).toBeUndefined();
    expect(rateHold(new Headers())).toBeUndefined();
  });

  it('labels posts at the documented thresholds', () => {
    expect(classify('I love it, best ever').label).toBe('positive');
    expect(classify('terrible and awful').label).toBe('negative');
    const o = overall([classify('great'), classify('a day'), classify('sad')]);
    expect(o?.counts).toEqual({ positive: 1, neutral: 1, negative: 1 });
  });
});
