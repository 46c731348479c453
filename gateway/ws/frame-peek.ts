// A few top-level fields of a JSON frame, read without parsing it: enough to answer a frame that
// is refused for its size (echo its JSON-RPC id, name its task) without building a 10 MB object.
// A structural scan over the bytes: strings are skipped with indexOf (memchr), nested values by
// bracket depth, and only the wanted short scalars are decoded. Malformed input ends the scan
// with what was found so far.

export interface FramePeek {
  /** Has a top-level `jsonrpc` key (a JSON-RPC frame, whatever its value). */
  jsonrpc: boolean;
  id?: string | number | null;
  method?: string;
  type?: string;
  taskId?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Longer wanted strings are not decoded: no id, method, type or task id is this long. */
const MAX_SCALAR_BYTES = 256;

export function peekFrame(b: Buffer): FramePeek {
  const out: FramePeek = { jsonrpc: false };
  let i = skipBlank(b, 0);
  if (b[i] !== OPEN_OBJECT) return out;
  i = skipBlank(b, i + 1);
  if (b[i] === CLOSE_OBJECT) return out;
  while (i < b.length) {
    if (b[i] !== QUOTE) return out;
    const keyEnd = skipString(b, i);
    if (keyEnd < 0) return out;
    const key = keyEnd - i <= 16 ? b.toString('latin1', i + 1, keyEnd - 1) : '';
    i = skipBlank(b, keyEnd);
    if (b[i] !== COLON) return out;
    const start = skipBlank(b, i + 1);
    const end = skipValue(b, start);
    if (end < 0) return out;
    if (key === 'jsonrpc') out.jsonrpc = true;
    else if (key === 'id') out.id = scalar(b, start, end, true);
    else if (key === 'method' || key === 'type' || key === 'taskId') {
      const v = scalar(b, start, end, false);
      if (typeof v === 'string') out[key] = v;
    }
    i = skipBlank(b, end);
    if (b[i] !== COMMA) return out;
    i = skipBlank(b, i + 1);
  }
  return out;
}

/** A short string (or, for ids, number or null) value; undefined for anything else. */
function scalar(
  b: Buffer,
  start: number,
  end: number,
  isId: boolean
): string | number | null | undefined {
  if (end - start > MAX_SCALAR_BYTES) return undefined;
  const c = b[start];
  if (c !== QUOTE && !isId) return undefined;
  try {
    const v: unknown = JSON.parse(b.toString('utf8', start, end));
    if (typeof v === 'string') return v;
    if (isId && (v === null || typeof v === 'number')) return v;
  } catch {
    // not a scalar we can echo
  }
  return undefined;
}

function skipBlank(b: Buffer, i: number): number {
  while (i < b.length) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
  return i;
}

/** `i` at an opening quote: the index after the closing one, or -1. */
function skipString(b: Buffer, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, from);
    if (q < 0) return -1;
    // Escaped when preceded by an odd run of backslashes.
    let n = 0;
    while (b[q - 1 - n] === BACKSLASH) n++;
    if (n % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The index just after the value starting at `i`, or -1 if it does not end. */
function skipValue(b: Buffer, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    while (i < b.length) {
      const d = b[i]!;
      if (d === QUOTE) {
        i = skipString(b, i);
        if (i < 0) return -1;
        continue;
      }
      if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  while (i < b.length) {
    const d = b[i]!;
    if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || d <= 0x20) return i;
    i++;
  }
  return i;
}
