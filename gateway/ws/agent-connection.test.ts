// When an agent socket's frames are written: those of one turn together in one cork, in the check
// phase; sooner, at the end of the callback that pushed them, when a push waits to know it was
// written; never when the socket closed first (the push then learns it was not).
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'uWebSockets.js';
import { UwsAgentConnection, type SocketData } from './agent-connection.js';

function fakeSocket() {
  const corks: string[][] = [];
  let corked: string[] | undefined;
  const ws = {
    cork(fn: () => void) {
      corked = [];
      fn();
      corks.push(corked);
      corked = undefined;
    },
    send(text: string) {
      if (corked) corked.push(text);
      else corks.push([text]);
      return 1;
    },
    getBufferedAmount: () => 0,
    end() {},
  };
  return { ws: ws as unknown as WebSocket<SocketData>, corks };
}

const limits = { highWaterBytes: 1 << 20, outboxFrames: 16 };
const conn = (ws: WebSocket<SocketData>) =>
  new UwsAgentConnection(ws, 'c1', 'agent-1', 'tenant-1', 'hash', limits);
const nextImmediate = () => new Promise<void>((r) => setImmediate(r));
const afterTicks = () => new Promise<void>((r) => process.nextTick(r));

describe('UwsAgentConnection', () => {
  it('writes the frames of one turn in one cork, in the check phase', async () => {
    const s = fakeSocket();
    const c = conn(s.ws);
    expect(c.push({ n: 1 })).toBe('sent');
    expect(c.push({ n: 2 })).toBe('sent');
    await afterTicks();
    expect(s.corks).toEqual([]);
    await nextImmediate();
    expect(s.corks).toEqual([['{"n":1}', '{"n":2}']]);
  });

  it('writes at the end of the callback when a push waits to know, with the rest of it', async () => {
    const s = fakeSocket();
    const c = conn(s.ws);
    c.push({ n: 1 });
    const written = c.written();
    c.push({ n: 2 });
    let settled: boolean | undefined;
    void written.then((ok) => (settled = ok));
    await afterTicks();
    expect(s.corks).toEqual([['{"n":1}', '{"n":2}']]);
    await Promise.resolve();
    expect(settled).toBe(true);
    // Nothing is left for the check phase's write.
    await nextImmediate();
    expect(s.corks).toHaveLength(1);
  });

  it('answers false for a frame the socket dropped by closing before the write', async () => {
    const s = fakeSocket();
    const c = conn(s.ws);
    c.push({ n: 1 });
    const written = c.written();
    // The gateway's close handler: the peer has gone.
    c.closed = true;
    expect(await written).toBe(false);
    expect(s.corks).toEqual([]);
  });

  it('answers true at once when nothing waits in the turn', async () => {
    const s = fakeSocket();
    const c = conn(s.ws);
    expect(await c.written()).toBe(true);
  });
});
