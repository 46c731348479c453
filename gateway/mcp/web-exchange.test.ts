// The uWS ↔ Fetch adapter of /mcp, without a socket: what the MCP transport is handed, and which
// responses are written whole and which are streamed.
import { describe, expect, it } from 'vitest';
import { RequestScope, type RouteRequest } from '../http/index.js';
import { fromWebResponse, toWebRequest } from './web-exchange.js';

function routeRequest(over: Partial<RouteRequest> = {}): RouteRequest {
  return {
    method: 'POST',
    path: '/mcp',
    query: '',
    headers: {
      host: 'hub.example.org',
      'content-type': 'application/json',
      'content-length': '2',
      'mcp-session-id': 's-1',
    },
    params: {},
    requestId: 'r-1',
    body: Promise.resolve(Buffer.from('{}')),
    scope: new RequestScope('127.0.0.1'),
    ...over,
  };
}

describe('toWebRequest', () => {
  it('carries method, URL, headers and body, without the headers the Request sets itself', async () => {
    const req = await toWebRequest(routeRequest({ query: 'a=1' }));
    expect(req.method).toBe('POST');
    expect(req.url).toBe('http://hub.example.org/mcp?a=1');
    expect(req.headers.get('mcp-session-id')).toBe('s-1');
    expect(req.headers.get('content-type')).toBe('application/json');
    expect(await req.text()).toBe('{}');
  });

  it('sends no body with GET and DELETE', async () => {
    const req = await toWebRequest(routeRequest({ method: 'GET' }));
    expect(req.body).toBeNull();
  });
});

describe('fromWebResponse', () => {
  it('writes a JSON response whole, with its status and headers', async () => {
    const reply = await fromWebResponse(
      new Response('{"ok":true}', {
        status: 404,
        headers: { 'content-type': 'application/json', 'content-length': '11' },
      })
    );
    expect(reply.status).toBe(404);
    expect(reply.stream).toBeUndefined();
    expect(reply.headers).toEqual({ 'content-type': 'application/json' });
    expect(Buffer.from(reply.body).toString()).toBe('{"ok":true}');
  });

  it('streams an event stream instead of reading it to its end', async () => {
    const body = new ReadableStream<Uint8Array>({ start() {} }); // never ends
    const reply = await fromWebResponse(
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })
    );
    expect(reply.status).toBe(200);
    expect(typeof reply.stream).toBe('function');
  });
});
