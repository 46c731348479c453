// The real uWS gateway on port 0: health, metrics, 404/405, extra routes, drain and close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RpcHandler } from '../../gateway/deps.js';
import { jsonReply } from '../../gateway/http/reply.js';
import {
  TEST_ADMIN_TOKEN,
  startTestGateway,
  type TestGateway,
} from '../../gateway/test-gateway.js';

describe('gateway lifecycle and built-in routes', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      routes: [
        (table) =>
          table.add({
            method: 'GET',
            pattern: '/extra/:name',
            doc: {
              summary: 'A route a test adds',
              tags: ['Test'],
              auth: 'none',
              responses: { 200: z.object({ hello: z.string() }) },
            },
            handler: (req) => jsonReply(200, { hello: req.params['name'] }),
          }),
      ],
    });
  });
  afterAll(() => gw.close());

  it('listens on a real port when asked for port 0', () => {
    expect(gw.base).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
  });

  it('GET /health answers 200 ok with a timestamp and the checks', async () => {
    gw.health = { nats: 'ok', postgres: 'ok' };
    const before = Date.now();
    const res = await fetch(`${gw.base}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { status: string; timestamp: number; checks: unknown };
    expect(body.status).toBe('ok');
    expect(body.checks).toEqual({ nats: 'ok', postgres: 'ok' });
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.timestamp).toBeLessThanOrEqual(Date.now());
  });

  it('GET /health answers 503 degraded when a check is down', async () => {
    gw.health = { nats: 'ok', postgres: 'down' };
    const res = await fetch(`${gw.base}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'degraded',
      checks: { nats: 'ok', postgres: 'down' },
    });
    gw.health = new Error('health probe crashed');
    const crashed = await fetch(`${gw.base}/health`);
    expect(crashed.status).toBe(503);
    expect(await crashed.json()).toMatchObject({ status: 'degraded' });
    gw.health = { nats: 'ok', postgres: 'ok' };
  });

  it('GET /health answers 200 degraded when only an optional part is down', async () => {
    gw.health = { nats: 'ok', postgres: 'ok', optional: { smtpInbound: 'down' } };
    const res = await fetch(`${gw.base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'degraded',
      checks: { nats: 'ok', postgres: 'ok', smtpInbound: 'down' },
    });
    gw.health = { nats: 'ok', postgres: 'ok', optional: { smtpInbound: 'ok' } };
    const up = await fetch(`${gw.base}/health`);
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: 'ok' });
    gw.health = { nats: 'ok', postgres: 'ok' };
  });

  it('GET /metrics refuses a scrape without the metrics token (401, a Bearer challenge)', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TEST_ADMIN_TOKEN]) {
      const res = await fetch(`${gw.base}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('GET /metrics is the Prometheus exposition, counting requests by route pattern', async () => {
    await fetch(`${gw.base}/health`);
    await fetch(`${gw.base}/extra/alice`);
    await fetch(`${gw.base}/no/such/path`);
    const res = await fetch(`${gw.base}/metrics`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('# TYPE burrow_http_requests_total counter');
    expect(text).toMatch(
      /burrow_http_requests_total\{method="GET",route="\/health",status="200"\} \d+/
    );
    expect(text).toMatch(
      /burrow_http_requests_total\{method="GET",route="\/extra\/:name",status="200"\} 1/
    );
    expect(text).toMatch(
      /burrow_http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/
    );
    expect(text).toMatch(
      /burrow_http_request_duration_seconds_count\{method="GET",route="\/health"\} \d+/
    );
    expect(text).not.toContain('alice');
  });

  it('serves routes added by a registrar', async () => {
    const res = await fetch(`${gw.base}/extra/bob`);
    expect(await res.json()).toEqual({ hello: 'bob' });
  });

  it('answers 404 with a REST error body for unknown routes', async () => {
    const res = await fetch(`${gw.base}/nope?x=1`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No route for GET /nope' },
      message: 'No route for GET /nope',
    });
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const res = await fetch(`${gw.base}/health`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.json()).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
    const get = await fetch(`${gw.base}/a2a`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('drain', () => {
  it('waits for an in-flight slow handler, which still gets its answer', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const rpc = new Map<string, RpcHandler>([
      [
        'Slow',
        async () => {
          entered();
          await gate;
          return { done: true };
        },
      ],
    ]);
    const gw = await startTestGateway({ rpc });
    try {
      const call = fetch(`${gw.base}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"Slow","id":1}',
      });
      await started;
      gw.gateway.stopAccepting();
      let drained = false;
      const drain = gw.gateway.drain(5000).then(() => (drained = true));
      // Drain ends when the last handler settles or at its timeout, nothing else: one that did
      // not wait for the handler held at the gate would have resolved within this turn.
      await new Promise((r) => setImmediate(r));
      expect(drained).toBe(false);
      release();
      await drain;
      expect(drained).toBe(true);
      const res = await call;
      expect(await res.json()).toEqual({ jsonrpc: '2.0', result: { done: true }, id: 1 });
    } finally {
      gw.close();
    }
  });

  it('resolves at once when idle, and after the timeout when a handler hangs', async () => {
    let entered!: () => void;
    const hanging = new Promise<void>((resolve) => (entered = resolve));
    const rpc = new Map<string, RpcHandler>([
      [
        'Hang',
        () => {
          entered();
          return new Promise(() => {});
        },
      ],
    ]);
    const gw = await startTestGateway({ rpc });
    try {
      await gw.gateway.drain(1000);
      void fetch(`${gw.base}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"Hang","id":1}',
      }).catch(() => undefined);
      await hanging;
      const t0 = Date.now();
      await gw.gateway.drain(100);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
    } finally {
      gw.close();
    }
  });

  it('stops accepting new connections after stopAccepting', async () => {
    const gw = await startTestGateway();
    const base = gw.base;
    gw.gateway.stopAccepting();
    // Nothing was sent before, so this needs a fresh connection.
    const err = await fetch(`${base}/health`).then(
      () => undefined,
      (e: unknown) => e as { cause?: { code?: string } }
    );
    expect(err?.cause?.code).toBe('ECONNREFUSED');
    gw.close();
  });

  it('close() ends open connections; a handler finishing later writes nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    let finished = false;
    const rpc = new Map<string, RpcHandler>([
      [
        'Slow',
        async () => {
          entered();
          await gate;
          finished = true;
          return { late: true };
        },
      ],
    ]);
    const gw = await startTestGateway({ rpc });
    const call = fetch(`${gw.base}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"Slow","id":1}',
    });
    await started;
    gw.close();
    await expect(call).rejects.toThrow();
    release();
    await gw.gateway.drain(1000);
    expect(finished).toBe(true);
    const metrics = await gw.metrics.registry.metrics();
    expect(metrics).toMatch(
      /burrow_http_requests_total\{method="POST",route="\/a2a",status="499"\} 1/
    );
  });
});

describe('GET /metrics without a token configured', () => {
  it('refuses every scrape (nothing is open by accident on 0.0.0.0)', async () => {
    const gw = await startTestGateway({
      config: { adminToken: undefined, metricsToken: undefined },
    });
    try {
      for (const authorization of [undefined, 'Bearer ', `Bearer ${TEST_ADMIN_TOKEN}`]) {
        const res = await fetch(`${gw.base}/metrics`, {
          headers: authorization === undefined ? {} : { authorization },
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({
          error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/METRICS_TOKEN/) },
        });
      }
    } finally {
      gw.close();
    }
  });
});
