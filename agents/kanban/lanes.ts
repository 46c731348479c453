// Lane order and lookup, without the database: positions in steps of 10, new orders after an add,
// a reorder or a removal, and which lane a card enters by default, on completion or on undo.
import type { Lane } from './model.js';

export const POSITION_STEP = 10;

/** Lanes in board order. */
export function byPosition<L extends Pick<Lane, 'position'>>(lanes: readonly L[]): L[] {
  return [...lanes].sort((a, b) => a.position - b.position);
}

/** 10, 20, 30 … for `ids` in the given order. */
export function renumber(ids: readonly string[]): Array<{ id: string; position: number }> {
  return ids.map((id, i) => ({ id, position: (i + 1) * POSITION_STEP }));
}

/** A lane by id, or by name without regard to case. */
export function findLane<L extends Pick<Lane, 'id' | 'name'>>(
  lanes: readonly L[],
  ref: string
): L | undefined {
  const key = ref.trim().toLowerCase();
  return lanes.find((l) => l.id === ref.trim()) ?? lanes.find((l) => l.name.toLowerCase() === key);
}

/** Lane names for a message: "Todo", "Doing", "Done". */
export function laneNames(lanes: readonly Pick<Lane, 'name' | 'position'>[]): string {
  return byPosition(lanes)
    .map((l) => `"${l.name}"`)
    .join(', ');
}

/** The board order with `newId` placed after `afterId`, or at the end when there is none. */
export function orderWithInsert(
  lanes: readonly Pick<Lane, 'id' | 'position'>[],
  newId: string,
  afterId?: string
): string[] {
  const ids = byPosition(lanes).map((l) => l.id);
  const at = afterId === undefined ? ids.length : ids.indexOf(afterId) + 1;
  if (at === 0) throw new RangeError(`lane ${String(afterId)} is not on the board`);
  ids.splice(at, 0, newId);
  return ids;
}

export type ReorderResult = { ok: true; ids: string[] } | { ok: false; problem: string };

/**
 * The new order when a caller lists lanes by name or id: every lane of the board exactly once.
 * The problem, when there is one, is worded for the caller.
 */
export function reorder<L extends Pick<Lane, 'id' | 'name' | 'position'>>(
  lanes: readonly L[],
  refs: readonly string[]
): ReorderResult {
  const ids: string[] = [];
  for (const ref of refs) {
    const lane = findLane(lanes, ref);
    if (!lane) return { ok: false, problem: `no lane "${ref}"; lanes are ${laneNames(lanes)}` };
    if (ids.includes(lane.id)) return { ok: false, problem: `lane "${lane.name}" is listed twice` };
    ids.push(lane.id);
  }
  const missing = byPosition(lanes).filter((l) => !ids.includes(l.id));
  if (missing.length > 0) {
    return {
      ok: false,
      problem: `list every lane once; missing ${missing.map((l) => `"${l.name}"`).join(', ')}`,
    };
  }
  return { ok: true, ids };
}

/** Where a new card goes when no lane is named: the first lane that is not done, else the first. */
export function defaultLane<L extends Pick<Lane, 'isDone' | 'position'>>(
  lanes: readonly L[]
): L | undefined {
  const ordered = byPosition(lanes);
  return ordered.find((l) => !l.isDone) ?? ordered[0];
}

export function firstDoneLane<L extends Pick<Lane, 'isDone' | 'position'>>(
  lanes: readonly L[]
): L | undefined {
  return byPosition(lanes).find((l) => l.isDone);
}

/**
 * Where card:uncomplete sends a card: the lane it came from while that lane is still on the board
 * and not done, else the first lane that is not done.
 */
export function uncompleteLane<L extends Pick<Lane, 'id' | 'isDone' | 'position'>>(
  lanes: readonly L[],
  cameFrom: string | null
): L | undefined {
  const back = lanes.find((l) => l.id === cameFrom && !l.isDone);
  return back ?? byPosition(lanes).find((l) => !l.isDone);
}

/** Lanes given by name only: a lane called "Done" (any case) is a done lane. */
export function isDoneName(name: string): boolean {
  return name.trim().toLowerCase() === 'done';
}

/** The completion change a move brings, given whether the lanes left and entered are done. */
export type Completion = 'completes' | 'uncompletes' | 'unchanged';

export function completionOnMove(fromDone: boolean, toDone: boolean): Completion {
  if (!fromDone && toDone) return 'completes';
  if (fromDone && !toDone) return 'uncompletes';
  return 'unchanged';
}

/** The WIP refusal, naming the lane and its limit. */
export function wipMessage(lane: Pick<Lane, 'name' | 'wipLimit'>, count: number): string {
  return (
    `lane "${lane.name}" is at its WIP limit of ${String(lane.wipLimit)} ` +
    `(${count} card${count === 1 ? '' : 's'} in it); move or complete a card there first`
  );
}
