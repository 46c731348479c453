// The OpenAPI and OpenRPC documents built from the route docs: paths and parameters follow the
// patterns, implied error statuses appear, a served method without a doc is named. Their validity
// against the OpenAPI 3.1 and OpenRPC schemas: test/integration/api-documents.int.test.ts.
import { describe, expect, it } from 'vitest';
import { a2aDocs } from '../a2a/route-docs.js';
import { hubMethodDocs } from '../a2a/method-docs.js';
import { standardMethod, standardMethodNames } from '../a2a/standard-endpoint.js';
import { standardMethodDocs } from '../a2a/standard-method-docs.js';
import { discoverDocs } from '../discover/route-docs.js';
import type { RouteDoc, RouteSpec } from '../http/index.js';
import { manageDocs } from '../manage/route-docs.js';
import { builtInDocs } from '../routes/route-docs.js';
import { wsRouteDoc } from '../ws/route-doc.js';
import { openApiDocument, openApiPath } from './document.js';
import { openRpcDocument } from './openrpc.js';

const INFO = { title: 'Burrow', version: '0.0.0' };
const handler = () => ({ status: 200, headers: {}, body: '' });

/** One route per doc, each on a pattern of its own with a path parameter. */
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

type Operation = {
  'x-websocket-frames'?: Record<string, Record<string, { schema: { properties: object } }>>;
  parameters?: { name: string; in: string; required: boolean }[];
  responses: Record<string, { content?: Record<string, unknown> }>;
  requestBody?: unknown;
};

describe('openApiDocument', () => {
  const doc = openApiDocument(specs, INFO) as { paths: Record<string, Record<string, Operation>> };

  it('writes :param segments as {param} path parameters', () => {
    expect(openApiPath('/api/agents/:agentId/keys')).toBe('/api/agents/{agentId}/keys');
    const op = doc.paths['/t/rate/{id}']?.post as Operation;
    expect(op.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true })
    );
  });

  it('lists query parameters from the zod query schema, required ones marked', () => {
    const op = doc.paths['/t/nearby/{id}']?.get as Operation;
    const names = op.parameters?.filter((p) => p.in === 'query').map((p) => [p.name, p.required]);
    expect(names).toContainEqual(['lat', true]);
    expect(names).toContainEqual(['radius', false]);
  });

  it('adds the implied error answers: 400 with input, 401/403/429 by auth, 413 with a body', () => {
    const rate = doc.paths['/t/rate/{id}']?.post as Operation;
    expect(Object.keys(rate.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '413', '429', '500'])
    );
    const health = doc.paths['/t/health/{id}']?.get as Operation;
    expect(Object.keys(health.responses).sort()).toEqual(['200', '500', '503']);
  });

  it('answers JSON-RPC refusals with a JSON-RPC body, not the REST error', () => {
    const a2a = doc.paths['/t/a2a/{id}']?.post as Operation;
    expect(Object.keys(a2a.responses).sort()).toEqual(['200', '204', '401', '413', '429']);
  });

  it('describes the WebSocket upgrade: 101 only, and every frame type by direction', () => {
    const ws = doc.paths['/t/ws/{id}']?.get as Operation;
    expect(Object.keys(ws.responses)).toEqual(['101']);
    const frames = ws['x-websocket-frames'];
    expect(Object.keys(frames?.fromHub ?? {}).sort()).toEqual(
      [
        'auth_error',
        'card_updated',
        'error',
        'jsonrpc',
        'message',
        'pong',
        'task_update',
        'welcome',
      ].sort()
    );
    expect(Object.keys(frames?.fromClient ?? {}).sort()).toEqual(
      ['auth', 'jsonrpc', 'ping', 'received', 'task_response', 'update_card'].sort()
    );
    expect(frames?.fromClient?.task_response?.schema.properties).toHaveProperty('taskId');
  });
});

describe('openRpcDocument', () => {
  const served = [...Object.keys(hubMethodDocs), 'message/send', 'tasks/get'];

  it('has one entry per served name, aliases included', () => {
    const doc = openRpcDocument(served, hubMethodDocs, { ...INFO, server: '/a2a' });
    const names = (doc.methods as { name: string }[]).map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['SendMessage', 'message/send', 'tasks/get']));
    expect(doc['x-undocumented']).toBeUndefined();
  });

  it('lists a served method without a doc as undocumented', () => {
    const doc = openRpcDocument(['GetTask', 'x-new/method'], hubMethodDocs, {
      ...INFO,
      server: '/a2a',
    });
    expect(doc['x-undocumented']).toEqual(['x-new/method']);
  });
});

describe('the standard endpoint in OpenRPC, one document per A2A version', () => {
  const served = standardMethodNames();

  it('serves both name families, and not the hub-only task/respond', () => {
    expect(served).toEqual(
      expect.arrayContaining(['SendMessage', 'message/send', 'tasks/pushNotificationConfig/set'])
    );
    expect(served).not.toContain('task/respond');
    expect(standardMethod('task/respond')).toBeUndefined();
    expect(standardMethod('x-burrow/agent.me')).toBeUndefined();
  });

  for (const dialect of ['v1', 'v0.3'] as const) {
    it(`${dialect}: every name the endpoint serves is documented, nothing else`, () => {
      const doc = openRpcDocument(served, standardMethodDocs[dialect], {
        ...INFO,
        server: '/agents/:agentId/a2a',
      });
      expect(doc['x-undocumented']).toBeUndefined();
      const names = (doc.methods as { name: string }[]).map((m) => m.name);
      expect(names.sort()).toEqual([...served].sort());
    });
  }

  it('writes each version its own result shapes', () => {
    const result = (d: 'v1' | 'v0.3') =>
      JSON.stringify(
        (
          openRpcDocument(['GetTask'], standardMethodDocs[d], { ...INFO, server: '/x' })
            .methods as { result: { schema: unknown } }[]
        )[0]?.result.schema
      );
    expect(result('v1')).toContain('TASK_STATE_COMPLETED');
    expect(result('v1')).not.toContain('"kind"');
    expect(result('v0.3')).toContain('"kind"');
    expect(result('v0.3')).not.toContain('TASK_STATE_COMPLETED');
  });
});
