import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOutboundGuard,
  OutboundRefusedError,
  type Resolved,
} from '../../runtime/net/outbound-guard.js';
import { outboundRequest } from '../../runtime/net/outbound-request.js';

function fakeDns(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const resolver = (host: string): Promise<Resolved[]> => {
    asked.push(host);
    return Promise.resolve(
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    );
  };
  return { resolver, asked };
}

describe('createOutboundGuard', () => {
  it('refuses literal loopback, private, link-local, metadata, CGNAT and mapped addresses', () => {
    const guard = createOutboundGuard({ allowPrivate: false });
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.1',
      '172.20.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[fd00::1]',
      '0.0.0.0',
    ];
    for (const host of refused) {
      expect(guard.literalRefusal(host), host).toBeInstanceOf(OutboundRefusedError);
    }
    expect(guard.literalRefusal('8.8.8.8')).toBeUndefined();
    expect(guard.literalRefusal('example.com')).toBeUndefined();
    expect(guard.literalRefusal('127.0.0.1')?.message).toMatch(/OUTBOUND_ALLOW_PRIVATE=true/);
  });

  it('lets private addresses through when allowed, but never unspecified or multicast ones', () => {
    const guard = createOutboundGuard({ allowPrivate: true });
    expect(guard.literalRefusal('127.0.0.1')).toBeUndefined();
    expect(guard.literalRefusal('10.0.0.1')).toBeUndefined();
    expect(guard.literalRefusal('0.0.0.0')?.message).toMatch(/never called/);
    expect(guard.literalRefusal('224.0.0.1')).toBeInstanceOf(OutboundRefusedError);
  });

  it('refuses a name when any of its addresses is private, and caches the verdict per host', async () => {
    let clock = 0;
    const dns = fakeDns({ 'mixed.test': ['93.184.216.34', '10.0.0.7'], 'ok.test': ['1.1.1.1'] });
    const guard = createOutboundGuard({
      allowPrivate: false,
      resolver: dns.resolver,
      cacheTtlMs: 1_000,
      now: () => clock,
    });
    await expect(guard.resolve('mixed.test')).rejects.toThrow(
      /mixed\.test resolves to 10\.0\.0\.7, a private address/
    );
    await expect(guard.resolve('mixed.test')).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(await guard.resolve('ok.test')).toEqual([{ address: '1.1.1.1', family: 4 }]);
    await guard.resolve('ok.test');
    expect(dns.asked).toEqual(['mixed.test', 'ok.test']);
    clock = 1_001;
    await guard.resolve('ok.test');
    expect(dns.asked).toEqual(['mixed.test', 'ok.test', 'ok.test']);
  });

  it('never asks DNS about a literal address', async () => {
    const dns = fakeDns({});
    const guard = createOutboundGuard({ allowPrivate: true, resolver: dns.resolver });
    expect(await guard.resolve('[::1]')).toEqual([{ address: '::1', family: 6 }]);
    expect(dns.asked).toEqual([]);
  });
});

describe('outboundRequest', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, path: req.url }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const post = { method: 'POST', headers: {}, body: '{}', timeoutMs: 2_000 } as const;

  it('connects to the address the guard checked: a name that only the guard resolves works', async () => {
    const dns = fakeDns({ 'agent.internal.test': ['127.0.0.1'] });
    const guard = createOutboundGuard({ allowPrivate: true, resolver: dns.resolver });
    const res = await outboundRequest(guard, new URL(`http://agent.internal.test:${port}/a`), post);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true, path: '/a' });
  });

  it('refuses loopback by literal and by name without opening a connection', async () => {
    const before = hits;
    const dns = fakeDns({ 'rebind.test': ['127.0.0.1'] });
    const guard = createOutboundGuard({ allowPrivate: false, resolver: dns.resolver });
    await expect(
      outboundRequest(guard, new URL(`http://127.0.0.1:${port}/`), post)
    ).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(
      outboundRequest(guard, new URL(`http://rebind.test:${port}/`), post)
    ).rejects.toThrow(/rebind\.test resolves to 127\.0\.0\.1, a loopback address/);
    await expect(
      outboundRequest(guard, new URL(`http://[::ffff:7f00:1]:${port}/`), post)
    ).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(hits).toBe(before);
  });

  it('refuses schemes other than http and https', async () => {
    const guard = createOutboundGuard({ allowPrivate: true });
    await expect(outboundRequest(guard, new URL('file:///etc/passwd'), post)).rejects.toThrow(
      /only http and https/
    );
  });
});
