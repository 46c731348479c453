// Typed metadata: what kind a value is, the well-known keys' rules, and meta:search filters.
// Pure functions (no I/O), so the rules are unit-tested without a database.

export const MetaKinds = ['number', 'date', 'datetime', 'string', 'boolean'] as const;
export type MetaKind = (typeof MetaKinds)[number];

/** A stored value. Dates are `YYYY-MM-DD`; date-times are ISO 8601 UTC strings. */
export type TypedValue =
  | { kind: 'number'; value: number }
  | { kind: 'date'; value: string }
  | { kind: 'datetime'; value: string }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean };

/** Raw values callers may send: JSON scalars (natural language gives strings). */
export type RawValue = string | number | boolean;

/** The result of typing a value: the value, or what the caller should fix. */
export type Typed<T> = { ok: true; value: T } | { ok: false; error: string };

export const FilterOps = ['eq', 'gt', 'gte', 'lt', 'lte'] as const;
export type FilterOp = (typeof FilterOps)[number];

/** Which class of stored values a filter compares against. */
export type CompareClass = 'number' | 'time' | 'string' | 'boolean';

export function classOf(kind: MetaKind): CompareClass {
  switch (kind) {
    case 'number':
      return 'number';
    case 'date':
    case 'datetime':
      return 'time';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default: {
      const never: never = kind;
      return never;
    }
  }
}

const KEY = /^[a-z][a-z0-9_]{0,63}$/;

/** "Close date" → "close_date"; undefined when the key cannot be a metadata key. */
export function normalizeKey(key: string): string | undefined {
  const k = key
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return KEY.test(k) ? k : undefined;
}

/** Entity types: lower case; "organization" and its short forms are "organisation". */
export function normalizeType(type: string): string | undefined {
  const t = type.trim().toLowerCase().replace(/\s+/g, '_');
  if (!/^[a-z][a-z0-9_-]{0,39}$/.test(t)) return undefined;
  if (t === 'organization' || t === 'org' || t === 'company') return 'organisation';
  return t;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A real calendar date in `YYYY-MM-DD`, or undefined (2026-02-30 is not one). */
export function parseDate(s: string): string | undefined {
  const m = DATE.exec(s.trim());
  if (!m) return undefined;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s.trim()) return undefined;
  return s.trim();
}

/** An ISO 8601 date-time with a zone (Z or ±hh:mm), as ISO UTC; or undefined. */
export function parseDateTime(s: string): string | undefined {
  const t = s.trim();
  if (!DATETIME.test(t)) return undefined;
  if (!parseDate(t.slice(0, 10))) return undefined;
  const d = new Date(t.replace(' ', 'T'));
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A number written by a person: "1200", "1,200.50", "$50,000", "€2.5m", "10k", "60%" (→ 0.6).
 * Undefined when the text is not one.
 */
export function parseLooseNumber(s: string): number | undefined {
  let t = s.trim().replace(/^[$€£]\s*/, '');
  let factor = 1;
  if (t.endsWith('%')) {
    factor = 0.01;
    t = t.slice(0, -1).trim();
  } else if (/^[\d.,]+\s*[kmb]$/i.test(t)) {
    const suffix = t.slice(-1).toLowerCase();
    factor = suffix === 'k' ? 1e3 : suffix === 'm' ? 1e6 : 1e9;
    t = t.slice(0, -1).trim();
  }
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) t = t.replaceAll(',', '');
  if (!NUMBER.test(t)) return undefined;
  const n = Number(t) * factor;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The kind a value has when nothing says otherwise. JSON numbers and booleans keep their type;
 * strings are dates or date-times when they are written as ISO 8601, else strings. With `loose`
 * (text from natural language, where everything is a string) numbers and true/false are read too.
 */
export function inferValue(raw: RawValue, loose = false): TypedValue {
  if (typeof raw === 'number') return { kind: 'number', value: raw };
  if (typeof raw === 'boolean') return { kind: 'boolean', value: raw };
  const s = raw.trim();
  const date = parseDate(s);
  if (date) return { kind: 'date', value: date };
  const dt = parseDateTime(s);
  if (dt) return { kind: 'datetime', value: dt };
  if (loose) {
    const n = parseLooseNumber(s);
    if (n !== undefined) return { kind: 'number', value: n };
    if (/^(true|yes)$/i.test(s)) return { kind: 'boolean', value: true };
    if (/^(false|no)$/i.test(s)) return { kind: 'boolean', value: false };
  }
  return { kind: 'string', value: s };
}

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[a-z]{2,}$/i;

interface WellKnown {
  /** What the value must be, for error messages. */
  expects: string;
  type(raw: RawValue): TypedValue | undefined;
}

/**
 * Keys with fixed meaning and indexes. probability is stored as a fraction 0–1; callers may give
 * a fraction (0.6), a percentage above 1 up to 100 (60), or "60%".
 */
export const WELL_KNOWN: Readonly<Record<string, WellKnown>> = {
  email: {
    expects: 'an email address like name@example.com',
    type: (raw) =>
      typeof raw === 'string' && EMAIL.test(raw.trim())
        ? { kind: 'string', value: raw.trim().toLowerCase() }
        : undefined,
  },
  close_date: {
    expects: 'a date (YYYY-MM-DD) or an ISO 8601 date-time',
    type: (raw) => {
      if (typeof raw !== 'string') return undefined;
      const t = inferValue(raw);
      return t.kind === 'date' || t.kind === 'datetime' ? t : undefined;
    },
  },
  probability: {
    expects: 'a number from 0 to 1 (or a percentage from 0 to 100, e.g. 60 or "60%")',
    type: (raw) => {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' ? parseLooseNumber(raw) : undefined;
      if (n === undefined || n < 0 || n > 100) return undefined;
      return { kind: 'number', value: n > 1 ? round(n / 100) : n };
    },
  },
  deal_size_estimate: {
    expects: 'a number of 0 or more, e.g. 50000 or "$50,000"',
    type: (raw) => {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' ? parseLooseNumber(raw) : undefined;
      return n === undefined || n < 0 ? undefined : { kind: 'number', value: n };
    },
  },
};

function round(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

/** The value to store for `key`: well-known keys are checked, others inferred. */
export function typeMetaValue(key: string, raw: RawValue, loose = false): Typed<TypedValue> {
  const wk = WELL_KNOWN[key];
  if (wk) {
    const v = wk.type(raw);
    return v
      ? { ok: true, value: v }
      : { ok: false, error: `${key} must be ${wk.expects}; got ${JSON.stringify(raw)}` };
  }
  if (typeof raw === 'number' && !Number.isFinite(raw)) {
    return { ok: false, error: `${key} must be a finite number` };
  }
  const v = inferValue(raw, loose);
  if (v.kind === 'string' && v.value === '')
    return { ok: false, error: `${key} must not be empty` };
  if (v.kind === 'string' && v.value.length > 2000) {
    return { ok: false, error: `${key} must be at most 2000 characters` };
  }
  return { ok: true, value: v };
}

/** A filter ready for SQL: the compared class and the value in the column's form. */
export type MetaFilter =
  | { key: string; op: FilterOp; cls: 'number'; value: number }
  | { key: string; op: FilterOp; cls: 'time'; value: string }
  | { key: string; op: FilterOp; cls: 'string'; value: string }
  | { key: string; op: 'eq'; cls: 'boolean'; value: boolean };

export interface RawFilter {
  key: string;
  op: string;
  value: RawValue;
}

const CLASS_WORDS: Record<CompareClass, string> = {
  number: 'numbers',
  time: 'dates',
  string: 'strings',
  boolean: 'true/false values',
};

/**
 * Check and type one meta:search filter. `where` names it in errors (e.g. "filters[1]");
 * `stored` is the set of classes this key already holds in the tenant, so a value that cannot
 * match anything stored (a number for a key that holds strings) is an error, not an empty result.
 */
export function typeFilter(
  f: RawFilter,
  where: string,
  stored: ReadonlySet<CompareClass>
): Typed<MetaFilter> {
  const key = normalizeKey(f.key);
  if (!key) {
    return {
      ok: false,
      error: `${where}.key: "${f.key}" is not a metadata key (letters, digits, _)`,
    };
  }
  const op = f.op.trim().toLowerCase();
  if (!(FilterOps as readonly string[]).includes(op)) {
    return {
      ok: false,
      error: `${where}.op: unknown op "${f.op}"; use one of ${FilterOps.join(', ')}`,
    };
  }
  const o = op as FilterOp;
  let v: TypedValue;
  const wk = WELL_KNOWN[key];
  if (wk) {
    // email filters compare strings of any shape (a prefix range, for instance), not only emails.
    const t =
      key === 'email' && typeof f.value === 'string'
        ? { kind: 'string' as const, value: f.value.trim().toLowerCase() }
        : wk.type(f.value);
    if (!t) {
      return {
        ok: false,
        error: `${where}.value: ${key} compares ${wk.expects}; got ${JSON.stringify(f.value)}`,
      };
    }
    v = t;
  } else {
    v = inferValue(f.value);
    // A numeric string against a key that holds numbers means the number.
    if (v.kind === 'string' && stored.has('number') && !stored.has('string')) {
      const n = parseLooseNumber(v.value);
      if (n !== undefined) v = { kind: 'number', value: n };
    }
    if (
      v.kind === 'string' &&
      /^(true|false)$/i.test(v.value) &&
      stored.has('boolean') &&
      !stored.has('string')
    ) {
      v = { kind: 'boolean', value: v.value.toLowerCase() === 'true' };
    }
  }
  const cls = classOf(v.kind);
  if (stored.size > 0 && !stored.has(cls)) {
    const holds = [...stored].map((c) => CLASS_WORDS[c]).join(' and ');
    return {
      ok: false,
      error: `${where}.value: ${key} holds ${holds} in this CRM, but ${JSON.stringify(f.value)} is not one of those`,
    };
  }
  switch (v.kind) {
    case 'number':
      return { ok: true, value: { key, op: o, cls: 'number', value: v.value } };
    case 'date':
      return { ok: true, value: { key, op: o, cls: 'time', value: `${v.value}T00:00:00.000Z` } };
    case 'datetime':
      return { ok: true, value: { key, op: o, cls: 'time', value: v.value } };
    case 'string':
      return { ok: true, value: { key, op: o, cls: 'string', value: v.value } };
    case 'boolean':
      if (o !== 'eq') {
        return {
          ok: false,
          error: `${where}.op: true/false values only compare with eq, not ${o}`,
        };
      }
      return { ok: true, value: { key, op: 'eq', cls: 'boolean', value: v.value } };
    default: {
      const never: never = v;
      return never;
    }
  }
}

/** A stored value as JSON shows it. */
export function plainValue(v: TypedValue): string | number | boolean {
  return v.value;
}

/** A stored value as people read it. */
export function showValue(key: string, v: TypedValue): string {
  switch (v.kind) {
    case 'number':
      if (key === 'probability') return `${round(v.value * 100)}%`;
      return Number.isInteger(v.value) ? v.value.toLocaleString('en-US') : String(v.value);
    case 'date':
      return v.value;
    case 'datetime':
      return v.value
        .replace('T', ' ')
        .replace(/:00\.000Z$/, ' UTC')
        .replace(/\.\d{3}Z$/, ' UTC');
    case 'string':
      return v.value;
    case 'boolean':
      return v.value ? 'yes' : 'no';
    default: {
      const never: never = v;
      return never;
    }
  }
}
