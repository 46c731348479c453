import { describe, expect, it } from 'vitest';
import { CardFilterInput, cardQuery, describeQuery, isOverdue } from './filters.js';

const now = new Date('2026-11-22T12:00:00Z');

describe('card:list filters', () => {
  it('defaults to 100 cards and nothing else', () => {
    expect(cardQuery(CardFilterInput.parse({}), now)).toEqual({ limit: 100 });
  });

  it('reads every filter', () => {
    const input = CardFilterInput.parse({
      lane: 'Doing',
      overdue: true,
      due_before: '2026-12-01',
      label: ' Bug ',
      source_ref: 'crm:crm_ent_1',
      completed: false,
      limit: 5,
    });
    expect(cardQuery(input, now)).toEqual({
      overdue: { now, is: true },
      dueBefore: new Date('2026-12-01T00:00:00Z'),
      label: 'bug',
      sourceRef: 'crm:crm_ent_1',
      completed: false,
      limit: 5,
    });
    expect(describeQuery(input)).toBe(
      'lane Doing, overdue, due before 2026-12-01T00:00:00.000Z, label Bug, source crm:crm_ent_1, open'
    );
  });

  it('keeps overdue: false as a filter of its own', () => {
    expect(cardQuery(CardFilterInput.parse({ overdue: false }), now).overdue).toEqual({
      now,
      is: false,
    });
  });

  it.each([
    [{ due_before: 'soon' }, 'due_before'],
    [{ overdue: 'yes' }, 'overdue'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 501 }, 'limit'],
    [{ label: '' }, 'label'],
  ])('refuses %j, naming %s', (input, field) => {
    const r = CardFilterInput.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual([field]);
  });

  it('drops fields it does not know, such as a forged tenant', () => {
    expect(CardFilterInput.parse({ tenantId: 'other', owner_agent_id: 'x' })).toEqual({});
  });
});

describe('isOverdue', () => {
  const due = (at: string | null, completed: string | null = null) => ({
    dueAt: at ? new Date(at) : null,
    completedAt: completed ? new Date(completed) : null,
  });

  it('is due before now and not completed', () => {
    expect(isOverdue(due('2026-11-22T11:59:59Z'), now)).toBe(true);
    expect(isOverdue(due('2026-11-22T12:00:00Z'), now)).toBe(false);
    expect(isOverdue(due(null), now)).toBe(false);
    expect(isOverdue(due('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z'), now)).toBe(false);
  });
});
