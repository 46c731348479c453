// /debug over a real xstate machine: admin token auth, the four routes, 404 when disabled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  doorMachine,
  startTestGateway,
  TEST_ADMIN_TOKEN,
  type TestGateway,
} from '../../gateway/test-gateway.js';

const auth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('/debug with an admin token', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('401 with a REST error body without the token, or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: TEST_ADMIN_TOKEN },
    ];
    for (const headers of attempts) {
      const res = await fetch(`${gw.base}/debug/machines`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('GET /debug/machines lists the registered machines', async () => {
    const res = await fetch(`${gw.base}/debug/machines`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ machines: ['door'] });
  });

  it('GET /debug/machines/:id returns the definition, 404 when unknown', async () => {
    const res = await fetch(`${gw.base}/debug/machines/door`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doorMachine.toJSON())));
    const missing = await fetch(`${gw.base}/debug/machines/window`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('GET /debug/machines/:id/graph draws the machine as Mermaid or DOT; 400 on another format or parameter', async () => {
    const mmd = await fetch(`${gw.base}/debug/machines/door/graph`, { headers: auth });
    expect(mmd.status).toBe(200);
    expect(mmd.headers.get('content-type')).toBe('text/vnd.mermaid; charset=utf-8');
    const text = await mmd.text();
    expect(text.split('\n')[0]).toBe('stateDiagram-v2');
    for (const state of Object.keys(doorMachine.states)) {
      expect(text).toContain(`state "${state}" as door_${state}`);
    }
    expect(text).toMatch(/door_\w+ --> door_\w+ : \S+/);
    const dot = await fetch(`${gw.base}/debug/machines/door/graph?format=dot`, { headers: auth });
    expect(dot.headers.get('content-type')).toBe('text/vnd.graphviz; charset=utf-8');
    expect(await dot.text()).toMatch(
      /^digraph "door" \{[\s\S]*"door\.\w+" -> "door\.\w+" \[label="\S+"\];[\s\S]*\}\n$/
    );
    const bad = await fetch(`${gw.base}/debug/machines/door/graph?format=png`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_PARAMS' } });
    // As on every route: a repeated or unknown parameter is refused naming it, not ignored.
    for (const [query, field] of [
      ['format=dot&format=mermaid', 'format'],
      ['format=dot&colour=blue', 'colour'],
    ]) {
      const r = await fetch(`${gw.base}/debug/machines/door/graph?${query}`, { headers: auth });
      expect(r.status, query).toBe(400);
      expect(await r.json()).toMatchObject({
        error: { code: 'INVALID_PARAMS', details: { field } },
      });
    }
    const missing = await fetch(`${gw.base}/debug/machines/window/graph`, { headers: auth });
    expect(missing.status).toBe(404);
  });

  it('GET /debug/actors/:systemId decodes the id and returns the persisted snapshot', async () => {
    const res = await fetch(`${gw.base}/debug/actors/${encodeURIComponent('door:front')}`, {
      headers: auth,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      systemId: 'door:front',
      snapshot: { value: 'open', status: 'active' },
    });
    const plain = await fetch(`${gw.base}/debug/actors/door:front`, { headers: auth });
    expect(plain.status).toBe(200);
    const missing = await fetch(`${gw.base}/debug/actors/task%3Atask-123`, { headers: auth });
    expect(missing.status).toBe(404);
  });

  it('GET /debug/actors/:systemId is 400 for malformed percent-encoding', async () => {
    const res = await fetch(`${gw.base}/debug/actors/%E0%A4%A`, { headers: auth });
    expect(res.status).toBe(400);
  });

  it('GET /debug/cluster returns the cluster view', async () => {
    const res = await fetch(`${gw.base}/debug/cluster`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ nodeId: 'node-test' });
  });
});

describe('/debug when disabled', () => {
  it.each([
    ['debug disabled', { debugEnabled: false }],
    ['no admin token', { adminToken: undefined }],
  ])('is 404 with %s, even with the token', async (_name, config) => {
    const gw = await startTestGateway({ config });
    try {
      for (const path of [
        '/debug/machines',
        '/debug/machines/door',
        '/debug/actors/door:front',
        '/debug/cluster',
      ]) {
        const res = await fetch(`${gw.base}${path}`, { headers: auth });
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      }
    } finally {
      gw.close();
    }
  });
});
