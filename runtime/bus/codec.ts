// Bus payloads are JSON. Encoding goes through one place so a change of format is one change.
const enc = new TextEncoder();
const dec = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return enc.encode(JSON.stringify(value));
}

/** JSON text already built (e.g. around a part encoded once and reused), as bus bytes. */
export function encodeText(json: string): Uint8Array {
  return enc.encode(json);
}

export function decodeJson<T = unknown>(data: Uint8Array): T {
  return JSON.parse(dec.decode(data)) as T;
}

/** A stream read or delete that named a message the stream no longer (or never) held. */
export function isNoMessage(err: unknown): boolean {
  return /no message found|not found/i.test(String((err as Error)?.message));
}

/**
 * The UTF-8 size of `value` as JSON when it is over `limit`, else undefined. A walk that bounds the
 * size from above (6 bytes per character, a \u escape) settles the common small value without
 * encoding it; only a value that might be over is encoded to be measured.
 */
export function encodedSizeOver(value: unknown, limit: number): number | undefined {
  if (sizeBound(value, limit) <= limit) return undefined;
  const size = Buffer.byteLength(JSON.stringify(value) ?? '');
  return size > limit ? size : undefined;
}

/** An upper bound of the JSON size, cut short once it passes `stop`. */
function sizeBound(value: unknown, stop: number): number {
  if (typeof value === 'string') return value.length * 6 + 2;
  if (value === null || typeof value !== 'object') return 24;
  let n = 2;
  if (Array.isArray(value)) {
    for (const v of value) {
      n += sizeBound(v, stop) + 1;
      if (n > stop) return n;
    }
    return n;
  }
  for (const k in value) {
    n += k.length * 6 + 4 + sizeBound((value as Record<string, unknown>)[k], stop);
    if (n > stop) return n;
  }
  return n;
}
