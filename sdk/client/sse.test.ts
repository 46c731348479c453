// The SSE reader against byte streams cut at awkward places (no server).
import { describe, expect, it } from 'vitest';
import { readSse, type SseEvent } from './sse.js';

function bytes(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk));
      c.close();
    },
  });
}

async function all(chunks: string[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of readSse(bytes(chunks))) out.push(e);
  return out;
}

describe('readSse', () => {
  it('reads ids and data, skipping comments and retry lines', async () => {
    const events = await all([
      'retry: 2000\n\n',
      'id: 1\ndata: {"a":1}\n\n',
      ': keep-alive\n\n',
      'id: 2\ndata: {"a":2}\n\n',
    ]);
    expect(events).toEqual([
      { id: '1', event: 'message', data: '{"a":1}' },
      { id: '2', event: 'message', data: '{"a":2}' },
    ]);
  });

  it('joins data lines, reads event types, and accepts CRLF, CR and chunks cut anywhere', async () => {
    const text = 'event: note\r\ndata: one\r\ndata:two\r\n\r\nid: 7\rdata: three\r\r';
    const oneByOne = [...text];
    expect(await all(oneByOne)).toEqual([
      { id: undefined, event: 'note', data: 'one\ntwo' },
      { id: '7', event: 'message', data: 'three' },
    ]);
  });

  it('does not dispatch an event cut off before its blank line', async () => {
    expect(await all(['id: 1\ndata: whole\n\n', 'id: 2\ndata: half'])).toEqual([
      { id: '1', event: 'message', data: 'whole' },
    ]);
  });

  it('rejects when the body fails mid-stream, after the events before it', async () => {
    const enc = new TextEncoder();
    let pulls = 0;
    // error() drops what is still queued, so the failure comes on the pull after the event.
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (pulls++ === 0) c.enqueue(enc.encode('id: 1\ndata: x\n\n'));
        else c.error(new TypeError('terminated'));
      },
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of readSse(body)) seen.push(e.data);
      })()
    ).rejects.toThrow('terminated');
    expect(seen).toEqual(['x']);
  });
});
