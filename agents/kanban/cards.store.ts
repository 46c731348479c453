// Cards and their event history in PostgreSQL. Every change to a card appends its events in the
// same transaction; a card enters a lane only while holding that lane's row lock, so WIP limits
// are exact under concurrency (lane lock first, card lock second, everywhere).
import { InternalError } from '../../runtime/errors/index.js';
import { inTransaction, jsonText, type Queryable } from '../../infra/db/index.js';
import { fail } from '../kit/index.js';
import { liveCardCount, lockLane, type Tx } from './boards.store.js';
import type { CardQuery } from './filters.js';
import { completionOnMove, wipMessage, type Completion } from './lanes.js';
import type { Board, Card, CardEvent, CardEventKind, Lane, ListedCard, Owner } from './model.js';
import { newId } from './parse.js';

const CARD_COLUMNS =
  'c.id, c.board_id, c.lane_id, c.title, c.description, c.due_at, c.priority, c.labels, ' +
  'c.source_ref, c.completed_at, c.completed_from_lane_id, c.created_at, c.updated_at';

/** Cards in board order: lane position, then priority (unset last), due date, age. */
const CARD_ORDER =
  'l.position, c.priority asc nulls last, c.due_at asc nulls last, c.created_at, c.id';

export interface CardFields {
  title: string;
  description: string;
  dueAt: Date | null;
  priority: number | null;
  labels: string[];
  sourceRef: string | null;
}

export async function getCard(sql: Queryable, o: Owner, id: string): Promise<Card | undefined> {
  const [card] = await sql.unsafe<Card[]>(
    `select ${CARD_COLUMNS} from kanban_cards c
      where c.id = $3 and c.tenant_id = $1 and c.owner_agent_id = $2 and c.deleted_at is null`,
    [o.tenantId, o.agentId, id.trim()]
  );
  return card;
}

export async function requireCard(sql: Queryable, o: Owner, id: string): Promise<Card> {
  const card = await getCard(sql, o, id);
  if (!card) fail(`no card "${id}"; card ids look like kb_card_… (see card:list)`);
  return card;
}

async function lockCard(tx: Tx, o: Owner, id: string): Promise<Card> {
  const [card] = await tx.unsafe<Card[]>(
    `select ${CARD_COLUMNS} from kanban_cards c
      where c.id = $3 and c.tenant_id = $1 and c.owner_agent_id = $2 and c.deleted_at is null
      for update`,
    [o.tenantId, o.agentId, id]
  );
  if (!card) fail(`no card "${id}"; it was deleted meanwhile`);
  return card;
}

export async function appendEvent(
  tx: Queryable,
  o: Owner,
  cardId: string,
  kind: CardEventKind,
  details: Record<string, unknown>,
  at: Date
): Promise<void> {
  await tx.unsafe(
    `insert into kanban_card_events (tenant_id, owner_agent_id, card_id, kind, details, at)
     values ($1, $2, $3, $4, $5::text::jsonb, $6)`,
    [o.tenantId, o.agentId, cardId, kind, jsonText(details), at]
  );
}

/** The card's history, oldest first. */
export async function cardEvents(sql: Queryable, o: Owner, cardId: string): Promise<CardEvent[]> {
  return sql.unsafe<CardEvent[]>(
    `select kind, details, at from kanban_card_events
      where tenant_id = $1 and owner_agent_id = $2 and card_id = $3
      order by id`,
    [o.tenantId, o.agentId, cardId]
  );
}

/** Fail unless `lane` (locked by the caller) has room for one more card. */
async function checkWip(tx: Tx, lane: Lane, exceptCardId?: string): Promise<void> {
  if (lane.wipLimit === null) return;
  const count = await liveCardCount(tx, lane.id, exceptCardId);
  if (count >= lane.wipLimit) fail(wipMessage(lane, count));
}

async function lockTarget(tx: Tx, o: Owner, laneId: string): Promise<Lane> {
  const lane = await lockLane(tx, o, laneId);
  if (!lane) fail('that lane was removed meanwhile; look at board:get and try again');
  return lane;
}

export async function createCard(
  sql: Queryable,
  o: Owner,
  board: Board,
  laneId: string,
  f: CardFields,
  now: Date
): Promise<Card> {
  return inTransaction(sql, async (tx) => {
    const lane = await lockTarget(tx, o, laneId);
    await checkWip(tx, lane);
    const [card] = await tx.unsafe<Card[]>(
      `insert into kanban_cards as c (id, tenant_id, owner_agent_id, board_id, lane_id, title,
         description, due_at, priority, labels, source_ref, completed_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $9::int, $10::text[], $11, $12::timestamptz, $13, $13)
       returning ${CARD_COLUMNS}`,
      [
        newId('card'),
        o.tenantId,
        o.agentId,
        board.id,
        lane.id,
        f.title,
        f.description,
        f.dueAt,
        f.priority,
        f.labels,
        f.sourceRef,
        lane.isDone ? now : null,
        now,
      ]
    );
    const created = card!;
    await appendEvent(tx, o, created.id, 'created', { board: board.slug, lane: lane.name }, now);
    if (lane.isDone) await appendEvent(tx, o, created.id, 'completed', { lane: lane.name }, now);
    return created;
  });
}

export interface MoveOutcome {
  card: Card;
  /** False when the card was in the target lane already. */
  moved: boolean;
  from: Lane;
  to: Lane;
  completion: Completion;
}

/**
 * Move a card into `laneId` (a lane of its board): WIP checked under the lane's lock, completed_at
 * set on entering a done lane and cleared on leaving one, events appended.
 */
export async function moveCard(
  sql: Queryable,
  o: Owner,
  cardId: string,
  laneId: string,
  now: Date
): Promise<MoveOutcome> {
  return inTransaction(sql, async (tx) => {
    const to = await lockTarget(tx, o, laneId);
    const card = await lockCard(tx, o, cardId);
    const [from] = await tx.unsafe<Lane[]>(
      `select id, board_id, name, position, is_done, wip_limit from kanban_lanes where id = $1`,
      [card.laneId]
    );
    if (!from)
      throw new InternalError(new Error(`card ${card.id} is in a lane that does not exist`));
    if (to.boardId !== card.boardId) fail('a card moves only between lanes of its own board');
    if (from.id === to.id) return { card, moved: false, from, to, completion: 'unchanged' };
    await checkWip(tx, to, card.id);
    const completion = completionOnMove(from.isDone, to.isDone);
    const [moved] = await tx.unsafe<Card[]>(
      `update kanban_cards c
          set lane_id = $2, updated_at = $3,
              completed_at = case $4 when 'completes' then $3 when 'uncompletes' then null
                                     else completed_at end,
              completed_from_lane_id = case $4 when 'completes' then $5 when 'uncompletes' then null
                                               else completed_from_lane_id end
        where id = $1
        returning ${CARD_COLUMNS}`,
      [card.id, to.id, now, completion, from.id]
    );
    await appendMoveEvents(tx, o, card.id, from, to, completion, now);
    return { card: moved!, moved: true, from, to, completion };
  });
}

export async function appendMoveEvents(
  tx: Queryable,
  o: Owner,
  cardId: string,
  from: Lane,
  to: Lane,
  completion: Completion,
  now: Date,
  extra: Record<string, unknown> = {}
): Promise<void> {
  await appendEvent(tx, o, cardId, 'moved', { from: from.name, to: to.name, ...extra }, now);
  if (completion === 'completes') {
    await appendEvent(tx, o, cardId, 'completed', { lane: to.name }, now);
  } else if (completion === 'uncompletes') {
    await appendEvent(tx, o, cardId, 'uncompleted', { lane: to.name }, now);
  }
}

export type CardPatch = Partial<CardFields>;

/** Apply the fields given; the `updated` event records each changed field's old and new value. */
export async function updateCard(
  sql: Queryable,
  o: Owner,
  cardId: string,
  patch: CardPatch,
  now: Date
): Promise<{ card: Card; changed: string[] }> {
  return inTransaction(sql, async (tx) => {
    const card = await lockCard(tx, o, cardId);
    const next: CardFields = {
      title: patch.title ?? card.title,
      description: patch.description ?? card.description,
      dueAt: patch.dueAt !== undefined ? patch.dueAt : card.dueAt,
      priority: patch.priority !== undefined ? patch.priority : card.priority,
      labels: patch.labels ?? card.labels,
      sourceRef: patch.sourceRef !== undefined ? patch.sourceRef : card.sourceRef,
    };
    const changes = fieldChanges(card, next);
    if (Object.keys(changes).length === 0) return { card, changed: [] };
    const [updated] = await tx.unsafe<Card[]>(
      `update kanban_cards c
          set title = $2, description = $3, due_at = $4::timestamptz, priority = $5::int,
              labels = $6::text[], source_ref = $7, updated_at = $8
        where id = $1
        returning ${CARD_COLUMNS}`,
      [
        card.id,
        next.title,
        next.description,
        next.dueAt,
        next.priority,
        next.labels,
        next.sourceRef,
        now,
      ]
    );
    await appendEvent(tx, o, card.id, 'updated', { changes }, now);
    return { card: updated!, changed: Object.keys(changes) };
  });
}

const SNAKE: Record<keyof CardFields, string> = {
  title: 'title',
  description: 'description',
  dueAt: 'due_at',
  priority: 'priority',
  labels: 'labels',
  sourceRef: 'source_ref',
};

/** Changed fields by their request names, each as {from, to} in JSON form. */
export function fieldChanges(
  before: CardFields,
  after: CardFields
): Record<string, { from: unknown; to: unknown }> {
  const json = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(SNAKE) as Array<keyof CardFields>) {
    const a = json(before[key]);
    const b = json(after[key]);
    if (JSON.stringify(a) !== JSON.stringify(b)) out[SNAKE[key]] = { from: a, to: b };
  }
  return out;
}

export async function deleteCard(
  sql: Queryable,
  o: Owner,
  cardId: string,
  now: Date
): Promise<Card> {
  return inTransaction(sql, async (tx) => {
    const card = await lockCard(tx, o, cardId);
    await tx.unsafe('update kanban_cards set deleted_at = $2, updated_at = $2 where id = $1', [
      card.id,
      now,
    ]);
    await appendEvent(tx, o, card.id, 'deleted', {}, now);
    return card;
  });
}

export interface CardScope {
  boardId?: string;
  laneId?: string;
}

/** Live cards of the owner matching the scope and query, in board order. */
export async function listCards(
  sql: Queryable,
  o: Owner,
  scope: CardScope,
  q: CardQuery
): Promise<ListedCard[]> {
  const params: unknown[] = [o.tenantId, o.agentId];
  const where = ['c.tenant_id = $1', 'c.owner_agent_id = $2', 'c.deleted_at is null'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (scope.boardId !== undefined) add((p) => `c.board_id = ${p}`, scope.boardId);
  if (scope.laneId !== undefined) add((p) => `c.lane_id = ${p}`, scope.laneId);
  if (q.dueBefore) add((p) => `c.due_at < ${p}::timestamptz`, q.dueBefore);
  if (q.overdue) {
    const overdue = (p: string) => `(c.due_at < ${p}::timestamptz and c.completed_at is null)`;
    add((p) => (q.overdue!.is ? overdue(p) : `not coalesce(${overdue(p)}, false)`), q.overdue.now);
  }
  if (q.label !== undefined) {
    add((p) => `exists (select 1 from unnest(c.labels) x where lower(x) = ${p})`, q.label);
  }
  if (q.sourceRef !== undefined) add((p) => `c.source_ref = ${p}`, q.sourceRef);
  if (q.completed !== undefined) {
    where.push(q.completed ? 'c.completed_at is not null' : 'c.completed_at is null');
  }
  params.push(q.limit);
  return sql.unsafe<ListedCard[]>(
    `select ${CARD_COLUMNS}, l.name as lane_name, b.slug as board_slug
       from kanban_cards c
       join kanban_lanes l on l.id = c.lane_id
       join kanban_boards b on b.id = c.board_id
      where ${where.join(' and ')}
      order by b.created_at, b.id, ${CARD_ORDER}
      limit $${params.length}`,
    params as never[]
  );
}
