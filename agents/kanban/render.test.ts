import { describe, expect, it } from 'vitest';
import type { Board, Card, Lane } from './model.js';
import {
  boardMarkdown,
  cardDetailText,
  cardJson,
  cardSummary,
  eventLine,
  laneHeading,
  shortDate,
} from './render.js';

const now = new Date('2026-11-22T12:00:00Z');
const board: Board = { id: 'kb_board_1', name: 'Launch', slug: 'launch', createdAt: now };
const lane = (id: string, name: string, position: number, extra: Partial<Lane> = {}): Lane => ({
  id,
  boardId: board.id,
  name,
  position,
  isDone: false,
  wipLimit: null,
  ...extra,
});
const card = (id: string, laneId: string, extra: Partial<Card> = {}): Card => ({
  id,
  boardId: board.id,
  laneId,
  title: `Card ${id}`,
  description: '',
  dueAt: null,
  priority: null,
  labels: [],
  sourceRef: null,
  completedAt: null,
  completedFromLaneId: null,
  createdAt: now,
  updatedAt: now,
  ...extra,
});

describe('card lines', () => {
  it('shows dates as a day at midnight UTC, else to the minute', () => {
    expect(shortDate(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12-01');
    expect(shortDate(new Date('2026-12-01T17:30:45Z'))).toBe('2026-12-01 17:30 UTC');
  });

  it('shows priority, title, due date, overdue, labels and id', () => {
    const c = card('kb_card_a', 'l1', {
      priority: 2,
      dueAt: new Date('2026-11-20T00:00:00Z'),
      labels: ['bug', 'ui'],
    });
    expect(cardSummary(c, now)).toBe(
      '[P2] Card kb_card_a (due 2026-11-20, ⚠️ overdue) #bug #ui · kb_card_a'
    );
  });

  it('marks completed cards and never calls them overdue', () => {
    const c = card('kb_card_b', 'l1', {
      dueAt: new Date('2026-11-20T00:00:00Z'),
      completedAt: now,
    });
    expect(cardSummary(c, now)).toBe('✅ Card kb_card_b (due 2026-11-20) · kb_card_b');
    expect(cardJson(c, now)).toMatchObject({ overdue: false, completed_at: now.toISOString() });
  });

  it('heads lanes with their count, WIP and done mark', () => {
    expect(laneHeading(lane('l', 'Doing', 20, { wipLimit: 3 }), 2)).toBe(
      'Doing (2 cards — WIP 2/3)'
    );
    expect(laneHeading(lane('l', 'Done', 30, { isDone: true }), 1)).toBe('Done ✅ (1 card)');
  });
});

describe('boardMarkdown', () => {
  it('renders lanes in position order with their cards', () => {
    const lanes = [
      lane('l3', 'Done', 30, { isDone: true }),
      lane('l1', 'Todo', 10),
      lane('l2', 'Doing', 20, { wipLimit: 1 }),
    ];
    const cards = [
      card('kb_card_a', 'l1', { priority: 1 }),
      card('kb_card_b', 'l3', { completedAt: now }),
    ];
    expect(boardMarkdown(board, lanes, cards, now)).toBe(
      [
        '# 📋 Launch (`launch`)',
        '',
        '## Todo (1 card)',
        '',
        '- [P1] Card kb_card_a · kb_card_a',
        '',
        '## Doing (0 cards — WIP 0/1)',
        '',
        '_no cards_',
        '',
        '## Done ✅ (1 card)',
        '',
        '- ✅ Card kb_card_b · kb_card_b',
      ].join('\n')
    );
  });
});

describe('history', () => {
  it('words each kind of event', () => {
    const at = new Date('2026-11-22T10:00:00Z');
    expect(eventLine({ kind: 'created', details: { lane: 'Todo' }, at })).toBe(
      '2026-11-22 10:00 UTC created in Todo'
    );
    expect(eventLine({ kind: 'moved', details: { from: 'Todo', to: 'Done' }, at })).toBe(
      '2026-11-22 10:00 UTC moved Todo → Done'
    );
    expect(
      eventLine({ kind: 'updated', details: { changes: { title: {}, priority: {} } }, at })
    ).toBe('2026-11-22 10:00 UTC updated title, priority');
    expect(eventLine({ kind: 'deleted', details: {}, at })).toBe('2026-11-22 10:00 UTC deleted');
  });

  it('shows a card with its fields and history', () => {
    const c = card('kb_card_a', 'l1', {
      description: 'Draft and review',
      sourceRef: 'crm:crm_ent_1',
      labels: ['blog'],
    });
    const text = cardDetailText(
      c,
      board,
      lane('l1', 'Todo', 10),
      [{ kind: 'created', details: { lane: 'Todo' }, at: now }],
      now
    );
    expect(text).toContain('📋 Launch (launch) / Todo');
    expect(text).toContain('Draft and review');
    expect(text).toContain('• source: crm:crm_ent_1');
    expect(text).toContain('🕒 History:\n• 2026-11-22 12:00 UTC created in Todo');
  });
});
