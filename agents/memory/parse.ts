// The plain-language forms of the memory agent, turned into the same `{action, …}` payloads as its
// JSON requests, so both go through one validation and one set of error messages (actions.ts).
// Parsing never judges values: "limit: abc" is passed on as the string "abc" for the schema to refuse.

/** A request in the JSON form: `action` plus that action's fields. */
export type Payload = Record<string, unknown> & { action: string };

/** The four forms, for the reply to text that matches none of them. */
export const FORMS = [
  'Remember this: <text>  (also "Remember: …", "Remember that …"; optional "(tags: a, b)" at the end)',
  'Search memories for: <query>  (also "Recall …", "What do you remember about …")',
  'Forget memories matching: <query>  (or "Forget mem_…" for one memory)',
  'List my recent memories (limit: 10, offset: 0)',
] as const;

const STORE = [/^remember\s+this\s*:\s*/i, /^remember\s*:\s*/i, /^remember\s+that\b\s*:?\s*/i];
const RECALL = [
  /^search\s+(?:my\s+|your\s+)?memor(?:y|ies)\s+(?:for|about)\b\s*:?\s*/i,
  /^recall\b\s*:?\s*/i,
  /^what\s+do\s+you\s+remember\s+(?:about|of|regarding)\b\s*:?\s*/i,
];
const FORGET_ID = /^forget\s+(?:(?:the\s+)?memory\s+)?(mem_\S*?)[.!]?$/i;
const FORGET_QUERY =
  /^forget\s+(?:all\s+)?(?:my\s+)?memor(?:y|ies)\s+(?:matching|that\s+match|about)\b\s*:?\s*/i;
const LIST =
  /^(?:list|show)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:my\s+)?(?:recent\s+|latest\s+)?memor(?:y|ies)\b/i;
const MEMORY_ID = /^mem_\S*$/i;

/** `(tags: a, b)` or `(limit: 5)` closing a text; the keys it may hold are listed per form. */
const TRAILING_OPTIONS = /\(\s*([a-z]+\s*[:=][^()]*)\)\s*[.?!]?\s*$/i;

/** The payload the text asks for, or undefined when it matches none of the forms. */
export function parseRequest(text: string): Payload | undefined {
  const t = text.trim();

  const store = afterPrefix(t, STORE);
  if (store !== undefined) {
    const { rest, options } = trailingOptions(store, ['tags', 'tag']);
    const tags = options.tags ?? options.tag;
    return {
      action: 'store',
      content: rest,
      ...(tags !== undefined ? { tags: splitList(tags) } : {}),
    };
  }

  const recall = afterPrefix(t, RECALL);
  if (recall !== undefined) {
    const { rest, options } = trailingOptions(recall, ['limit']);
    return {
      action: 'recall',
      query: stripQuestion(rest),
      ...(options.limit !== undefined ? { limit: scalar(options.limit) } : {}),
    };
  }

  const byId = FORGET_ID.exec(t);
  if (byId?.[1]) return { action: 'forget', id: byId[1] };
  const forget = afterPrefix(t, [FORGET_QUERY]);
  if (forget !== undefined) {
    const query = stripQuestion(forget);
    // "Forget memories matching: mem_…" can only mean that one memory.
    return MEMORY_ID.test(query) ? { action: 'forget', id: query } : { action: 'forget', query };
  }

  const list = LIST.exec(t);
  if (list) return { action: 'list', ...listOptions(t.slice(list[0].length)) };

  return undefined;
}

function afterPrefix(text: string, prefixes: readonly RegExp[]): string | undefined {
  for (const p of prefixes) {
    const m = p.exec(text);
    if (m) return text.slice(m[0].length).trim();
  }
  return undefined;
}

/** Split off a closing "(key: value, …)" whose keys are all in `keys`; other brackets stay text. */
function trailingOptions(
  text: string,
  keys: readonly string[]
): { rest: string; options: Record<string, string> } {
  const m = TRAILING_OPTIONS.exec(text);
  if (!m?.[1]) return { rest: text, options: {} };
  const options = keyValues(m[1], keys);
  if (options === undefined) return { rest: text, options: {} };
  return { rest: text.slice(0, m.index).trim(), options };
}

/**
 * "limit: 5, offset: 10" → {limit: "5", offset: "10"}; undefined if a key is not in `keys`.
 * `tags` takes everything after it, since its value is itself a comma-separated list.
 */
function keyValues(inner: string, keys: readonly string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const key = /([a-z]+)\s*[:=]\s*/gi;
  const found = [...inner.matchAll(key)];
  if (found.length === 0 || found[0]?.index !== 0) return undefined;
  for (let i = 0; i < found.length; i++) {
    const m = found[i]!;
    const name = m[1]!.toLowerCase();
    if (!keys.includes(name)) return undefined;
    const end = found[i + 1]?.index ?? inner.length;
    out[name] = inner
      .slice(m.index + m[0].length, end)
      .trim()
      .replace(/[,;]$/, '')
      .trim();
  }
  return out;
}

/** What follows "List my recent memories": "(limit: 5, offset: 10)", "limit 5 offset 10", or "". */
function listOptions(rest: string): { limit?: unknown; offset?: unknown } {
  const out: { limit?: unknown; offset?: unknown } = {};
  const limit = /\blimit\s*[:=]?\s*([^\s,;)]*)/i.exec(rest);
  const offset = /\boffset\s*[:=]?\s*([^\s,;)]*)/i.exec(rest);
  if (limit) out.limit = scalar(limit[1] ?? '');
  if (offset) out.offset = scalar(offset[1] ?? '');
  return out;
}

/** A number when the text is one, else the text itself (for the schema to name as wrong). */
function scalar(value: string): unknown {
  const v = value.trim();
  return /^[+-]?\d+(?:\.\d+)?$/.test(v) ? Number(v) : v;
}

function splitList(value: string): string[] {
  return value
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function stripQuestion(text: string): string {
  return text.replace(/\s*\?+\s*$/, '').trim();
}
