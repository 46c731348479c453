// The API documents against their schemas: OpenAPI 3.1 (@seriousme/openapi-schema-validator) and
// OpenRPC (@open-rpc/meta-schema), built from every route doc and method doc, and as a gateway
// serves them. Every route of the whole hub is checked in test/e2e/api-contract.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aDocs } from '../../gateway/a2a/route-docs.js';
import { hubMethodDocs } from '../../gateway/a2a/method-docs.js';
import { standardMethodNames } from '../../gateway/a2a/standard-endpoint.js';
import { standardMethodDocs } from '../../gateway/a2a/standard-method-docs.js';
import { discoverDocs } from '../../gateway/discover/route-docs.js';
import type { RouteDoc, RouteSpec } from '../../gateway/http/index.js';
import { manageDocs } from '../../gateway/manage/route-docs.js';
import { openApiDocument, openRpcDocument } from '../../gateway/openapi/index.js';
import { builtInDocs } from '../../gateway/routes/route-docs.js';
import { wsRouteDoc } from '../../gateway/ws/index.js';
import { startTestGateway, type TestGateway } from '../../gateway/test-gateway.js';
import { AnswerChecker, openApiErrors, openRpcErrors } from '../support/api-documents.js';

const INFO = { title: 'Burrow', version: '0.0.0' };
const handler = () => ({ status: 200, headers: {}, body: '' });

const specs: RouteSpec[] = Object.entries({
  ...discoverDocs,
  ...manageDocs,
  ...builtInDocs,
  ...a2aDocs,
  ws: wsRouteDoc,
}).map(([name, doc]: [string, RouteDoc]) => ({
  method: doc.body === undefined ? 'GET' : 'POST',
  pattern: `/t/${name}/:id`,
  handler,
  doc,
  ...(doc.body === undefined ? {} : { body: true }),
}));

describe('documents built from every route and method doc', () => {
  it('OpenAPI: valid 3.1, every schema compiles', async () => {
    expect(await openApiErrors(openApiDocument(specs, INFO))).toEqual([]);
  });

  it('OpenAPI: a broken operation is refused (the validator can fail)', async () => {
    const doc = openApiDocument(specs.slice(0, 1), INFO);
    expect(
      await openApiErrors({ ...doc, paths: { '/x': { get: { responses: 'none' } } } })
    ).not.toEqual([]);
  });

  it('OpenRPC: valid against the meta-schema, every schema compiles', () => {
    const served = [...Object.keys(hubMethodDocs), 'message/send', 'tasks/get', 'tasks/list'];
    expect(
      openRpcErrors(
        openRpcDocument(served, hubMethodDocs, { ...INFO, server: 'http://127.0.0.1/a2a' })
      )
    ).toEqual([]);
  });

  it('OpenRPC of the standard endpoint, v1.0 and v0.3: valid, every schema compiles', () => {
    for (const docs of [standardMethodDocs.v1, standardMethodDocs['v0.3']]) {
      const doc = openRpcDocument(standardMethodNames(), docs, {
        ...INFO,
        server: 'http://127.0.0.1/agents/:agentId/a2a',
      });
      expect(openRpcErrors(doc)).toEqual([]);
    }
  });

  it('OpenRPC: a method without a result is refused (the meta-schema can fail)', () => {
    const doc = openRpcDocument(['GetTask'], hubMethodDocs, {
      ...INFO,
      server: 'http://127.0.0.1/a2a',
    });
    expect(openRpcErrors({ ...doc, methods: [{ name: 'GetTask', params: [] }] })).not.toEqual([]);
  });
});

describe('the documents a gateway serves', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('GET /openapi.json is valid and describes its own answer and /health', async () => {
    const res = await fetch(`${gw.base}/openapi.json`);
    const text = await res.text();
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(await openApiErrors(doc)).toEqual([]);
    const checker = new AnswerChecker(doc);
    expect(checker.operations()).toEqual(
      expect.arrayContaining(['GET /health', 'GET /metrics', 'POST /a2a', 'GET /openapi.json'])
    );
    const answer = { contentType: res.headers.get('content-type'), body: text };
    expect(
      checker.check({ method: 'GET', path: '/openapi.json', status: res.status, ...answer })
    ).toEqual([]);
    gw.health = { nats: 'ok', postgres: 'down' };
    const health = await fetch(`${gw.base}/health`);
    expect(
      checker.check({
        method: 'GET',
        path: '/health',
        status: health.status,
        contentType: health.headers.get('content-type'),
        body: await health.text(),
      })
    ).toEqual([]);
    // A status the document does not give is caught.
    expect(checker.check({ method: 'GET', path: '/health', status: 418, ...answer })).toEqual([
      'GET /health: status 418 is not documented',
    ]);
  });

  it('GET /openrpc.json is valid and names every method of /a2a', async () => {
    const doc = (await (await fetch(`${gw.base}/openrpc.json`)).json()) as Record<string, unknown>;
    expect(openRpcErrors(doc)).toEqual([]);
  });

  it('GET /openrpc.json?dialect=1.0 and 0.3 are valid and name the per-agent endpoint', async () => {
    for (const dialect of ['1.0', '0.3']) {
      const res = await fetch(`${gw.base}/openrpc.json?dialect=${dialect}`);
      const doc = (await res.json()) as { servers: { url: string }[] } & Record<string, unknown>;
      expect(openRpcErrors(doc)).toEqual([]);
      expect(doc['x-undocumented']).toBeUndefined();
      expect(doc.servers[0]?.url).toBe(`${gw.base}/agents/:agentId/a2a`);
    }
    const bad = await fetch(`${gw.base}/openrpc.json?dialect=2.0`);
    expect(bad.status).toBe(400);
    expect(
      ((await bad.json()) as { error: { details: { field: string } } }).error.details.field
    ).toBe('dialect');
  });
});
