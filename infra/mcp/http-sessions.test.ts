// Streamable HTTP sessions without a hub (nothing here calls one): opened by initialize, bound to
// the key that opened it, closed when idle, and capped per node.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHttpSessions } from './http-sessions.js';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'unit', version: '1' },
  },
};

function post(body: unknown, sessionId?: string): Request {
  return new Request('http://hub.test/mcp', {
    method: 'POST',
    headers: {
      ...HEADERS,
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
}

let sessions: McpHttpSessions | undefined;
afterEach(async () => {
  await sessions?.close();
});

function make(idleMs = 60_000, maxSessions = 10): McpHttpSessions {
  sessions = new McpHttpSessions({ hubUrl: () => 'http://127.0.0.1:9', idleMs, maxSessions });
  return sessions;
}

async function open(s: McpHttpSessions, key: string): Promise<string> {
  const r = await s.handle(post(INIT), key);
  expect(r.status).toBe(200);
  const id = r.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  await r.text();
  return id as string;
}

const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('McpHttpSessions', () => {
  it('opens a session on initialize and serves it to the same key only', async () => {
    const s = make();
    const id = await open(s, 'key-a');
    expect(s.size).toBe(1);
    const mine = await s.handle(post(toolsList, id), 'key-a');
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('agent_message');
    const theirs = await s.handle(post(toolsList, id), 'key-b');
    expect(theirs.status).toBe(404);
  });

  it('refuses anything but initialize without a session', async () => {
    const s = make();
    expect((await s.handle(post(toolsList), 'key-a')).status).toBe(400);
    expect((await s.handle(new Request('http://hub.test/mcp'), 'key-a')).status).toBe(400);
    expect(s.size).toBe(0);
  });

  it('closes a session left idle', async () => {
    const s = make(40);
    const id = await open(s, 'key-a');
    // Waits for the idle timer to close it rather than a fixed time.
    await vi.waitFor(() => expect(s.size).toBe(0), { timeout: 5000, interval: 5 });
    expect((await s.handle(post(toolsList, id), 'key-a')).status).toBe(404);
  });

  it('refuses a session beyond the cap with 503', async () => {
    const s = make(60_000, 1);
    await open(s, 'key-a');
    const r = await s.handle(post(INIT), 'key-b');
    expect(r.status).toBe(503);
  });
});
