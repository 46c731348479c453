// Bus payloads are JSON. Encoding goes through one place so a change of format is one change.
const enc = new TextEncoder();
const dec = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return enc.encode(JSON.stringify(value));
}

export function decodeJson<T = unknown>(data: Uint8Array): T {
  return JSON.parse(dec.decode(data)) as T;
}

/** A stream read or delete that named a message the stream no longer (or never) held. */
export function isNoMessage(err: unknown): boolean {
  return /no message found|not found/i.test(String((err as Error)?.message));
}
