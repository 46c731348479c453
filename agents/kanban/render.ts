// How kanban answers read: text for people (card lines, lane headings, a card's history), the
// board as markdown, and the JSON forms (snake_case, as the request fields are) beside them.
import { isOverdue } from './filters.js';
import { byPosition } from './lanes.js';
import type { Board, Card, CardEvent, Lane, LaneWithCount, ListedCard } from './model.js';

/** 2026-12-01 for midnight UTC, else 2026-12-01 17:30 UTC. */
export function shortDate(at: Date): string {
  const iso = at.toISOString();
  const time = iso.slice(11, 16);
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${time} UTC`;
}

/** "[P2] Title (due 2026-12-01, ⚠️ overdue) #bug · kb_card_…" without the bullet. */
export function cardSummary(card: Card, now: Date): string {
  const bits: string[] = [];
  if (card.priority !== null) bits.push(`[P${card.priority}]`);
  bits.push(card.completedAt ? `✅ ${card.title}` : card.title);
  const notes: string[] = [];
  if (card.dueAt) notes.push(`due ${shortDate(card.dueAt)}`);
  if (isOverdue(card, now)) notes.push('⚠️ overdue');
  if (notes.length > 0) bits.push(`(${notes.join(', ')})`);
  if (card.labels.length > 0) bits.push(card.labels.map((l) => `#${l}`).join(' '));
  return `${bits.join(' ')} · ${card.id}`;
}

export function laneHeading(lane: Lane, count: number): string {
  const wip = lane.wipLimit !== null ? ` — WIP ${count}/${lane.wipLimit}` : '';
  const done = lane.isDone ? ' ✅' : '';
  return `${lane.name}${done} (${count} card${count === 1 ? '' : 's'}${wip})`;
}

/** The whole board as markdown: a heading per lane, a list item per card. */
export function boardMarkdown(
  board: Board,
  lanes: readonly Lane[],
  cards: readonly Card[],
  now: Date
): string {
  const lines = [`# 📋 ${board.name} (\`${board.slug}\`)`];
  for (const lane of byPosition(lanes)) {
    const inLane = cards.filter((c) => c.laneId === lane.id);
    lines.push('', `## ${laneHeading(lane, inLane.length)}`, '');
    if (inLane.length === 0) lines.push('_no cards_');
    for (const card of inLane) lines.push(`- ${cardSummary(card, now)}`);
  }
  return lines.join('\n');
}

export function boardText(board: Board, lanes: readonly LaneWithCount[]): string {
  const lines = [`📋 Board ${board.name} (${board.slug}) · ${board.id}`];
  for (const lane of byPosition(lanes)) {
    lines.push(`• ${laneHeading(lane, lane.cardCount)} · ${lane.id}`);
  }
  return lines.join('\n');
}

export function boardListText(boards: ReadonlyArray<Board & { cardCount: number }>): string {
  if (boards.length === 0) return '📋 No boards yet. Create one with board:create, or add a card.';
  const lines = [`📋 ${boards.length} board${boards.length === 1 ? '' : 's'}`];
  for (const b of boards) {
    lines.push(`• ${b.name} (${b.slug}) — ${b.cardCount} card${b.cardCount === 1 ? '' : 's'}`);
  }
  return lines.join('\n');
}

export function cardListText(cards: readonly ListedCard[], heading: string, now: Date): string {
  if (cards.length === 0) return `🗂️ No cards${heading ? ` (${heading})` : ''}.`;
  const lines = [
    `🗂️ ${cards.length} card${cards.length === 1 ? '' : 's'}${heading ? ` (${heading})` : ''}`,
  ];
  for (const c of cards) lines.push(`• ${cardSummary(c, now)} — ${c.boardSlug} / ${c.laneName}`);
  return lines.join('\n');
}

/** One event as a line of history: "2026-11-22 10:00 UTC moved Todo → Doing". */
export function eventLine(e: CardEvent): string {
  const d = e.details;
  const str = (k: string) => (typeof d[k] === 'string' ? d[k] : '');
  let what: string;
  switch (e.kind) {
    case 'created':
      what = `created in ${str('lane')}`;
      break;
    case 'moved':
      what = `moved ${str('from')} → ${str('to')}`;
      break;
    case 'updated':
      what = `updated ${Object.keys((d.changes as Record<string, unknown> | undefined) ?? {}).join(', ')}`;
      break;
    case 'completed':
    case 'uncompleted':
    case 'deleted':
      what = e.kind;
      break;
    default:
      what = assertNever(e.kind);
  }
  return `${shortDate(e.at)} ${what}`;
}

export function cardDetailText(
  card: Card,
  board: Board,
  lane: Lane,
  events: readonly CardEvent[],
  now: Date
): string {
  const lines = [`🗂️ ${cardSummary(card, now)}`, `📋 ${board.name} (${board.slug}) / ${lane.name}`];
  if (card.description) lines.push('', card.description, '');
  if (card.priority !== null) lines.push(`• priority: P${card.priority}`);
  if (card.dueAt) lines.push(`• due: ${card.dueAt.toISOString()}`);
  if (card.labels.length > 0) lines.push(`• labels: ${card.labels.join(', ')}`);
  if (card.sourceRef) lines.push(`• source: ${card.sourceRef}`);
  if (card.completedAt) lines.push(`• completed: ${card.completedAt.toISOString()}`);
  lines.push('', '🕒 History:');
  for (const e of events) lines.push(`• ${eventLine(e)}`);
  return lines.join('\n');
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function boardJson(board: Board) {
  return {
    id: board.id,
    name: board.name,
    slug: board.slug,
    created_at: board.createdAt.toISOString(),
  };
}

export function laneJson(lane: Lane, cardCount?: number) {
  return {
    id: lane.id,
    name: lane.name,
    position: lane.position,
    is_done: lane.isDone,
    wip_limit: lane.wipLimit,
    ...(cardCount !== undefined ? { card_count: cardCount } : {}),
  };
}

export function cardJson(card: Card, now: Date) {
  return {
    id: card.id,
    board_id: card.boardId,
    lane_id: card.laneId,
    title: card.title,
    description: card.description,
    due_at: iso(card.dueAt),
    priority: card.priority,
    labels: card.labels,
    source_ref: card.sourceRef,
    completed_at: iso(card.completedAt),
    overdue: isOverdue(card, now),
    created_at: card.createdAt.toISOString(),
    updated_at: card.updatedAt.toISOString(),
  };
}

export function eventJson(e: CardEvent) {
  return { kind: e.kind, at: e.at.toISOString(), details: e.details };
}

function assertNever(x: never): never {
  throw new TypeError(`unexpected ${String(x)}`);
}
