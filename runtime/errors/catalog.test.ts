// The error catalog against decisions.md §6: code ranges, the exact A2A and hub blocks, unique
// JSON-RPC codes on the JSON-RPC side, and one README.md row per entry with the same values.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { A2A_REASONS, ErrorCatalog, HubError, type ErrorCode } from './index.js';

const entries = Object.entries(ErrorCatalog) as [ErrorCode, (typeof ErrorCatalog)[ErrorCode]][];

/** REST-only conditions: they reuse an existing JSON-RPC code on purpose. */
const REST_ONLY: readonly ErrorCode[] = ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'UNAVAILABLE'];
const rpcFacing = entries.filter(([name]) => !REST_ONLY.includes(name));

const JSON_RPC_STANDARD: Record<number, ErrorCode> = {
  [-32700]: 'PARSE_ERROR',
  [-32600]: 'INVALID_REQUEST',
  [-32601]: 'METHOD_NOT_FOUND',
  [-32602]: 'INVALID_PARAMS',
  [-32603]: 'INTERNAL',
};

// decisions.md §1 (A2A 1.0 errors) and §6 (the hub's block), code → name.
const A2A_BLOCK: Record<number, ErrorCode> = {
  [-32001]: 'TASK_NOT_FOUND',
  [-32002]: 'TASK_NOT_CANCELABLE',
  [-32003]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [-32004]: 'UNSUPPORTED_OPERATION',
  [-32005]: 'CONTENT_TYPE_NOT_SUPPORTED',
  [-32006]: 'INVALID_AGENT_RESPONSE',
  [-32007]: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  [-32008]: 'EXTENSION_SUPPORT_REQUIRED',
  [-32009]: 'VERSION_NOT_SUPPORTED',
};
const HUB_BLOCK: Record<number, ErrorCode> = {
  [-32010]: 'UNAUTHENTICATED',
  [-32011]: 'RECIPIENT_OFFLINE',
  [-32012]: 'QUEUE_FULL',
  [-32013]: 'SENDER_THROTTLED',
  [-32014]: 'TENANT_QUEUE_FULL',
  [-32015]: 'FORBIDDEN',
  [-32016]: 'AGENT_NOT_FOUND',
  [-32017]: 'RATE_LIMITED',
  [-32018]: 'PAYLOAD_TOO_LARGE',
  [-32019]: 'INSUFFICIENT_CREDITS',
  [-32023]: 'WORKSPACE_NOT_FOUND',
  // Issue 28: the hub's second block (-32020..), handed out per feature.
  [-32025]: 'SPENDING_LIMIT_EXCEEDED',
};

describe('error catalog', () => {
  it('gives every JSON-RPC-facing entry its own code', () => {
    const byCode = new Map<number, ErrorCode[]>();
    for (const [name, e] of rpcFacing) byCode.set(e.rpc, [...(byCode.get(e.rpc) ?? []), name]);
    const shared = [...byCode.entries()].filter(([, names]) => names.length > 1);
    expect(shared).toEqual([]);
  });

  it('puts every code in the standard set, the A2A block or the hub block', () => {
    const known = new Set([
      ...Object.keys(JSON_RPC_STANDARD),
      ...Object.keys(A2A_BLOCK),
      ...Object.keys(HUB_BLOCK),
    ]);
    const stray = entries.filter(([, e]) => !known.has(String(e.rpc))).map(([name]) => name);
    expect(stray).toEqual([]);
  });

  it.each(Object.entries({ ...JSON_RPC_STANDARD, ...A2A_BLOCK, ...HUB_BLOCK }))(
    'gives code %s to %s',
    (code, name) => {
      expect(ErrorCatalog[name].rpc).toBe(Number(code));
    }
  );

  it('has exactly the A2A codes -32001..-32009 and the hub codes -32010..-32019', () => {
    const codes = rpcFacing.map(([, e]) => e.rpc);
    const a2a = codes.filter((c) => c <= -32001 && c >= -32009).sort((a, b) => b - a);
    const hub = codes.filter((c) => c <= -32010 && c >= -32019).sort((a, b) => b - a);
    expect(a2a).toEqual(Array.from({ length: 9 }, (_, i) => -32001 - i));
    expect(hub).toEqual(Array.from({ length: 10 }, (_, i) => -32010 - i));
  });

  it('uses the HTTP statuses decisions.md §6 names', () => {
    expect(ErrorCatalog.UNAUTHENTICATED.http).toBe(401);
    expect(ErrorCatalog.RATE_LIMITED.http).toBe(429);
    expect(ErrorCatalog.PAYLOAD_TOO_LARGE.http).toBe(413);
    expect(ErrorCatalog.FORBIDDEN.http).toBe(403);
    expect(ErrorCatalog.NOT_FOUND.http).toBe(404);
    expect(ErrorCatalog.CONFLICT.http).toBe(409);
    expect(ErrorCatalog.UNPROCESSABLE.http).toBe(422);
    expect(ErrorCatalog.UNAVAILABLE.http).toBe(503);
    for (const [, e] of entries) expect(e.http).toBeGreaterThanOrEqual(400);
    for (const [, e] of entries) expect(e.http).toBeLessThan(600);
  });

  it('maps each REST-only entry onto a code a JSON-RPC entry already owns', () => {
    const owned = new Set(rpcFacing.map(([, e]) => e.rpc));
    for (const name of REST_ONLY) {
      expect(ErrorCatalog[name], name).toBeDefined();
      expect(owned.has(ErrorCatalog[name].rpc), name).toBe(true);
    }
  });

  it('names an A2A ErrorInfo reason for exactly the A2A block', () => {
    expect(Object.keys(A2A_REASONS).sort()).toEqual(Object.values(A2A_BLOCK).sort());
    for (const [name, reason] of Object.entries(A2A_REASONS)) expect(reason).toBe(name);
  });

  it('builds HubErrors that carry the catalog values', () => {
    for (const [name, e] of entries) {
      const err = new HubError(name);
      expect(err).toMatchObject({
        code: name,
        rpcCode: e.rpc,
        httpStatus: e.http,
        retryable: e.retryable,
        message: e.message,
      });
    }
  });
});

describe('runtime/errors/README.md', () => {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | NAME | code | http | retryable | when |  →  ['', NAME, code, http, retryable, when, '']
    if (cells.length === 7 && /^[A-Z][A-Z0-9_]+$/.test(cells[1] ?? '')) {
      rows.set(cells[1] ?? '', cells.slice(2, 6));
    }
  }

  it.each(entries)('documents %s with the catalog values', (name, e) => {
    const row = rows.get(name);
    expect(row, `no README row for ${name}`).toBeDefined();
    const [rpc, http, retryable, when] = row ?? [];
    expect(Number(rpc)).toBe(e.rpc);
    expect(Number(http)).toBe(e.http);
    expect(retryable).toBe(e.retryable ? 'yes' : 'no');
    expect(when?.length).toBeGreaterThan(10);
  });

  it('documents no name that is not in the catalog', () => {
    const unknown = [...rows.keys()].filter((name) => !(name in ErrorCatalog));
    expect(unknown).toEqual([]);
  });
});
