// The fuzz inputs: JSON-RPC bodies, headers, query strings and WebSocket frames, each drawn from a
// seeded PRNG. A case says what it sends and what kind of answer is legitimate (a JSON-RPC
// envelope, a REST reply, or WebSocket frames).
import type { Rng } from './prng.js';
import { deepNesting, HUGE_NUMBER_TEXTS, oddString, oddValue } from './values.js';

export interface FuzzKeys {
  /** The fuzz agent's API key and id. */
  readonly agentKey: string;
  readonly agentId: string;
  /** An admin key of the fuzz tenant (used on GET routes only, so nothing is deleted). */
  readonly adminKey: string;
}

export interface HttpCase {
  readonly kind: 'http';
  /** Where the case went, for the counts: a2a, agent-endpoint, rest, sse. */
  readonly target: 'a2a' | 'agent-endpoint' | 'rest' | 'sse';
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
  /** Whether the request carries the right key (decides the client address it comes from). */
  readonly goodAuth: boolean;
  /** JSON-RPC routes answer envelopes; REST routes answer REST bodies. */
  readonly answers: 'rpc' | 'rest';
}

export interface WsCase {
  readonly kind: 'ws';
  readonly target: 'ws';
  /** On an authenticated connection, or on a fresh unauthenticated (or wrongly keyed) one. */
  readonly goodAuth: boolean;
  readonly badHeader?: string;
  readonly frame: string | Buffer;
}

export type FuzzCase = HttpCase | WsCase;

const RPC_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'CancelTask',
  'ListTasks',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
  'task/respond',
  'message/send',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'NoSuchMethod',
  'rpc.discover',
  '__proto__',
];

/** Parameters that are nearly valid: mutations of these reach deep into the handlers. */
function baseParams(r: Rng, method: string): Record<string, unknown> {
  const message = {
    role: r.pick(['user', 'agent', 'ROLE_USER']),
    parts: [{ kind: 'text', text: 'fuzz' }],
    messageId: `m-${r.int(1e9)}`,
  };
  switch (method) {
    case 'SendMessage':
    case 'SendStreamingMessage':
    case 'message/send':
      // Never a real recipient: a mutation that stays valid creates no work anywhere.
      return { message, configuration: { agentId: `agent-nobody-${r.int(1000)}` } };
    case 'task/respond':
      return { taskId: `task-${r.int(1e6)}`, status: { state: 'completed' } };
    case 'ListTasks':
      return { pageSize: r.int(5), contextId: `ctx-${r.int(1e6)}` };
    default:
      return { id: `task-${r.int(1e6)}`, taskId: `task-${r.int(1e6)}` };
  }
}

/**
 * Replace, delete or add one field somewhere in `o` (in place). Own properties only, set with
 * defineProperty: a key like `__proto__` must become a field of the JSON sent, not reach
 * Object.prototype of this process (which the in-process hub shares).
 */
function mutate(r: Rng, o: Record<string, unknown>): void {
  const keys = Object.keys(o);
  const key = keys.length === 0 || r.chance(0.2) ? oddString(r).slice(0, 30) : r.pick(keys);
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && r.chance(0.5)) {
    mutate(r, v as Record<string, unknown>);
  } else if (r.chance(0.25)) {
    delete o[key];
  } else {
    setOwn(o, key, oddValue(r));
  }
}

export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A JSON-RPC request body, hostile in one of many ways. */
export function rpcBody(r: Rng, methods = RPC_METHODS): Buffer {
  const method = r.pick(methods);
  const envelope: Record<string, unknown> = {
    jsonrpc: '2.0',
    id: r.pick([r.int(1e6), `id-${r.int(1e6)}`, null]),
    method,
    params: baseParams(r, method),
  };
  const text = (): string => JSON.stringify(envelope);
  switch (r.int(12)) {
    case 0:
      return r.bytes(r.between(0, 300));
    case 1: {
      const t = text();
      return Buffer.from(t.slice(0, r.int(t.length)));
    }
    case 2:
      // Wrong types in the envelope itself.
      setOwn(envelope, r.pick(['jsonrpc', 'id', 'method', 'params']), oddValue(r));
      return Buffer.from(text());
    case 3:
      delete envelope[r.pick(['jsonrpc', 'id', 'method', 'params'])];
      return Buffer.from(text());
    case 4:
    case 5:
    case 6:
      for (let i = r.between(1, 3); i > 0; i--)
        mutate(r, envelope.params as Record<string, unknown>);
      return Buffer.from(text());
    case 7: {
      // A number no double holds, as the id or inside the params.
      const huge = r.pick(HUGE_NUMBER_TEXTS);
      envelope.id = 424242;
      (envelope.params as Record<string, unknown>).n = 737373;
      const where = r.chance(0.5) ? '424242' : '737373';
      return Buffer.from(text().replace(where, huge));
    }
    case 8:
      envelope.params = r.chance(0.5) ? '@@DEEP@@' : { message: '@@DEEP@@' };
      return Buffer.from(text().replace('"@@DEEP@@"', deepNesting(r)));
    case 9:
      envelope.method = r.chance(0.5) ? oddString(r) : method.toUpperCase();
      return Buffer.from(text());
    case 10:
      return Buffer.from(
        r.pick(['', ' ', 'null', '[]', '[1,2]', '"str"', '42', '{}', 'true', '{"jsonrpc":"2.0"}'])
      );
    default:
      // A batch, which the hub does not take.
      return Buffer.from(JSON.stringify([envelope, envelope]));
  }
}

function authHeader(r: Rng, goodKey: string): { value: string | undefined; good: boolean } {
  switch (r.int(9)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return { value: `Bearer ${goodKey}`, good: true };
    case 4:
      return { value: undefined, good: false };
    case 5:
      return {
        value: `Bearer ${goodKey.slice(0, -1)}${goodKey.endsWith('A') ? 'B' : 'A'}`,
        good: false,
      };
    case 6:
      return {
        value: r.pick(['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer  x', 'Token x']),
        good: false,
      };
    case 7:
      return { value: `Bearer ${r.bytes(20).toString('base64url')}`, good: false };
    default:
      return { value: `Bearer ${'k'.repeat(r.pick([1, 43, 500, 4000]))}`, good: false };
  }
}

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  '*/*',
  '',
];

/** Header values node:http accepts (visible ASCII and tab): odd, but sendable. */
function headerSafe(s: string): string {
  return s.replace(/[^\t\x20-\x7e]/g, '?').slice(0, 2000);
}

function rpcHeaders(r: Rng, goodKey: string, sse: boolean) {
  const headers: Record<string, string> = {};
  const auth = authHeader(r, goodKey);
  if (auth.value !== undefined) headers.authorization = auth.value;
  // Mostly right, so most inputs get past the envelope checks into the handlers.
  const ct = r.chance(0.7) ? 'application/json' : r.pick(CONTENT_TYPES);
  if (ct !== '') headers['content-type'] = ct;
  if (r.chance(0.8))
    headers['a2a-version'] = r.chance(0.8) ? '1.0' : r.pick(['0.3', '2.0', 'x', '']);
  if (sse || r.chance(0.1)) headers.accept = r.pick(['text/event-stream', '*/*', 'text/html']);
  if (r.chance(0.1)) headers['x-' + r.int(100)] = headerSafe(oddString(r));
  if (r.chance(0.05)) headers['last-event-id'] = headerSafe(oddString(r));
  return { headers, good: auth.good };
}

function encodeSegment(r: Rng, agentId: string): string {
  const id = r.pick([agentId, agentId, 'agent-nobody', 'echo', oddString(r)]);
  try {
    return encodeURIComponent(id);
  } catch {
    return '%ZZ'; // a lone surrogate cannot be encoded: send a malformed escape instead
  }
}

function oddQuery(r: Rng): string {
  const parts: string[] = [];
  for (let i = r.int(5); i > 0; i--) {
    const key = r.pick([
      'q',
      'limit',
      'offset',
      'page',
      'cursor',
      'lat',
      'lon',
      'radius',
      'category',
      'tags',
      'country',
      'sort',
      'from',
      'to',
      'period',
      'a[b]',
      '__proto__',
      '',
      oddString(r),
    ]);
    const value = r.pick([
      '-1',
      '0',
      '1e400',
      'NaN',
      'Infinity',
      '99999999999999999999',
      '%zz',
      '%00',
      '%',
      'true',
      '[]',
      '{}',
      oddString(r),
      'a'.repeat(3000),
    ]);
    let enc: string;
    try {
      enc = r.chance(0.8) ? encodeURIComponent(value) : value.replace(/[^\x21-\x7e]/g, '');
    } catch {
      enc = '%E0%A4%A';
    }
    parts.push(`${key.replace(/[^\x21-\x7e]/g, '')}=${enc}`);
  }
  return parts.length === 0 ? '' : '?' + parts.join(r.pick(['&', '&&', ';']));
}

const REST_ROUTES: Array<{ method: string; path: (r: Rng, id: string) => string; body?: boolean }> =
  [
    { method: 'GET', path: () => '/api/discover/agents' },
    { method: 'GET', path: () => '/api/discover/categories' },
    { method: 'GET', path: () => '/api/discover/agents/nearby' },
    { method: 'GET', path: (r, id) => `/api/discover/agents/${encodeSegment(r, id)}` },
    { method: 'GET', path: (r, id) => `/api/discover/agents/${encodeSegment(r, id)}/locations` },
    {
      method: 'POST',
      path: (r, id) => `/api/discover/agents/${encodeSegment(r, id)}/rate`,
      body: true,
    },
    { method: 'GET', path: (r, id) => `/api/agents/${encodeSegment(r, id)}` },
    { method: 'PATCH', path: (r, id) => `/api/agents/${encodeSegment(r, id)}`, body: true },
    { method: 'GET', path: () => '/api/usage' },
    { method: 'GET', path: () => '/api/messages/stats/summary' },
    { method: 'GET', path: () => '/api/webhooks' },
    { method: 'POST', path: () => '/api/webhooks', body: true },
    { method: 'GET', path: () => '/api/credits' },
    { method: 'GET', path: () => '/api/alerts' },
    { method: 'GET', path: () => '/api/agents' },
    {
      method: 'GET',
      path: (r, id) => `/agents/${encodeSegment(r, id)}/.well-known/agent-card.json`,
    },
    { method: 'GET', path: () => '/debug/machines' },
    { method: 'DELETE', path: (r) => `/api/webhooks/${encodeSegment(r, 'wh-1')}` },
    { method: 'PUT', path: () => '/a2a' },
    { method: 'GET', path: (r) => `/${encodeSegment(r, 'nothing-here')}/x` },
  ];

function restCase(r: Rng, k: FuzzKeys): HttpCase {
  const route = r.pick(REST_ROUTES);
  // The admin key only reads: a fuzzed DELETE or POST must not remove the fuzz agent or add a
  // webhook that would call a random address.
  const key = route.method === 'GET' && r.chance(0.4) ? k.adminKey : k.agentKey;
  const { headers, good } = rpcHeaders(r, key, false);
  let body: Buffer | undefined;
  if (route.body === true) {
    body = r.chance(0.3)
      ? r.bytes(r.int(200))
      : Buffer.from(
          JSON.stringify(
            r.chance(0.5)
              ? oddValue(r)
              : {
                  url: oddValue(r),
                  events: oddValue(r),
                  stars: oddValue(r),
                  visibility: oddValue(r),
                  tags: oddValue(r),
                }
          )
        );
  }
  return {
    kind: 'http',
    target: 'rest',
    method: route.method,
    path: route.path(r, k.agentId) + oddQuery(r),
    headers,
    ...(body ? { body } : {}),
    goodAuth: good,
    answers: 'rest',
  };
}

const WS_FRAMES = (r: Rng): string | Buffer => {
  switch (r.int(8)) {
    case 0:
      return r.bytes(r.between(1, 200));
    case 1:
      return r.bytes(r.between(1, 200)).toString('latin1');
    case 2: {
      const t = JSON.stringify({
        type: 'task_response',
        taskId: 't',
        status: { state: 'completed' },
      });
      return t.slice(0, r.int(t.length));
    }
    case 3:
      return JSON.stringify({
        type: 'task_response',
        taskId: r.chance(0.5) ? `task-${r.int(1e6)}` : oddValue(r),
        status: r.chance(0.5) ? { state: oddValue(r) } : oddValue(r),
        artifact: oddValue(r),
        lastChunk: oddValue(r),
      });
    case 4:
      return JSON.stringify({ type: 'update_card', agentCard: oddValue(r) });
    case 5:
      return JSON.stringify({
        type: r.chance(0.5) ? oddString(r) : oddValue(r),
        data: oddValue(r),
      });
    case 6:
      return rpcBody(r).toString('utf8');
    default:
      return JSON.stringify({ type: 'auth', token: oddValue(r) });
  }
};

/** The `i`-th case: the mix spreads the inputs over every entry point. */
export function fuzzCase(r: Rng, k: FuzzKeys): FuzzCase {
  const roll = r.int(100);
  if (roll < 38) {
    const { headers, good } = rpcHeaders(r, k.agentKey, false);
    return {
      kind: 'http',
      target: 'a2a',
      method: 'POST',
      path: '/a2a' + (r.chance(0.1) ? oddQuery(r) : ''),
      headers,
      body: rpcBody(r),
      goodAuth: good,
      answers: 'rpc',
    };
  }
  if (roll < 53) {
    const { headers, good } = rpcHeaders(r, k.agentKey, false);
    const slash = r.chance(0.2) ? '/' : '';
    return {
      kind: 'http',
      target: 'agent-endpoint',
      method: 'POST',
      path: `/agents/${encodeSegment(r, 'echo')}/a2a${slash}`,
      headers,
      body: rpcBody(r),
      goodAuth: good,
      answers: 'rpc',
    };
  }
  if (roll < 73) return restCase(r, k);
  if (roll < 83) {
    const { headers, good } = rpcHeaders(r, k.agentKey, true);
    const body = rpcBody(r, [
      'SendStreamingMessage',
      'SubscribeToTask',
      'message/stream',
      'tasks/resubscribe',
    ]);
    return {
      kind: 'http',
      target: 'sse',
      method: 'POST',
      path: '/a2a',
      headers,
      body,
      goodAuth: good,
      answers: 'rpc',
    };
  }
  const good = r.chance(0.8);
  return {
    kind: 'ws',
    target: 'ws',
    goodAuth: good,
    ...(good || r.chance(0.5) ? {} : { badHeader: `Bearer ${r.bytes(16).toString('hex')}` }),
    frame: WS_FRAMES(r),
  };
}
