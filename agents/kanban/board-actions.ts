// Board and lane actions: create, list, look at and render boards; add, change, reorder and remove
// lanes. The owner is always the hub-verified sender (req.tenantId, req.senderId).
import { z } from 'zod';
import { action, fail, type AgentRequest, type Actions } from '../kit/index.js';
import {
  DEFAULT_BOARD,
  addLane,
  createBoard,
  listBoards,
  listLanes,
  requireBoard,
  type NewLane,
} from './boards.store.js';
import { listCards } from './cards.store.js';
import { LIST_LIMIT_MAX } from './filters.js';
import { findLane, isDoneName, laneNames } from './lanes.js';
import { removeLane, reorderLanes, updateLane } from './lanes.store.js';
import type { Owner } from './model.js';
import { Name, Ref, Slug, slugify } from './parse.js';
import {
  boardJson,
  boardListText,
  boardMarkdown,
  boardText,
  cardJson,
  laneHeading,
  laneJson,
} from './render.js';

export const LANE_NAME_MAX = 60;
export const LANES_MAX = 20;

export function ownerOf(req: AgentRequest): Owner {
  return { tenantId: req.tenantId, agentId: req.senderId };
}

const WipLimit = z.number().int().min(1, 'must be at least 1 (or null for no limit)');

const LaneSpec = z.union([
  Name(LANE_NAME_MAX),
  z.object({
    name: Name(LANE_NAME_MAX),
    is_done: z.boolean().optional(),
    wip_limit: WipLimit.nullable().optional(),
  }),
]);

/** A lane as board:create takes it: a name ("Done" is a done lane), or {name, is_done, wip_limit}. */
export function newLane(spec: z.output<typeof LaneSpec>): NewLane {
  if (typeof spec === 'string') return { name: spec, isDone: isDoneName(spec), wipLimit: null };
  return {
    name: spec.name,
    isDone: spec.is_done ?? isDoneName(spec.name),
    wipLimit: spec.wip_limit ?? null,
  };
}

const OnBoard = { board: Ref.optional() };

export const boardActions: Actions = {
  'board:create': action({
    summary:
      'create a board: name, slug? (from the name), lanes? (names or {name, is_done, wip_limit}; default Todo, Doing, Done)',
    input: z.object({
      name: Name(80),
      slug: Slug.optional(),
      lanes: z.array(LaneSpec).min(1).max(LANES_MAX).optional(),
    }),
    async run(input, req, ctx) {
      const slug = input.slug ?? slugify(input.name);
      if (slug === '')
        fail('board:create: `slug` is required when the name has no letters or digits');
      const lanes = input.lanes ? input.lanes.map(newLane) : DEFAULT_BOARD.lanes;
      const board = await createBoard(ctx.sql, ownerOf(req), { name: input.name, slug, lanes });
      const made = await listLanes(ctx.sql, ownerOf(req), board.id);
      return {
        text: `✅ Created board\n${boardText(board, made)}`,
        data: { board: boardJson(board), lanes: made.map((l) => laneJson(l, l.cardCount)) },
      };
    },
  }),

  'board:list': action({
    summary: 'list your boards',
    input: z.object({}),
    async run(_input, req, ctx) {
      const boards = await listBoards(ctx.sql, ownerOf(req));
      return {
        text: boardListText(boards),
        data: { boards: boards.map((b) => ({ ...boardJson(b), card_count: b.cardCount })) },
      };
    },
  }),

  'board:get': action({
    summary: 'a board with its lanes: board? (slug or id; optional with one board or a default)',
    input: z.object(OnBoard),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const board = await requireBoard(ctx.sql, o, input.board);
      const lanes = await listLanes(ctx.sql, o, board.id);
      return {
        text: boardText(board, lanes),
        data: { board: boardJson(board), lanes: lanes.map((l) => laneJson(l, l.cardCount)) },
      };
    },
  }),

  'board:render': action({
    summary: 'the board as markdown, lane by lane with its cards: board?',
    input: z.object(OnBoard),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const board = await requireBoard(ctx.sql, o, input.board);
      const lanes = await listLanes(ctx.sql, o, board.id);
      const cards = await listCards(ctx.sql, o, { boardId: board.id }, { limit: LIST_LIMIT_MAX });
      const now = new Date(ctx.now());
      const markdown = boardMarkdown(board, lanes, cards, now);
      return {
        text: markdown,
        data: {
          board: boardJson(board),
          lanes: lanes.map((l) => ({
            ...laneJson(l, l.cardCount),
            cards: cards.filter((c) => c.laneId === l.id).map((c) => cardJson(c, now)),
          })),
          markdown,
        },
      };
    },
  }),

  'lane:add': action({
    summary: 'add a lane: board?, name, is_done?, wip_limit?, after? (a lane; default at the end)',
    input: z.object({
      ...OnBoard,
      name: Name(LANE_NAME_MAX),
      is_done: z.boolean().optional(),
      wip_limit: WipLimit.nullable().optional(),
      after: Ref.optional(),
    }),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const board = await requireBoard(ctx.sql, o, input.board);
      let afterId: string | undefined;
      if (input.after !== undefined) {
        const lanes = await listLanes(ctx.sql, o, board.id);
        const after = findLane(lanes, input.after);
        if (!after)
          fail(
            `no lane "${input.after}" (after) on board "${board.slug}"; lanes are ${laneNames(lanes)}`
          );
        afterId = after.id;
      }
      const lane = await addLane(ctx.sql, o, board, {
        name: input.name,
        isDone: input.is_done ?? false,
        wipLimit: input.wip_limit ?? null,
        ...(afterId !== undefined ? { afterId } : {}),
      });
      const lanes = await listLanes(ctx.sql, o, board.id);
      return {
        text: `✅ Added lane ${laneHeading(lane, 0)} at position ${lane.position}\n${boardText(board, lanes)}`,
        data: {
          board: boardJson(board),
          lane: laneJson(lane, 0),
          lanes: lanes.map((l) => laneJson(l, l.cardCount)),
        },
      };
    },
  }),

  'lane:update': action({
    summary: 'change a lane: board?, lane (name or id), name?, is_done?, wip_limit? (null = none)',
    input: z.object({
      ...OnBoard,
      lane: Ref,
      name: Name(LANE_NAME_MAX).optional(),
      is_done: z.boolean().optional(),
      wip_limit: WipLimit.nullable().optional(),
    }),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      if (
        input.name === undefined &&
        input.is_done === undefined &&
        input.wip_limit === undefined
      ) {
        fail('lane:update: give at least one of `name`, `is_done`, `wip_limit`');
      }
      const board = await requireBoard(ctx.sql, o, input.board);
      const r = await updateLane(
        ctx.sql,
        o,
        board,
        input.lane,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.is_done !== undefined ? { isDone: input.is_done } : {}),
          ...(input.wip_limit !== undefined ? { wipLimit: input.wip_limit } : {}),
        },
        new Date(ctx.now())
      );
      const lines = [`✅ Updated lane ${laneHeading(r.lane, r.cardCount)}`];
      if (r.affectedCards > 0) {
        lines.push(`• ${r.affectedCards} card(s) ${r.lane.isDone ? 'completed' : 'reopened'}`);
      }
      if (r.lane.wipLimit !== null && r.cardCount > r.lane.wipLimit) {
        lines.push(
          `⚠️ the lane holds more cards than its new limit; no card can enter until it has room`
        );
      }
      return {
        text: lines.join('\n'),
        data: { lane: laneJson(r.lane, r.cardCount), affected_cards: r.affectedCards },
      };
    },
  }),

  'lane:reorder': action({
    summary: 'put the lanes in a new order: board?, lanes (every lane once, by name or id)',
    input: z.object({ ...OnBoard, lanes: z.array(Ref).min(1).max(LANES_MAX) }),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const board = await requireBoard(ctx.sql, o, input.board);
      await reorderLanes(ctx.sql, o, board, input.lanes);
      const lanes = await listLanes(ctx.sql, o, board.id);
      return {
        text: `✅ Reordered\n${boardText(board, lanes)}`,
        data: { board: boardJson(board), lanes: lanes.map((l) => laneJson(l, l.cardCount)) },
      };
    },
  }),

  'lane:remove': action({
    summary:
      'remove a lane: board?, lane, move_to? (a lane for its cards; a lane with cards is not removed without it)',
    input: z.object({ ...OnBoard, lane: Ref, move_to: Ref.optional() }),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const board = await requireBoard(ctx.sql, o, input.board);
      const r = await removeLane(ctx.sql, o, board, input.lane, input.move_to, new Date(ctx.now()));
      const lanes = await listLanes(ctx.sql, o, board.id);
      const moved =
        r.movedTo && r.movedCards > 0 ? `; ${r.movedCards} card(s) moved to ${r.movedTo.name}` : '';
      return {
        text: `🗑️ Removed lane ${r.lane.name}${moved}\n${boardText(board, lanes)}`,
        data: {
          removed: laneJson(r.lane),
          moved_cards: r.movedCards,
          moved_to: r.movedTo ? laneJson(r.movedTo) : null,
          lanes: lanes.map((l) => laneJson(l, l.cardCount)),
        },
      };
    },
  }),
};
