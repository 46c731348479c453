import { describe, expect, it } from 'vitest';
import { parseRequest, words } from './parse.js';

describe('parseRequest', () => {
  it('routes plain text, trimmed', () => {
    expect(parseRequest('  will it rain in Paris?  ')).toEqual({
      mode: 'route',
      query: 'will it rain in Paris?',
    });
  });

  it('reads the research: and find: prefixes in any case, with or without spaces', () => {
    expect(parseRequest('Research:  contract law')).toEqual({
      mode: 'research',
      query: 'contract law',
    });
    expect(parseRequest('find:weather')).toEqual({ mode: 'find', query: 'weather' });
    expect(parseRequest('FIND : weather')).toEqual({ mode: 'find', query: 'weather' });
  });

  it('keeps a prefix with nothing after it, so the caller is told what to add', () => {
    expect(parseRequest('find:   ')).toEqual({ mode: 'find', query: '' });
  });

  it('has nothing to act on for empty text', () => {
    expect(parseRequest('')).toBeUndefined();
    expect(parseRequest(' \n ')).toBeUndefined();
  });

  it('only treats the prefix at the start as a mode', () => {
    expect(parseRequest('how do I find: things')).toEqual({
      mode: 'route',
      query: 'how do I find: things',
    });
  });
});

describe('words', () => {
  it('lowercases, splits on non-letters and folds a plural s', () => {
    expect(words('Contracts, RECIPES & the class!')).toEqual([
      'contract',
      'recipe',
      'the',
      'class',
    ]);
  });
});
