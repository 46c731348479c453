// The query of GET /api/tasks and its feed, read by parseQuery with the docs' own schemas: each
// filter checked, anything else 400 naming it.
import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { parseQuery } from '../http/index.js';
import { TASKS_LIMIT, TaskFeedQuery, TasksQuery } from './tasks-route-docs.js';

function refusal(query: string, schema: typeof TasksQuery | typeof TaskFeedQuery = TasksQuery) {
  try {
    parseQuery(schema, query);
  } catch (err) {
    if (err instanceof HubError) {
      return { field: (err.data as { field?: string } | undefined)?.field, message: err.message };
    }
    throw err;
  }
  throw new Error(`${query} was not refused`);
}

describe('the tasks query', () => {
  it('reads agentId, contextId, state and limit, with the default limit', () => {
    expect(parseQuery(TasksQuery, '')).toEqual({ limit: TASKS_LIMIT.default });
    expect(parseQuery(TasksQuery, 'agentId=agent-1&contextId=c-1&state=working&limit=200')).toEqual(
      { agentId: 'agent-1', contextId: 'c-1', state: 'working', limit: 200 }
    );
    expect(parseQuery(TaskFeedQuery, 'state=completed')).toEqual({ state: 'completed' });
  });

  it.each([
    ['state=done', 'state'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1e2', 'limit'],
    ['limit=', 'limit'],
    ['agentId=', 'agentId'],
    [`contextId=${'x'.repeat(201)}`, 'contextId'],
    ['agentId=a&agentId=b', 'agentId'],
    ['sort=new', 'sort'],
    ['agentId=a%00b', 'agentId'],
  ])('refuses %s naming %s', (query, field) => {
    expect(refusal(query).field).toBe(field);
  });

  it('says what was wrong', () => {
    expect(refusal('state=done').message).toMatch(/^Invalid params: state: must be one of /);
    expect(refusal('limit=201').message).toBe('Invalid params: limit: must be at most 200');
    expect(refusal('sort=new').message).toBe(
      'Invalid params: sort: unknown parameter; allowed: agentId, contextId, state, limit'
    );
  });

  it('refuses limit on the feed, which sends every change', () => {
    expect(refusal('limit=5', TaskFeedQuery)).toEqual({
      field: 'limit',
      message: 'Invalid params: limit: unknown parameter; allowed: agentId, contextId, state',
    });
  });
});
