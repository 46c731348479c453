// Boards and lanes in PostgreSQL (migration 0010_kanban.sql). Every statement is scoped to the
// owner (tenant + agent from the verified envelope); a board of another owner is simply not found.
import { InternalError } from '../../runtime/errors/index.js';
import postgres from 'postgres';
import { inTransaction, type Queryable } from '../../infra/db/index.js';
import { fail } from '../kit/index.js';
import { byPosition, findLane, laneNames, orderWithInsert, renumber } from './lanes.js';
import type { Board, Lane, LaneWithCount, Owner } from './model.js';
import { newId } from './parse.js';

export type Tx = postgres.TransactionSql;

export interface NewLane {
  name: string;
  isDone: boolean;
  wipLimit: number | null;
}

export const DEFAULT_BOARD = {
  name: 'Default',
  slug: 'default',
  lanes: [
    { name: 'Todo', isDone: false, wipLimit: null },
    { name: 'Doing', isDone: false, wipLimit: null },
    { name: 'Done', isDone: true, wipLimit: null },
  ] satisfies NewLane[],
} as const;

const BOARD_COLUMNS = 'b.id, b.name, b.slug, b.created_at';
const LANE_COLUMNS = 'l.id, l.board_id, l.name, l.position, l.is_done, l.wip_limit';

export async function listBoards(
  sql: Queryable,
  o: Owner
): Promise<Array<Board & { cardCount: number }>> {
  return sql.unsafe<Array<Board & { cardCount: number }>>(
    `select ${BOARD_COLUMNS},
            (select count(*)::int from kanban_cards c
              where c.board_id = b.id and c.deleted_at is null) as card_count
       from kanban_boards b
      where b.tenant_id = $1 and b.owner_agent_id = $2 and b.deleted_at is null
      order by b.created_at, b.id`,
    [o.tenantId, o.agentId]
  );
}

/** A board by id or slug. */
export async function findBoard(sql: Queryable, o: Owner, ref: string): Promise<Board | undefined> {
  const [board] = await sql.unsafe<Board[]>(
    `select ${BOARD_COLUMNS} from kanban_boards b
      where b.tenant_id = $1 and b.owner_agent_id = $2 and b.deleted_at is null
        and (b.id = $3 or b.slug = lower($3))`,
    [o.tenantId, o.agentId, ref.trim()]
  );
  return board;
}

/**
 * The board a request means: the one it names; else the `default` board, or the owner's only
 * board; else none yet (undefined). Fails for an unknown name or an ambiguous omission.
 */
export async function resolveBoard(
  sql: Queryable,
  o: Owner,
  ref: string | undefined
): Promise<Board | undefined> {
  if (ref !== undefined) {
    const board = await findBoard(sql, o, ref);
    if (board) return board;
    const all = await listBoards(sql, o);
    fail(
      all.length === 0
        ? `no board "${ref}": you have no boards yet; create one with board:create`
        : `no board "${ref}"; your boards are ${all.map((b) => `"${b.slug}"`).join(', ')}`
    );
  }
  const all = await listBoards(sql, o);
  const chosen =
    all.find((b) => b.slug === DEFAULT_BOARD.slug) ?? (all.length === 1 ? all[0] : undefined);
  if (chosen || all.length === 0) return chosen;
  fail(`say which board: add "board" with one of ${all.map((b) => `"${b.slug}"`).join(', ')}`);
}

/** resolveBoard, failing when the owner has no board at all. */
export async function requireBoard(
  sql: Queryable,
  o: Owner,
  ref: string | undefined
): Promise<Board> {
  const board = await resolveBoard(sql, o, ref);
  if (!board) fail('you have no boards yet; create one with board:create, or add a card');
  return board;
}

export async function createBoard(
  sql: Queryable,
  o: Owner,
  b: { name: string; slug: string; lanes: readonly NewLane[] }
): Promise<Board> {
  const seen = new Set<string>();
  for (const l of b.lanes) {
    const key = l.name.toLowerCase();
    if (seen.has(key)) fail(`board:create: \`lanes\` names "${l.name}" twice`);
    seen.add(key);
  }
  try {
    return await inTransaction(sql, async (tx) => {
      const [board] = await tx.unsafe<Board[]>(
        `insert into kanban_boards as b (id, tenant_id, owner_agent_id, name, slug)
         values ($1, $2, $3, $4, $5) returning ${BOARD_COLUMNS}`,
        [newId('board'), o.tenantId, o.agentId, b.name, b.slug]
      );
      await insertLanes(tx, o, board!.id, b.lanes);
      return board!;
    });
  } catch (err) {
    if (err instanceof postgres.PostgresError && err.constraint_name === 'kanban_boards_slug_key') {
      fail(`a board with slug "${b.slug}" exists already; pick another \`slug\``);
    }
    throw err;
  }
}

/**
 * The owner's default board, created with its lanes if missing. Two first cards at once both
 * land here: the unique slug index lets one insert win and the other read the winner's board.
 */
export async function ensureDefaultBoard(sql: Queryable, o: Owner): Promise<Board> {
  await inTransaction(sql, async (tx) => {
    const [board] = await tx.unsafe<Board[]>(
      `insert into kanban_boards as b (id, tenant_id, owner_agent_id, name, slug)
       values ($1, $2, $3, $4, $5)
       on conflict (tenant_id, owner_agent_id, slug) where deleted_at is null do nothing
       returning ${BOARD_COLUMNS}`,
      [newId('board'), o.tenantId, o.agentId, DEFAULT_BOARD.name, DEFAULT_BOARD.slug]
    );
    if (board) await insertLanes(tx, o, board.id, DEFAULT_BOARD.lanes);
  });
  const board = await findBoard(sql, o, DEFAULT_BOARD.slug);
  if (!board) throw new InternalError(new Error('the default board vanished after its creation'));
  return board;
}

async function insertLanes(
  tx: Queryable,
  o: Owner,
  boardId: string,
  lanes: readonly NewLane[]
): Promise<void> {
  const ids = lanes.map(() => newId('lane'));
  const positions = renumber(ids);
  for (const [i, lane] of lanes.entries()) {
    await tx.unsafe(
      `insert into kanban_lanes (id, tenant_id, owner_agent_id, board_id, name, position, is_done, wip_limit)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        ids[i]!,
        o.tenantId,
        o.agentId,
        boardId,
        lane.name,
        positions[i]!.position,
        lane.isDone,
        lane.wipLimit,
      ]
    );
  }
}

/** The board's live lanes in order, with their live card counts. */
export async function listLanes(
  sql: Queryable,
  o: Owner,
  boardId: string
): Promise<LaneWithCount[]> {
  return sql.unsafe<LaneWithCount[]>(
    `select ${LANE_COLUMNS},
            (select count(*)::int from kanban_cards c
              where c.lane_id = l.id and c.deleted_at is null) as card_count
       from kanban_lanes l
      where l.tenant_id = $1 and l.owner_agent_id = $2 and l.board_id = $3 and l.deleted_at is null
      order by l.position, l.id`,
    [o.tenantId, o.agentId, boardId]
  );
}

/** A lane of the board by id or name, failing with the board's lane names when there is none. */
export async function requireLane(
  sql: Queryable,
  o: Owner,
  board: Board,
  ref: string
): Promise<LaneWithCount> {
  const lanes = await listLanes(sql, o, board.id);
  const lane = findLane(lanes, ref);
  if (!lane) fail(`no lane "${ref}" on board "${board.slug}"; lanes are ${laneNames(lanes)}`);
  return lane;
}

/**
 * Lock a live lane row for the rest of the transaction: whoever puts cards into a lane holds its
 * lock while counting, so WIP limits hold under concurrency.
 */
export async function lockLane(tx: Tx, o: Owner, laneId: string): Promise<Lane | undefined> {
  const [lane] = await tx.unsafe<Lane[]>(
    `select ${LANE_COLUMNS} from kanban_lanes l
      where l.id = $3 and l.tenant_id = $1 and l.owner_agent_id = $2 and l.deleted_at is null
      for update`,
    [o.tenantId, o.agentId, laneId]
  );
  return lane;
}

export async function liveCardCount(
  tx: Queryable,
  laneId: string,
  exceptCardId = ''
): Promise<number> {
  const [row] = await tx.unsafe<Array<{ n: number }>>(
    `select count(*)::int as n from kanban_cards
      where lane_id = $1 and deleted_at is null and id <> $2`,
    [laneId, exceptCardId]
  );
  return row?.n ?? 0;
}

export async function addLane(
  sql: Queryable,
  o: Owner,
  board: Board,
  lane: NewLane & { afterId?: string }
): Promise<Lane> {
  try {
    return await inTransaction(sql, async (tx) => {
      const lanes = await lockBoardLanes(tx, o, board.id);
      const id = newId('lane');
      const order = renumber(orderWithInsert(lanes, id, lane.afterId));
      await setPositions(
        tx,
        order.filter((p) => p.id !== id)
      );
      const position = order.find((p) => p.id === id)!.position;
      const [created] = await tx.unsafe<Lane[]>(
        `insert into kanban_lanes as l (id, tenant_id, owner_agent_id, board_id, name, position, is_done, wip_limit)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${LANE_COLUMNS}`,
        [id, o.tenantId, o.agentId, board.id, lane.name, position, lane.isDone, lane.wipLimit]
      );
      return created!;
    });
  } catch (err) {
    if (err instanceof postgres.PostgresError && err.constraint_name === 'kanban_lanes_name_key') {
      fail(`board "${board.slug}" already has a lane "${lane.name}"`);
    }
    throw err;
  }
}

/**
 * The board's live lanes, locked in id order (so two lockers cannot deadlock) and
 * returned in board order: lane adds, updates, reorders and removals of one board take turns.
 */
export async function lockBoardLanes(tx: Tx, o: Owner, boardId: string): Promise<Lane[]> {
  const lanes = await tx.unsafe<Lane[]>(
    `select ${LANE_COLUMNS} from kanban_lanes l
      where l.tenant_id = $1 and l.owner_agent_id = $2 and l.board_id = $3 and l.deleted_at is null
      order by l.id
      for update`,
    [o.tenantId, o.agentId, boardId]
  );
  return byPosition(lanes);
}

export async function setPositions(
  tx: Queryable,
  positions: ReadonlyArray<{ id: string; position: number }>
): Promise<void> {
  for (const p of positions) {
    await tx.unsafe('update kanban_lanes set position = $2 where id = $1', [p.id, p.position]);
  }
}
