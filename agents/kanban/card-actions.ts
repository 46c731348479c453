// Card actions: create (on the default board when the caller has none), change, move, complete
// and reopen, list with filters, look at with history, delete (soft).
import { InternalError } from '../../runtime/errors/index.js';
import { z } from 'zod';
import { action, fail, type Actions, type AgentContext } from '../kit/index.js';
import { ownerOf } from './board-actions.js';
import {
  ensureDefaultBoard,
  findBoard,
  listLanes,
  requireBoard,
  requireLane,
  resolveBoard,
} from './boards.store.js';
import {
  cardEvents,
  createCard,
  deleteCard,
  listCards,
  moveCard,
  requireCard,
  updateCard,
  type CardPatch,
  type MoveOutcome,
} from './cards.store.js';
import { CardFilterInput, cardQuery, describeQuery } from './filters.js';
import { defaultLane, findLane, firstDoneLane, laneNames, uncompleteLane } from './lanes.js';
import type { Board, Card, ListedCard, Owner } from './model.js';
import { Instant, Labels, Name, Priority, Ref } from './parse.js';
import {
  boardJson,
  cardDetailText,
  cardJson,
  cardListText,
  cardSummary,
  eventJson,
  laneJson,
} from './render.js';

const Title = Name(200);
const Description = z.string().trim().max(10_000);
const SourceRef = z.string().trim().min(1, 'must not be empty').max(200);
const OneCard = z.object({ card: Ref });

const nowOf = (ctx: AgentContext) => new Date(ctx.now());

async function boardOf(ctx: AgentContext, o: Owner, card: Card): Promise<Board> {
  const board = await findBoard(ctx.sql, o, card.boardId);
  if (!board)
    throw new InternalError(new Error(`card ${card.id} is on a board that does not exist`));
  return board;
}

function moveReply(r: MoveOutcome, board: Board, verb: string, now: Date) {
  const head = r.moved
    ? `${verb} ${r.from.name} → ${r.to.name}`
    : `already in ${r.to.name}; nothing moved`;
  return {
    text: `${head}\n• ${cardSummary(r.card, now)}\n📋 ${board.name} (${board.slug}) / ${r.to.name}`,
    data: {
      card: cardJson(r.card, now),
      moved: r.moved,
      from: laneJson(r.from),
      to: laneJson(r.to),
    },
  };
}

function listedJson(c: ListedCard, now: Date) {
  return { ...cardJson(c, now), lane: c.laneName, board: c.boardSlug };
}

export const cardActions: Actions = {
  'card:create': action({
    summary:
      'create a card: board? (default board made on your first card), lane? (first open lane), title, description?, due_at? (ISO 8601), priority? (0–5, 0 most urgent), labels?, source_ref?',
    input: z.object({
      board: Ref.optional(),
      lane: Ref.optional(),
      title: Title,
      description: Description.optional(),
      due_at: Instant.optional(),
      priority: Priority.optional(),
      labels: Labels.optional(),
      source_ref: SourceRef.optional(),
    }),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const board =
        (await resolveBoard(ctx.sql, o, input.board)) ?? (await ensureDefaultBoard(ctx.sql, o));
      const lanes = await listLanes(ctx.sql, o, board.id);
      const lane = input.lane !== undefined ? findLane(lanes, input.lane) : defaultLane(lanes);
      if (!lane) {
        fail(
          input.lane !== undefined
            ? `no lane "${input.lane}" on board "${board.slug}"; lanes are ${laneNames(lanes)}`
            : `board "${board.slug}" has no lanes; add one with lane:add`
        );
      }
      const now = nowOf(ctx);
      const card = await createCard(
        ctx.sql,
        o,
        board,
        lane.id,
        {
          title: input.title,
          description: input.description ?? '',
          dueAt: input.due_at ?? null,
          priority: input.priority ?? null,
          labels: input.labels ?? [],
          sourceRef: input.source_ref ?? null,
        },
        now
      );
      return {
        text: `✅ Created card in ${board.name} (${board.slug}) / ${lane.name}\n• ${cardSummary(card, now)}`,
        data: { card: cardJson(card, now), board: boardJson(board), lane: laneJson(lane) },
      };
    },
  }),

  'card:update': action({
    summary:
      'change a card: card (id), then any of title, description, due_at, priority, labels, source_ref (null clears due_at, priority, source_ref)',
    input: z.object({
      card: Ref,
      title: Title.optional(),
      description: Description.optional(),
      due_at: Instant.nullable().optional(),
      priority: Priority.nullable().optional(),
      labels: Labels.optional(),
      source_ref: SourceRef.nullable().optional(),
    }),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const patch: CardPatch = {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.due_at !== undefined ? { dueAt: input.due_at } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        ...(input.labels !== undefined ? { labels: input.labels } : {}),
        ...(input.source_ref !== undefined ? { sourceRef: input.source_ref } : {}),
      };
      if (Object.keys(patch).length === 0) {
        fail(
          'card:update: give at least one of `title`, `description`, `due_at`, `priority`, `labels`, `source_ref`'
        );
      }
      const existing = await requireCard(ctx.sql, o, input.card);
      const now = nowOf(ctx);
      const r = await updateCard(ctx.sql, o, existing.id, patch, now);
      const head =
        r.changed.length > 0 ? `✏️ Updated ${r.changed.join(', ')}` : '✏️ Nothing changed';
      return {
        text: `${head}\n• ${cardSummary(r.card, now)}`,
        data: { card: cardJson(r.card, now), changed: r.changed },
      };
    },
  }),

  'card:move': action({
    summary: 'move a card to another lane of its board: card, lane (name or id); WIP limits apply',
    input: z.object({ card: Ref, lane: Ref }),
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const card = await requireCard(ctx.sql, o, input.card);
      const board = await boardOf(ctx, o, card);
      const lane = await requireLane(ctx.sql, o, board, input.lane);
      const now = nowOf(ctx);
      const r = await moveCard(ctx.sql, o, card.id, lane.id, now);
      const verb = r.completion === 'completes' ? '✅ Moved (completed)' : '➡️ Moved';
      return moveReply(r, board, verb, now);
    },
  }),

  'card:complete': action({
    summary: "move a card to its board's first done lane: card",
    input: OneCard,
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const card = await requireCard(ctx.sql, o, input.card);
      const board = await boardOf(ctx, o, card);
      const lanes = await listLanes(ctx.sql, o, board.id);
      const now = nowOf(ctx);
      const current = lanes.find((l) => l.id === card.laneId);
      if (current?.isDone) {
        return moveReply(
          { card, moved: false, from: current, to: current, completion: 'unchanged' },
          board,
          '✅',
          now
        );
      }
      const done = firstDoneLane(lanes);
      if (!done) {
        fail(`board "${board.slug}" has no done lane; add one with lane:add and "is_done": true`);
      }
      return moveReply(
        await moveCard(ctx.sql, o, card.id, done.id, now),
        board,
        '✅ Completed',
        now
      );
    },
  }),

  'card:uncomplete': action({
    summary:
      'reopen a completed card: back to the lane it came from, else the first open lane: card',
    input: OneCard,
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const card = await requireCard(ctx.sql, o, input.card);
      const board = await boardOf(ctx, o, card);
      const lanes = await listLanes(ctx.sql, o, board.id);
      const now = nowOf(ctx);
      const current = lanes.find((l) => l.id === card.laneId);
      if (current && !current.isDone) {
        return moveReply(
          { card, moved: false, from: current, to: current, completion: 'unchanged' },
          board,
          '↩️',
          now
        );
      }
      const back = uncompleteLane(lanes, card.completedFromLaneId);
      if (!back) fail(`board "${board.slug}" has no lane that is not done to reopen the card in`);
      return moveReply(
        await moveCard(ctx.sql, o, card.id, back.id, now),
        board,
        '↩️ Reopened',
        now
      );
    },
  }),

  'card:list': action({
    summary:
      'list cards: board? (all boards when omitted), lane?, overdue?, due_before?, label?, source_ref?, completed?, limit? (100, at most 500)',
    input: CardFilterInput,
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const now = nowOf(ctx);
      let board: Board | undefined;
      let laneId: string | undefined;
      if (input.board !== undefined || input.lane !== undefined) {
        board = await requireBoard(ctx.sql, o, input.board);
        if (input.lane !== undefined)
          laneId = (await requireLane(ctx.sql, o, board, input.lane)).id;
      }
      const cards = await listCards(
        ctx.sql,
        o,
        { ...(board ? { boardId: board.id } : {}), ...(laneId ? { laneId } : {}) },
        cardQuery(input, now)
      );
      const scope = [
        board ? `board ${board.slug}` : '',
        describeQuery({ ...input, board: undefined }),
      ]
        .filter(Boolean)
        .join(', ');
      return {
        text: cardListText(cards, scope, now),
        data: { cards: cards.map((c) => listedJson(c, now)) },
      };
    },
  }),

  'card:get': action({
    summary: 'a card with its event history: card',
    input: OneCard,
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const card = await requireCard(ctx.sql, o, input.card);
      const board = await boardOf(ctx, o, card);
      const lanes = await listLanes(ctx.sql, o, board.id);
      const lane = lanes.find((l) => l.id === card.laneId);
      if (!lane)
        throw new InternalError(new Error(`card ${card.id} is in a lane that is not on its board`));
      const events = await cardEvents(ctx.sql, o, card.id);
      const now = nowOf(ctx);
      return {
        text: cardDetailText(card, board, lane, events, now),
        data: {
          card: { ...cardJson(card, now), lane: lane.name, board: board.slug },
          events: events.map(eventJson),
        },
      };
    },
  }),

  'card:delete': action({
    summary: 'delete a card (soft: gone from lists, kept with its history): card',
    input: OneCard,
    async run(input, req, ctx) {
      const o = ownerOf(req);
      const existing = await requireCard(ctx.sql, o, input.card);
      const now = nowOf(ctx);
      const card = await deleteCard(ctx.sql, o, existing.id, now);
      return {
        text: `🗑️ Deleted card ${card.title} · ${card.id}`,
        data: { deleted: card.id },
      };
    },
  }),
};
