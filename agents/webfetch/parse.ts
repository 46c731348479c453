// What the caller asks: a URL (the page as markdown), `metadata <URL>` (the page's metadata), or
// JSON {"url": "...", "mode"?: "content" | "metadata"}.
import { z } from 'zod';
import { describeIssues, fail } from '../kit/index.js';

export const Mode = { content: 'content', metadata: 'metadata' } as const;
export type Mode = (typeof Mode)[keyof typeof Mode];

export interface FetchRequest {
  mode: Mode;
  url: URL;
}

export const MAX_URL_CHARS = 2048;

const USAGE =
  'send a URL (https://example.com/page) for the page as markdown, `metadata <URL>` for its ' +
  'title, description and Open Graph fields, or JSON {"url": "…", "mode": "content" | "metadata"}';

const JsonRequest = z.object({
  url: z.string(),
  mode: z.enum(['content', 'metadata']).optional(),
});

export function parseFetchRequest(
  text: string,
  json: Record<string, unknown> | undefined
): FetchRequest {
  if (json !== undefined) {
    if (json.url === undefined) fail(`the JSON request needs a "url": ${USAGE}`);
    const parsed = JsonRequest.safeParse(json, { reportInput: true });
    if (!parsed.success) fail(`${describeIssues(parsed.error)}; ${USAGE}`);
    return { mode: parsed.data.mode ?? Mode.content, url: parseUrl(parsed.data.url) };
  }
  const t = text.trim();
  if (t === '') fail(`nothing to fetch: ${USAGE}`);
  const m = /^(metadata|meta|fetch|get)\s+(\S+)$/i.exec(t);
  if (m) {
    const verb = m[1]!.toLowerCase();
    return {
      mode: verb === 'metadata' || verb === 'meta' ? Mode.metadata : Mode.content,
      url: parseUrl(m[2]!),
    };
  }
  if (/\s/.test(t)) fail(`I could not find one URL in that: ${USAGE}`);
  return { mode: Mode.content, url: parseUrl(t) };
}

/**
 * A web address, as people write it: `https://…`, `<https://…>`, or a bare `example.com/page`
 * (taken as https). Only http and https; no user name or password in it.
 */
export function parseUrl(input: string): URL {
  const raw = input.trim().replace(/^<(.*)>$/, '$1');
  if (raw.length > MAX_URL_CHARS) {
    fail(`the URL is ${raw.length} characters long; at most ${MAX_URL_CHARS} are accepted`);
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw);
  // "example.com:8080/x" parses as the scheme "example.com"; a port after the colon says otherwise.
  const bare = scheme === null || /^[^/:]+:\d+(?:[/?#]|$)/.test(raw);
  let url: URL;
  try {
    url = new URL(bare ? `https://${raw}` : raw);
  } catch {
    fail(`"${raw}" is not a valid URL: ${USAGE}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(`only http and https URLs are fetched, not ${url.protocol.slice(0, -1)}: URLs`);
  }
  if (bare && !url.hostname.includes('.') && url.hostname !== 'localhost') {
    fail(`"${raw}" is not a valid URL: ${USAGE}`);
  }
  if (url.username !== '' || url.password !== '') {
    fail('URLs with a user name or password are not fetched; remove the "user:password@" part');
  }
  url.hash = '';
  return url;
}
