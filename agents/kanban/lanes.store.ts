// Lane changes that reach into cards: renaming, turning a lane into a done lane (or back), WIP
// limits, reordering, and removal (a lane with live cards goes only when they move elsewhere).
import { inTransaction, type Queryable } from '../../infra/db/index.js';
import { fail } from '../kit/index.js';
import { liveCardCount, lockBoardLanes, setPositions } from './boards.store.js';
import { appendEvent, appendMoveEvents } from './cards.store.js';
import { completionOnMove, findLane, laneNames, renumber, reorder } from './lanes.js';
import type { Board, Lane, Owner } from './model.js';

export interface LanePatch {
  name?: string;
  isDone?: boolean;
  /** null removes the limit. */
  wipLimit?: number | null;
}

export interface LaneUpdate {
  lane: Lane;
  /** Cards completed or reopened because the lane's is_done changed. */
  affectedCards: number;
  cardCount: number;
}

export async function updateLane(
  sql: Queryable,
  o: Owner,
  board: Board,
  ref: string,
  patch: LanePatch,
  now: Date
): Promise<LaneUpdate> {
  return inTransaction(sql, async (tx) => {
    const lanes = await lockBoardLanes(tx, o, board.id);
    const lane = findLane(lanes, ref);
    if (!lane) fail(`no lane "${ref}" on board "${board.slug}"; lanes are ${laneNames(lanes)}`);
    const name = patch.name ?? lane.name;
    const clash = lanes.find(
      (l) => l.id !== lane.id && l.name.toLowerCase() === name.toLowerCase()
    );
    if (clash) fail(`board "${board.slug}" already has a lane "${clash.name}"`);
    const isDone = patch.isDone ?? lane.isDone;
    const wipLimit = patch.wipLimit !== undefined ? patch.wipLimit : lane.wipLimit;
    const [updated] = await tx.unsafe<Lane[]>(
      `update kanban_lanes set name = $2, is_done = $3, wip_limit = $4::int where id = $1
       returning id, board_id, name, position, is_done, wip_limit`,
      [lane.id, name, isDone, wipLimit]
    );
    // Cards sit in a done lane exactly while completed: flipping the flag flips them all.
    let affected: Array<{ id: string }> = [];
    if (isDone !== lane.isDone) {
      affected = await tx.unsafe<Array<{ id: string }>>(
        isDone
          ? `update kanban_cards set completed_at = $2, completed_from_lane_id = null, updated_at = $2
              where lane_id = $1 and deleted_at is null and completed_at is null returning id`
          : `update kanban_cards set completed_at = null, completed_from_lane_id = null, updated_at = $2
              where lane_id = $1 and deleted_at is null and completed_at is not null returning id`,
        [lane.id, now]
      );
      for (const c of affected) {
        await appendEvent(
          tx,
          o,
          c.id,
          isDone ? 'completed' : 'uncompleted',
          { lane: name, reason: isDone ? 'lane marked done' : 'lane no longer done' },
          now
        );
      }
    }
    return {
      lane: updated!,
      affectedCards: affected.length,
      cardCount: await liveCardCount(tx, lane.id),
    };
  });
}

export async function reorderLanes(
  sql: Queryable,
  o: Owner,
  board: Board,
  refs: readonly string[]
): Promise<void> {
  await inTransaction(sql, async (tx) => {
    const lanes = await lockBoardLanes(tx, o, board.id);
    const r = reorder(lanes, refs);
    if (!r.ok) fail(`lane:reorder: ${r.problem}`);
    await setPositions(tx, renumber(r.ids));
  });
}

export interface LaneRemoval {
  lane: Lane;
  movedCards: number;
  movedTo?: Lane;
}

/**
 * Soft-delete a lane. Its live cards, if any, must go to `moveTo` (same board, WIP respected for
 * all of them at once); without it the removal is refused. The remaining lanes are renumbered.
 */
export async function removeLane(
  sql: Queryable,
  o: Owner,
  board: Board,
  ref: string,
  moveTo: string | undefined,
  now: Date
): Promise<LaneRemoval> {
  return inTransaction(sql, async (tx) => {
    const lanes = await lockBoardLanes(tx, o, board.id);
    const lane = findLane(lanes, ref);
    if (!lane) fail(`no lane "${ref}" on board "${board.slug}"; lanes are ${laneNames(lanes)}`);
    if (lanes.length === 1)
      fail(
        `lane "${lane.name}" is the last lane of board "${board.slug}"; a board keeps at least one lane`
      );
    const count = await liveCardCount(tx, lane.id);
    let target: Lane | undefined;
    if (moveTo !== undefined) {
      target = findLane(lanes, moveTo);
      if (!target)
        fail(
          `no lane "${moveTo}" (move_to) on board "${board.slug}"; lanes are ${laneNames(lanes)}`
        );
      if (target.id === lane.id) fail('`move_to` must name another lane than the one removed');
    }
    if (count > 0 && !target) {
      fail(
        `lane "${lane.name}" still has ${count} card${count === 1 ? '' : 's'}; ` +
          'move them first, or add "move_to" with the lane that takes them'
      );
    }
    if (count > 0 && target) {
      if (target.wipLimit !== null) {
        const there = await liveCardCount(tx, target.id);
        if (there + count > target.wipLimit) {
          fail(
            `lane "${target.name}" has a WIP limit of ${target.wipLimit} and ${there} card(s); ` +
              `it cannot take the ${count} card(s) of "${lane.name}"`
          );
        }
      }
      const completion = completionOnMove(lane.isDone, target.isDone);
      const moved = await tx.unsafe<Array<{ id: string }>>(
        `update kanban_cards
            set lane_id = $2, updated_at = $3,
                completed_at = case $4 when 'completes' then $3 when 'uncompletes' then null
                                       else completed_at end,
                completed_from_lane_id = case $4 when 'completes' then $1 when 'uncompletes' then null
                                                 else completed_from_lane_id end
          where lane_id = $1 and deleted_at is null
          returning id`,
        [lane.id, target.id, now, completion]
      );
      for (const c of moved) {
        await appendMoveEvents(tx, o, c.id, lane, target, completion, now, {
          reason: 'lane removed',
        });
      }
    }
    await tx.unsafe('update kanban_lanes set deleted_at = $2 where id = $1', [lane.id, now]);
    await setPositions(tx, renumber(lanes.filter((l) => l.id !== lane.id).map((l) => l.id)));
    return { lane, movedCards: count, ...(target ? { movedTo: target } : {}) };
  });
}
