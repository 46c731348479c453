// A Server-Sent Events reader (WHATWG HTML "Server-sent events", the event stream format): bytes
// in, one {id, event, data} per dispatched event out. Comments (the hub's keep-alive) and `retry:`
// lines are consumed here; the caller tracks the last event id for Last-Event-ID.

export interface SseEvent {
  /** The `id:` of this event, if it had one (the hub writes the task's event rev). */
  id: string | undefined;
  /** The `event:` type; "message" when none was given. */
  event: string;
  data: string;
}

/** Splits the stream into events. Ends when the body ends; rejects when the connection fails. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let event = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // At the end, a trailing event without its blank line is not dispatched (spec).
      if (!done) buffer += value;
      let nl: number;
      while ((nl = lineEnd(buffer)) >= 0) {
        // A CR at the very end may be the first half of a CRLF still in flight.
        if (!done && nl === buffer.length - 1 && buffer[nl] === '\r') break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer[nl] === '\r' && buffer[nl + 1] === '\n' ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n') };
          data = [];
          event = '';
          id = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? '' : line.slice(colon + 1);
        if (val.startsWith(' ')) val = val.slice(1);
        if (field === 'data') data.push(val);
        else if (field === 'event') event = val;
        else if (field === 'id' && !val.includes('\0')) id = val;
        // `retry:` and unknown fields are ignored: reconnection timing is the client's own policy.
      }
      if (done) return;
    }
  } finally {
    // Stop reading the body when the consumer stops early (or the read failed).
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function lineEnd(s: string): number {
  const lf = s.indexOf('\n');
  const cr = s.indexOf('\r');
  if (lf < 0) return cr;
  if (cr < 0) return lf;
  return Math.min(lf, cr);
}
