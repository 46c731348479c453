// What the caller asks: a plain-text query, or JSON {"query": "...", "limit"?: 1..10}.
import { z } from 'zod';
import { describeIssues, fail } from '../kit/index.js';

export const MAX_RESULTS = 10;
export const MAX_QUERY_CHARS = 500;

export interface SearchRequest {
  /** The query as sent upstream: trimmed, inner whitespace collapsed. */
  query: string;
  limit: number;
}

const JsonRequest = z.object({
  query: z.string(),
  limit: z.number().int().min(1).max(MAX_RESULTS).optional(),
});

const USAGE =
  'send the words to search for, e.g. "rust async runtimes", or JSON {"query": "…", "limit": 1..10}';

export function parseSearchRequest(
  text: string,
  json: Record<string, unknown> | undefined
): SearchRequest {
  let raw: string;
  let limit = MAX_RESULTS;
  if (json !== undefined) {
    if (json.query === undefined) fail(`the JSON request needs a "query": ${USAGE}`);
    const parsed = JsonRequest.safeParse(json, { reportInput: true });
    if (!parsed.success) fail(`${describeIssues(parsed.error)}; ${USAGE}`);
    raw = parsed.data.query;
    limit = parsed.data.limit ?? MAX_RESULTS;
  } else {
    raw = text;
  }
  const query = raw.replace(/\s+/g, ' ').trim();
  if (query === '') fail(`the query is empty: ${USAGE}`);
  if (query.length > MAX_QUERY_CHARS) {
    fail(`the query is ${query.length} characters long; keep it to ${MAX_QUERY_CHARS}`);
  }
  return { query, limit };
}

/** The cache key's query part: the same words in any case or spacing are the same query. */
export function normalizeQuery(query: string): string {
  return query.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}
