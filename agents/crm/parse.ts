// Plain-language requests → the JSON actions they mean. A small grammar, not guesswork: what it
// does not recognise is refused with the list of what it understands (HELP), never half-done.
import { inferValue, normalizeKey, type RawValue } from './values.js';

export type Intent =
  | {
      kind: 'upsert';
      payload: {
        action: 'entity:upsert';
        type: string;
        name: string;
        description?: string;
        metadata?: Record<string, RawValue>;
      };
      links: Array<{ relation: string; to: string; toType: string }>;
    }
  | { kind: 'action'; payload: Record<string, unknown> & { action: string } }
  | { kind: 'help' };

export const HELP = [
  'I understand these requests (or JSON with an "action"):',
  '• Add person Ada Lovelace, email ada@example.com, works at Analytical Engines',
  '• Add organisation Solaris: installs rooftop solar panels',
  '• Add a supplier named Acme Bolts, rating: 4',
  '• Find organisations about solar panels',
  '• Show entity crm_ent_0123456789abcdef   /   Get Ada Lovelace',
  '• Log a call with Ada Lovelace: discussed pricing',
  '• Set probability of Big Deal to 0.6',
  '• Deals with probability >= 0.5 closing before 2027-01-01',
  '• Link Ada Lovelace to Solaris as advises',
  'JSON actions: entity:upsert, entity:get, entity:search, link:create, interaction:log, meta:set, meta:search.',
].join('\n');

/** Type words people write, singular or plural, → the stored type. */
const TYPE_WORDS: Record<string, string> = {
  person: 'person',
  persons: 'person',
  people: 'person',
  contact: 'person',
  contacts: 'person',
  organisation: 'organisation',
  organisations: 'organisation',
  organization: 'organisation',
  organizations: 'organisation',
  org: 'organisation',
  orgs: 'organisation',
  company: 'organisation',
  companies: 'organisation',
  product: 'product',
  products: 'product',
  deal: 'deal',
  deals: 'deal',
};
const TYPE_ALT = Object.keys(TYPE_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|');

/** Spoken names of well-known keys. */
const KEY_ALIASES: Record<string, string> = {
  close_date: 'close_date',
  closing_date: 'close_date',
  close: 'close_date',
  deal_size: 'deal_size_estimate',
  deal_size_estimate: 'deal_size_estimate',
  size: 'deal_size_estimate',
  value: 'deal_size_estimate',
  probability: 'probability',
  chance: 'probability',
  email: 'email',
  e_mail: 'email',
};

function keyOf(words: string): string | undefined {
  const k = normalizeKey(words);
  return k === undefined ? undefined : (KEY_ALIASES[k] ?? k);
}

/** Values typed by what they look like: natural language has only strings. */
function looseValue(key: string, raw: string): RawValue {
  const s = unquote(raw.trim());
  // Well-known keys read their own strings ("60%", "$50,000"); keep them as written.
  if (
    key === 'email' ||
    key === 'close_date' ||
    key === 'probability' ||
    key === 'deal_size_estimate'
  )
    return s;
  return inferValue(s, true).value;
}

function unquote(s: string): string {
  const m = /^"(.*)"$|^'(.*)'$|^“(.*)”$/.exec(s);
  return m ? (m[1] ?? m[2] ?? m[3] ?? s) : s;
}

function singular(word: string): string {
  const w = word.toLowerCase();
  if (TYPE_WORDS[w]) return TYPE_WORDS[w];
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** The intent of `text`, or undefined when it is none of the forms in HELP. */
export function parseRequest(text: string): Intent | undefined {
  const t = text
    .trim()
    .replace(/[.!]+$/, '')
    .trim();
  if (t === '' || /^(help|\?|what can you do\??|commands)$/i.test(t)) return { kind: 'help' };
  return (
    parseAdd(t) ??
    parseLog(t) ??
    parseSet(t) ??
    parseLink(t) ??
    parseMetaSearch(t) ??
    parseSearch(t) ??
    parseGet(t)
  );
}

const ADD_VERBS = '(?:add|create|new|save|record|upsert)';

function parseAdd(t: string): Intent | undefined {
  let type: string | undefined;
  let rest: string | undefined;
  const known = new RegExp(
    `^${ADD_VERBS}\\s+(?:an?\\s+|new\\s+)?(${TYPE_ALT})\\s+(?:named\\s+|called\\s+)?(.+)$`,
    'i'
  ).exec(t);
  if (known) {
    type = TYPE_WORDS[known[1]!.toLowerCase()];
    rest = known[2];
  } else {
    // A type of one's own needs "named"/"called", so "Add Ada" is not a type called "ada".
    const custom = new RegExp(
      `^${ADD_VERBS}\\s+(?:an?\\s+|new\\s+)?([a-z][\\w-]*)\\s+(?:named|called)\\s+(.+)$`,
      'i'
    ).exec(t);
    if (custom) {
      type = custom[1]!.toLowerCase();
      rest = custom[2];
    }
  }
  if (!type || !rest) return undefined;
  // A comma before a digit is a thousands separator ("$50,000"), not a new field.
  const segments = rest.split(/\s*;\s*|\s*,(?!\d)\s*/).filter((s) => s !== '');
  let name = segments.shift()!;
  const description: string[] = [];
  const colon = /^([^:]+?)\s*(?::|\s-\s|\s—\s)\s*(.+)$/.exec(name);
  if (colon) {
    name = colon[1]!;
    description.push(colon[2]!);
  }
  const metadata: Record<string, RawValue> = {};
  const links: Array<{ relation: string; to: string; toType: string }> = [];
  for (const seg of segments) {
    const s = seg.replace(/^(?:and|with)\s+/i, '');
    let m: RegExpExecArray | null;
    if ((m = /^(?:works|working)\s+(?:at|for)\s+(.+)$/i.exec(s))) {
      links.push({ relation: 'works_at', to: unquote(m[1]!), toType: 'organisation' });
    } else if ((m = /^(?:purchased|bought)\s+(.+)$/i.exec(s))) {
      links.push({ relation: 'purchased', to: unquote(m[1]!), toType: 'product' });
    } else if ((m = /^competes\s+with\s+(.+)$/i.exec(s))) {
      links.push({ relation: 'competes_with', to: unquote(m[1]!), toType: type });
    } else if ((m = /^(?:description|about|described as)\s*:?\s+(.+)$/i.exec(s))) {
      description.push(m[1]!);
    } else if (
      (m =
        /^(email|e-mail|probability|close date|closing date|deal size(?: estimate)?)\s*(?::|=|is)?\s+(.+)$/i.exec(
          s
        ))
    ) {
      const key = keyOf(m[1]!)!;
      metadata[key] = looseValue(key, m[2]!);
    } else if ((m = /^([a-z][\w -]{0,40}?)\s*(?::|=)\s*(.+)$/i.exec(s)) && keyOf(m[1]!)) {
      const key = keyOf(m[1]!)!;
      metadata[key] = looseValue(key, m[2]!);
    } else {
      // Commas inside a description: keep the text, in order.
      description.push(s);
    }
  }
  const payload: Extract<Intent, { kind: 'upsert' }>['payload'] = {
    action: 'entity:upsert',
    type,
    name: unquote(name),
  };
  if (description.length > 0) payload.description = description.join(', ');
  if (Object.keys(metadata).length > 0) payload.metadata = metadata;
  return { kind: 'upsert', payload, links };
}

const WHEN = '\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?(?:Z|[+-]\\d{2}:?\\d{2})?)?';
const LOG = new RegExp(
  `^(?:log|record|add)\\s+(?:an?\\s+|the\\s+)?(email|e-mail|call|phone call|meeting|note)\\s+(?:with|to|from|for|about|on)\\s+(.+?)(?:\\s+(?:on|at)\\s+(${WHEN}))?\\s*:\\s*(.+)$`,
  'i'
);

function parseLog(t: string): Intent | undefined {
  const m = LOG.exec(t);
  if (!m) return undefined;
  let kind = m[1]!.toLowerCase();
  if (kind === 'e-mail') kind = 'email';
  if (kind === 'phone call') kind = 'call';
  const payload: Record<string, unknown> & { action: string } = { action: 'interaction:log', kind };
  const at = m[3];
  if (at !== undefined) {
    // A time without a zone is taken as UTC.
    payload.occurred_at = at.length === 10 || /(Z|[+-]\d{2}:?\d{2})$/i.test(at) ? at : `${at}Z`;
  }
  payload.entity = unquote(m[2]!);
  payload.text = m[4]!;
  return { kind: 'action', payload };
}

function parseSet(t: string): Intent | undefined {
  const m =
    /^(?:set|change|update)\s+(?:the\s+)?(.+?)\s+(?:of|for|on)\s+(.+?)\s+(?:to|=|as)\s+(.+)$/i.exec(
      t
    );
  if (!m) return undefined;
  const entity = unquote(m[2]!);
  const words = m[1]!.toLowerCase();
  if (words === 'description' || words === 'name') {
    const target = entity.startsWith('crm_ent_') ? entity : undefined;
    // entity:upsert changes description and name by id; a name is resolved by the handler.
    return {
      kind: 'action',
      payload: {
        action: 'entity:upsert',
        ...(target ? { id: target } : { id: entity }),
        [words]: unquote(m[3]!),
      },
    };
  }
  const key = keyOf(words);
  if (!key) return undefined;
  return {
    kind: 'action',
    payload: { action: 'meta:set', entity, key, value: looseValue(key, m[3]!) },
  };
}

function parseLink(t: string): Intent | undefined {
  const m = /^link\s+(.+?)\s+(?:to|with)\s+(.+?)\s+as\s+(.+)$/i.exec(t);
  if (!m) return undefined;
  return {
    kind: 'action',
    payload: {
      action: 'link:create',
      from: unquote(m[1]!),
      to: unquote(m[2]!),
      relation: m[3]!.trim(),
    },
  };
}

const OPS: Array<[RegExp, string]> = [
  [/^(?:>=|≥|=>|at least|no less than|greater than or equal to|on or after)$/i, 'gte'],
  [/^(?:<=|≤|=<|at most|no more than|less than or equal to|on or before|by)$/i, 'lte'],
  [/^(?:>|more than|greater than|above|over|after)$/i, 'gt'],
  [/^(?:<|less than|below|under|before)$/i, 'lt'],
  [/^(?:=|==|is|equals|equal to|on)$/i, 'eq'],
];
const SYMBOL_OPS = '>=|≥|=>|<=|≤|=<|==|=|>|<';
const WORD_OPS =
  'at least|no less than|greater than or equal to|on or after|at most|no more than|less than or equal to|on or before|more than|greater than|less than|above|below|over|under|after|before|equals|equal to|is|by|on';
const VALUE = `"[^"]*"|'[^']*'|\\d{4}-\\d{2}-\\d{2}(?:T[\\d:.]+(?:Z|[+-]\\d{2}:?\\d{2})?)?|[$€£]?\\d+(?:[.,]\\d+)*(?:%|[kKmM])?|[^\\s,]+`;
/** key, then a symbol (spaces optional) or a word operator (spaces around), then a value. */
const CONDITION = new RegExp(
  `^(?:closing\\s+(${WORD_OPS})\\s+(${VALUE})|([a-z][a-z0-9_ -]*?)(?:\\s*(${SYMBOL_OPS})\\s*|\\s+(${WORD_OPS})\\s+)(${VALUE}))(?=\\s|,|$)`,
  'i'
);

function opOf(words: string): string | undefined {
  const w = words.trim().replace(/\s+/g, ' ');
  return OPS.find(([re]) => re.test(w))?.[1];
}

/** "Deals with probability >= 0.5 closing before 2027-01-01" → meta:search. */
function parseMetaSearch(t: string): Intent | undefined {
  const head =
    /^(?:(?:find|show|list|search|get)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?)?([a-z][\w-]*)\s+(?:with|where|whose|that have|having)\s+(.+)$/i.exec(
      t
    );
  if (!head) return undefined;
  const type = singular(head[1]!);
  let rest = head[2]!;
  const filters: Array<{ key: string; op: string; value: RawValue }> = [];
  while (rest !== '') {
    rest = rest.replace(/^(?:and|,|with|where|whose|&)\s*/i, '').trim();
    if (rest === '') break;
    const m = CONDITION.exec(rest);
    if (!m) return undefined;
    const closing = m[1] !== undefined;
    const key = closing ? 'close_date' : keyOf(m[3]!);
    const op = opOf(closing ? m[1]! : (m[4] ?? m[5]!));
    if (!key || !op) return undefined;
    filters.push({ key, op, value: looseValue(key, closing ? m[2]! : m[6]!) });
    rest = rest.slice(m[0].length).trim();
  }
  if (filters.length === 0) return undefined;
  return { kind: 'action', payload: { action: 'meta:search', type, filters } };
}

/** "Find organisations about solar panels" → entity:search. */
function parseSearch(t: string): Intent | undefined {
  const m = /^(?:find|search(?:\s+for)?|look\s+for|look\s+up|show\s+me|which)\s+(.+)$/i.exec(t);
  if (!m) return undefined;
  let rest = m[1]!;
  let type: string | undefined;
  const typed = new RegExp(`^(?:all\\s+|the\\s+|any\\s+)?(${TYPE_ALT})\\b\\s*(.*)$`, 'i').exec(
    rest
  );
  if (typed) {
    type = TYPE_WORDS[typed[1]!.toLowerCase()];
    rest = typed[2]!;
  }
  rest = rest
    .replace(/^(?:about|for|matching|related to|that|who|which|working on|in|doing|like)\s+/i, '')
    .trim();
  if (rest === '') return undefined;
  return {
    kind: 'action',
    payload: { action: 'entity:search', query: rest, ...(type ? { type } : {}) },
  };
}

/** "Show entity crm_ent_…", "Get Ada Lovelace" → entity:get. */
function parseGet(t: string): Intent | undefined {
  const id = /\b(crm_ent_[0-9a-f]{16})\b/i.exec(t);
  const m =
    /^(?:show|get|open|view|display|details?\s+(?:of|for|on)|tell me about|who is|what is)\s+(?:me\s+)?(?:the\s+)?(?:entity\s+)?(.+)$/i.exec(
      t
    );
  if (!m)
    return id
      ? { kind: 'action', payload: { action: 'entity:get', entity: id[1]!.toLowerCase() } }
      : undefined;
  const target = id ? id[1]!.toLowerCase() : unquote(m[1]!.trim());
  const typed = new RegExp(`^(${TYPE_ALT})\\s+(.+)$`, 'i').exec(target);
  if (typed && !id) {
    return {
      kind: 'action',
      payload: {
        action: 'entity:get',
        entity: unquote(typed[2]!),
        type: TYPE_WORDS[typed[1]!.toLowerCase()],
      },
    };
  }
  return { kind: 'action', payload: { action: 'entity:get', entity: target } };
}
