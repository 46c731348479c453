// The OpenRPC documents of the standard per-agent endpoint against a real hub: for A2A v1.0 and
// v0.3, GET /openrpc.json?dialect=... is valid, leaves nothing undocumented, every method it names
// is served on POST /agents/{agentId}/a2a (none answers -32601), and sample results match their
// schemas. The hub dialect's document is checked in api-contract.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';
import { openRpcErrors } from '../support/api-documents.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig } from '../support/test-hub.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: Record<string, string> = {};
let peerId = '';
type RpcDoc = { methods: { name: string; result: { schema: object } }[] } & Record<string, unknown>;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '2' }), silentLogger);
  const acme = await createTenant(hub.sql, { name: 'Dialect Acme' });
  keys.agent = (await createAgent(hub.sql, { tenantId: acme.id, name: 'dialect-a' })).apiKey;
  peerId = (await createAgent(hub.sql, { tenantId: acme.id, name: 'dialect-b' })).agent.id;
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('GET /openrpc.json?dialect=1.0 and 0.3 of a real hub', () => {
  it('?dialect=1.0 and 0.3: every method named is served on /agents/{agentId}/a2a, results match', async () => {
    const ajv = new Ajv2020({ strict: false });
    const call = async (version: string, method: string, params: unknown) => {
      const res = await fetch(`${hub.url}/agents/${peerId}/a2a`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': version,
          authorization: `Bearer ${keys.agent}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
        await res.body?.cancel();
        return { streamed: true };
      }
      return (await res.json()) as { result?: unknown; error?: { code: number } };
    };
    const message = { role: 'user', messageId: 'm-contract', parts: [{ text: 'hello' }] };
    for (const version of ['1.0', '0.3']) {
      const res = await fetch(`${hub.url}/openrpc.json?dialect=${version}`);
      const doc = (await res.json()) as RpcDoc;
      expect(openRpcErrors(doc)).toEqual([]);
      expect(doc['x-undocumented']).toBeUndefined();
      for (const { name } of doc.methods) {
        const answer = await call(version, name, {});
        expect('error' in answer ? answer.error?.code : 0, `${version} ${name}`).not.toBe(-32601);
      }
      // The check can fail: a hub-only method is not served here.
      expect(
        ((await call(version, 'task/respond', {})) as { error?: { code: number } }).error?.code
      ).toBe(-32601);
      const result = async (name: string, params: unknown) => {
        const answer = (await call(version, name, params)) as { result?: unknown; error?: unknown };
        expect(answer.error, `${version} ${name}`).toBeUndefined();
        const schema = doc.methods.find((m) => m.name === name)?.result.schema;
        const validate = ajv.compile(schema as object);
        expect(validate(answer.result) ? [] : validate.errors, `${version} ${name}`).toEqual([]);
        return answer.result as Record<string, unknown>;
      };
      const sent = await result('SendMessage', {
        message: { ...message, messageId: `m-contract-${version}` },
        configuration: { returnImmediately: true, blocking: false },
      });
      const taskId = ((sent.task as { id?: string } | undefined)?.id ?? sent.id) as string;
      await result('GetTask', { id: taskId });
      await result('tasks/get', { id: taskId });
      await result('ListTasks', { pageSize: 5 });
    }
  });
});
