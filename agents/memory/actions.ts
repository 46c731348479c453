// The memory agent's four actions (store, recall, forget, list) with their inputs. Plain-language
// requests are parsed into the same payloads (parse.ts), so these schemas check both forms.
import { z } from 'zod';
import type { Embedder } from '../../infra/embed/index.js';
import { action, fail, type Actions, type AgentContext, type AgentRequest } from '../kit/index.js';
import {
  memoryData,
  renderForgotten,
  renderList,
  renderRecall,
  renderStored,
  scoredData,
} from './render.js';
import {
  MEMORY_ID,
  deleteById,
  deleteMatching,
  insertMemory,
  listMemories,
  reembedStale,
  searchMemories,
  type Owner,
} from './store.js';

/** 8 KiB of UTF-8: room for a paragraph or two; longer texts belong in a document store. */
export const MAX_CONTENT_BYTES = 8192;
const MAX_QUERY_CHARS = 2000;
const MAX_TAGS = 20;
const MAX_TAG_CHARS = 40;

/**
 * Similarity floors, measured with the local embedder (local-hash-v1): see README "Scores".
 * Recall shows what shares at least a word stem or a topic with the query; forget deletes only
 * what is clearly about the query, since a deletion cannot be undone.
 */
export const MIN_RECALL_SCORE = 0.25;
export const MIN_FORGET_SCORE = 0.4;

export const RECALL_LIMIT = { default: 5, max: 50 } as const;
export const LIST_LIMIT = { default: 10, max: 100 } as const;

const wholeNumber = (what: string, min: number, max: number) =>
  z
    .number({ error: `must be a whole number from ${min} to ${max} (${what})` })
    .int({ error: `must be a whole number from ${min} to ${max} (${what})` })
    .min(min, { error: `must be at least ${min} (${what})` })
    .max(max, { error: `must be at most ${max} (${what})` });

const Query = z
  .string({ error: 'must be text: what to look for' })
  .trim()
  .min(1, { error: 'cannot be empty; say what to look for' })
  .max(MAX_QUERY_CHARS, { error: `is too long; at most ${MAX_QUERY_CHARS} characters` });

export const StoreInput = z.object({
  content: z
    .string({ error: 'must be text: what to remember' })
    .trim()
    .min(1, { error: 'cannot be empty; say what to remember, e.g. "Remember this: …"' }),
  tags: z
    .array(
      z
        .string({ error: 'must be text' })
        .trim()
        .min(1, { error: 'cannot be empty' })
        .max(MAX_TAG_CHARS, { error: `must be at most ${MAX_TAG_CHARS} characters` }),
      { error: 'must be a list of words, e.g. ["work", "travel"]' }
    )
    .max(MAX_TAGS, { error: `must be at most ${MAX_TAGS} tags` })
    .optional(),
});

export const RecallInput = z.object({
  query: Query,
  limit: wholeNumber('how many matches to show', 1, RECALL_LIMIT.max).optional(),
});

export const ForgetInput = z
  .object({
    query: Query.optional(),
    id: z.string({ error: 'must be text: a memory id such as mem_…' }).trim().optional(),
  })
  .refine((f) => (f.query === undefined) !== (f.id === undefined), {
    error: 'give either `query` (forget what matches it) or `id` (forget that one memory)',
  });

export const ListInput = z.object({
  limit: wholeNumber('memories per page', 1, LIST_LIMIT.max).optional(),
  offset: wholeNumber('memories to skip', 0, 1_000_000).optional(),
});

function owner(req: AgentRequest): Owner {
  return { tenantId: req.tenantId, agentId: req.senderId };
}

/** One vector for `text`; a text with no searchable words is the caller's mistake to fix. */
async function embedQuery(
  embedder: Embedder,
  text: string,
  field: string,
  signal: AbortSignal
): Promise<Float32Array> {
  const [v] = await embedder.embed([text], signal);
  if (!v || !v.some((x) => x !== 0)) {
    fail(`\`${field}\` has no words to match by ("${text}"); use a few keywords`);
  }
  return v;
}

async function store(input: z.output<typeof StoreInput>, req: AgentRequest, ctx: AgentContext) {
  const bytes = Buffer.byteLength(input.content, 'utf8');
  if (bytes > MAX_CONTENT_BYTES) {
    fail(
      `store: \`content\` is ${bytes} bytes; the limit is ${MAX_CONTENT_BYTES} bytes (8 KiB). ` +
        'Shorten it or split it into several memories.'
    );
  }
  const tags = [...new Set((input.tags ?? []).map((t) => t.toLowerCase()))];
  const [vector] = await ctx.embedder.embed([input.content], ctx.signal);
  const { memory, duplicate } = await insertMemory(ctx.sql, owner(req), {
    content: input.content,
    tags,
    embedderId: ctx.embedder.id,
    vector: vector!,
    at: new Date(ctx.now()),
  });
  return {
    text: renderStored(memory, duplicate),
    data: { memory: memoryData(memory), duplicate },
  };
}

async function recall(input: z.output<typeof RecallInput>, req: AgentRequest, ctx: AgentContext) {
  const who = owner(req);
  const vector = await embedQuery(ctx.embedder, input.query, 'query', ctx.signal);
  await reembedStale(ctx.sql, who, ctx.embedder, ctx.signal);
  const results = await searchMemories(ctx.sql, who, {
    embedderId: ctx.embedder.id,
    vector,
    minScore: MIN_RECALL_SCORE,
    limit: input.limit ?? RECALL_LIMIT.default,
  });
  return {
    text: renderRecall(input.query, results),
    data: { query: input.query, minScore: MIN_RECALL_SCORE, results: results.map(scoredData) },
  };
}

async function forget(input: z.output<typeof ForgetInput>, req: AgentRequest, ctx: AgentContext) {
  const who = owner(req);
  if (input.id !== undefined) {
    if (!MEMORY_ID.test(input.id)) {
      fail(
        `forget: \`id\` "${input.id}" is not a memory id; ids look like mem_ and 24 hex digits, ` +
          'as recall and list show them'
      );
    }
    const gone = await deleteById(ctx.sql, who, input.id);
    if (!gone) {
      fail(
        `forget: you have no memory ${input.id} (it may be forgotten already); ` +
          'list your memories to see their ids'
      );
    }
    return {
      text: renderForgotten([gone]),
      data: { forgotten: [memoryData(gone)] },
    };
  }
  const query = input.query!;
  const vector = await embedQuery(ctx.embedder, query, 'query', ctx.signal);
  await reembedStale(ctx.sql, who, ctx.embedder, ctx.signal);
  const gone = await deleteMatching(ctx.sql, who, {
    embedderId: ctx.embedder.id,
    vector,
    minScore: MIN_FORGET_SCORE,
  });
  return {
    text: renderForgotten(gone, query),
    data: { query, minScore: MIN_FORGET_SCORE, forgotten: gone.map(scoredData) },
  };
}

async function list(input: z.output<typeof ListInput>, req: AgentRequest, ctx: AgentContext) {
  const page = {
    limit: input.limit ?? LIST_LIMIT.default,
    offset: input.offset ?? 0,
  };
  const { memories, total } = await listMemories(ctx.sql, owner(req), page);
  return {
    text: renderList(memories, { ...page, total }),
    data: { total, ...page, memories: memories.map(memoryData) },
  };
}

export const actions: Actions = {
  store: action({
    summary: 'remember a text: content, tags?',
    input: StoreInput,
    run: store,
  }),
  recall: action({
    summary: `search memories by meaning: query, limit? (1–${RECALL_LIMIT.max}, default ${RECALL_LIMIT.default})`,
    input: RecallInput,
    run: recall,
  }),
  forget: action({
    summary: 'delete the memories matching query, or the one with id',
    input: ForgetInput,
    run: forget,
  }),
  list: action({
    summary: `your memories, newest first: limit? (1–${LIST_LIMIT.max}, default ${LIST_LIMIT.default}), offset?`,
    input: ListInput,
    run: list,
  }),
};

/** Other names callers use for the same actions. */
export const ALIASES: Readonly<Record<string, string>> = { remember: 'store', search: 'recall' };
