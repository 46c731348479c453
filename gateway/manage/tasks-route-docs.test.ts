// The query of GET /api/tasks and its feed: each filter checked, anything else 400 naming it.
import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { parseTaskFilter, TASKS_LIMIT } from './tasks-routes.js';

function fieldOf(query: string, allowLimit = true): string | undefined {
  try {
    parseTaskFilter(query, allowLimit);
  } catch (err) {
    if (err instanceof HubError) return (err.data as { field?: string } | undefined)?.field;
    throw err;
  }
  return undefined;
}

describe('parseTaskFilter', () => {
  it('reads agentId, contextId, state and limit, with the default limit', () => {
    expect(parseTaskFilter('')).toEqual({ limit: TASKS_LIMIT.default });
    expect(parseTaskFilter('agentId=agent-1&contextId=c-1&state=working&limit=200')).toEqual({
      agentId: 'agent-1',
      contextId: 'c-1',
      state: 'working',
      limit: 200,
    });
  });

  it.each([
    ['state=done', 'state'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=1.5', 'limit'],
    ['agentId=', 'agentId'],
    [`contextId=${'x'.repeat(201)}`, 'contextId'],
    ['agentId=a&agentId=b', 'agentId'],
    ['sort=new', 'sort'],
  ])('refuses %s naming %s', (query, field) => {
    expect(fieldOf(query)).toBe(field);
  });

  it('refuses limit on the feed, which sends every change', () => {
    expect(fieldOf('limit=5', false)).toBe('limit');
  });
});
