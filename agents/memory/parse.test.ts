import { describe, expect, it } from 'vitest';
import { parseRequest } from './parse.js';

describe('parseRequest: store', () => {
  it.each([
    ['Remember this: the staging database moves on Friday', 'the staging database moves on Friday'],
    ['remember:   Alice prefers email  ', 'Alice prefers email'],
    ['Remember that Bob is allergic to peanuts', 'Bob is allergic to peanuts'],
    ['REMEMBER THIS:\nline one\nline two', 'line one\nline two'],
  ])('%j', (text, content) => {
    expect(parseRequest(text)).toEqual({ action: 'store', content });
  });

  it('takes a closing "(tags: …)" as tags', () => {
    expect(parseRequest('Remember this: ship v2 on Monday (tags: release, Work)')).toEqual({
      action: 'store',
      content: 'ship v2 on Monday',
      tags: ['release', 'Work'],
    });
  });

  it('keeps other brackets as part of the content', () => {
    expect(parseRequest('Remember: the limit is 100 (per minute)')).toEqual({
      action: 'store',
      content: 'the limit is 100 (per minute)',
    });
  });

  it('passes empty content on, for the schema to refuse', () => {
    expect(parseRequest('Remember this:')).toEqual({ action: 'store', content: '' });
  });
});

describe('parseRequest: recall', () => {
  it.each([
    ['Search memories for: staging database', 'staging database'],
    ['search my memories about Alice', 'Alice'],
    ['Recall the wifi password', 'the wifi password'],
    ['recall: wifi', 'wifi'],
    ['What do you remember about Alice?', 'Alice'],
  ])('%j', (text, query) => {
    expect(parseRequest(text)).toEqual({ action: 'recall', query });
  });

  it('reads a closing "(limit: N)"', () => {
    expect(parseRequest('Search memories for: database (limit: 3)')).toEqual({
      action: 'recall',
      query: 'database',
      limit: 3,
    });
  });
});

describe('parseRequest: forget', () => {
  it('by query', () => {
    expect(parseRequest('Forget memories matching: staging database')).toEqual({
      action: 'forget',
      query: 'staging database',
    });
  });

  it.each([
    'Forget mem_0123456789abcdef01234567',
    'forget memory mem_0123456789abcdef01234567.',
    'Forget memories matching: mem_0123456789abcdef01234567',
  ])('by id: %j', (text) => {
    expect(parseRequest(text)).toEqual({ action: 'forget', id: 'mem_0123456789abcdef01234567' });
  });

  it('passes a malformed id on, for the action to refuse', () => {
    expect(parseRequest('Forget mem_nope')).toEqual({ action: 'forget', id: 'mem_nope' });
  });

  it('an empty query', () => {
    expect(parseRequest('Forget memories matching:')).toEqual({ action: 'forget', query: '' });
  });
});

describe('parseRequest: list', () => {
  it.each([
    ['List my recent memories', {}],
    ['List my recent memories (limit: 5, offset: 10)', { limit: 5, offset: 10 }],
    ['list memories limit 3', { limit: 3 }],
    ['Show my memories (offset: 2)', { offset: 2 }],
  ])('%j', (text, options) => {
    expect(parseRequest(text)).toEqual({ action: 'list', ...options });
  });

  it('passes values that are not numbers on as text, for the schema to name', () => {
    expect(parseRequest('List my recent memories (limit: many)')).toEqual({
      action: 'list',
      limit: 'many',
    });
    expect(parseRequest('List my recent memories (limit: 2.5, offset: -1)')).toEqual({
      action: 'list',
      limit: 2.5,
      offset: -1,
    });
  });
});

describe('parseRequest: none of the forms', () => {
  it.each(['hello', 'remember the milk', 'forget it', 'list', 'What is the weather?', ''])(
    '%j',
    (text) => {
      expect(parseRequest(text)).toBeUndefined();
    }
  );
});
