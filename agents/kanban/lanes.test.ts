import { describe, expect, it } from 'vitest';
import {
  completionOnMove,
  defaultLane,
  findLane,
  firstDoneLane,
  isDoneName,
  orderWithInsert,
  renumber,
  reorder,
  uncompleteLane,
  wipMessage,
} from './lanes.js';
import type { Lane } from './model.js';

const lane = (id: string, name: string, position: number, isDone = false): Lane => ({
  id,
  boardId: 'b',
  name,
  position,
  isDone,
  wipLimit: null,
});
// Deliberately out of order: every helper must go by position, not by array order.
const lanes = [lane('l3', 'Done', 30, true), lane('l1', 'Todo', 10), lane('l2', 'Doing', 20)];

describe('positions', () => {
  it('numbers lanes in steps of 10', () => {
    expect(renumber(['a', 'b', 'c'])).toEqual([
      { id: 'a', position: 10 },
      { id: 'b', position: 20 },
      { id: 'c', position: 30 },
    ]);
    expect(renumber([])).toEqual([]);
  });

  it('inserts a new lane at the end, or after a named lane', () => {
    expect(orderWithInsert(lanes, 'new')).toEqual(['l1', 'l2', 'l3', 'new']);
    expect(orderWithInsert(lanes, 'new', 'l1')).toEqual(['l1', 'new', 'l2', 'l3']);
    expect(orderWithInsert(lanes, 'new', 'l3')).toEqual(['l1', 'l2', 'l3', 'new']);
    expect(() => orderWithInsert(lanes, 'new', 'nope')).toThrow(RangeError);
  });
});

describe('reorder', () => {
  it('takes every lane once, by name in any case or by id', () => {
    expect(reorder(lanes, ['done', 'l1', 'DOING'])).toEqual({ ok: true, ids: ['l3', 'l1', 'l2'] });
  });

  it('names unknown, repeated and missing lanes', () => {
    expect(reorder(lanes, ['Todo', 'Review'])).toEqual({
      ok: false,
      problem: 'no lane "Review"; lanes are "Todo", "Doing", "Done"',
    });
    expect(reorder(lanes, ['Todo', 'todo', 'Done'])).toEqual({
      ok: false,
      problem: 'lane "Todo" is listed twice',
    });
    expect(reorder(lanes, ['Done', 'Todo'])).toEqual({
      ok: false,
      problem: 'list every lane once; missing "Doing"',
    });
  });
});

describe('which lane', () => {
  it('finds lanes by id first, then by name without case', () => {
    expect(findLane(lanes, 'l2')?.name).toBe('Doing');
    expect(findLane(lanes, ' doing ')?.id).toBe('l2');
    expect(findLane(lanes, 'Review')).toBeUndefined();
  });

  it('puts new cards in the first open lane, or the first lane when all are done', () => {
    expect(defaultLane(lanes)?.id).toBe('l1');
    expect(defaultLane([lane('d2', 'B', 20, true), lane('d1', 'A', 10, true)])?.id).toBe('d1');
    expect(defaultLane([])).toBeUndefined();
  });

  it('completes into the first done lane by position', () => {
    const two = [...lanes, lane('l0', 'Shipped', 5, true)];
    expect(firstDoneLane(two)?.id).toBe('l0');
    expect(firstDoneLane([lane('l1', 'Todo', 10)])).toBeUndefined();
  });

  it('reopens into the lane the card came from, else the first open lane', () => {
    expect(uncompleteLane(lanes, 'l2')?.id).toBe('l2');
    expect(uncompleteLane(lanes, 'gone')?.id).toBe('l1');
    expect(uncompleteLane(lanes, null)?.id).toBe('l1');
    // A lane that has since become a done lane is no place to reopen a card.
    expect(uncompleteLane(lanes, 'l3')?.id).toBe('l1');
    expect(uncompleteLane([lane('l3', 'Done', 10, true)], 'l1')).toBeUndefined();
  });

  it('reads a lane named "Done" as a done lane', () => {
    expect(isDoneName(' done ')).toBe(true);
    expect(isDoneName('Done-ish')).toBe(false);
  });
});

describe('moves', () => {
  it('completes on entering a done lane and uncompletes on leaving one', () => {
    expect(completionOnMove(false, true)).toBe('completes');
    expect(completionOnMove(true, false)).toBe('uncompletes');
    expect(completionOnMove(true, true)).toBe('unchanged');
    expect(completionOnMove(false, false)).toBe('unchanged');
  });

  it('words the WIP refusal with the lane and its limit', () => {
    expect(wipMessage({ name: 'Doing', wipLimit: 2 }, 2)).toBe(
      'lane "Doing" is at its WIP limit of 2 (2 cards in it); move or complete a card there first'
    );
    expect(wipMessage({ name: 'Review', wipLimit: 1 }, 1)).toContain('(1 card in it)');
  });
});
