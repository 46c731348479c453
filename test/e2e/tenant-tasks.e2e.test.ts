// The public routes the dashboard stands on, through a running hub: a tenant's tasks under its
// admin key (list with filters, detail, cancel for its own sender, the live SSE feed), a webhook's
// events (PATCH) and recent deliveries, and the agent list's status, queue depth and rating.
// Bad input is 400 naming the field; an agent key is 403; another tenant's task or webhook is 404
// and never appears in a list or a feed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let receiver: WebhookReceiver;
let online: TestWsAgent;
const keys = { admin: '', otherAdmin: '', alice: '', bob: '', carol: '' };
const ids = { alice: '', bob: '', carol: '' };
let otherTenantId = '';

interface Body {
  error?: { code: string; details?: { field?: string } };
  [k: string]: unknown;
}

async function call(method: string, path: string, key?: string, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

type TaskView = { id: string; senderId: string; recipientId: string; status: { state: string } };

/** An open /api/tasks/stream: every task event it received, in order. */
async function openFeed(key: string, query = '') {
  const stop = new AbortController();
  const res = await fetch(`${hub.url}/api/tasks/stream${query}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: stop.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const events: TaskView[] = [];
  const read = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((l) => l.startsWith('data: '));
          buffer = buffer.slice(end + 2);
          if (data) events.push((JSON.parse(data.slice(6)) as { task: TaskView }).task);
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    close: async () => {
      stop.abort();
      await read;
    },
  };
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  receiver = await startWebhookReceiver();
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const other = await createTenant(hub.sql, { name: 'Other' });
  otherTenantId = other.id;
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  keys.otherAdmin = (await issueAdminKey(hub.sql, other.id)).key;
  for (const [name, tenantId] of [
    ['alice', acme.id],
    ['bob', acme.id],
    ['carol', other.id],
  ] as const) {
    // Bob is public: the other tenant's carol may write to him.
    const created = await createAgent(hub.sql, {
      tenantId,
      name,
      ...(name === 'bob' ? { visibility: 'public' as const } : {}),
    });
    keys[name] = created.apiKey;
    ids[name] = created.agent.id;
  }
  online = await connectWsAgent(hub.url, keys.alice);
});

afterAll(async () => {
  await online?.close();
  await hub?.stop();
  await receiver?.close();
  await nats?.close();
  await db?.drop();
});

describe('GET /api/tasks', () => {
  it('needs a tenant admin key: none is 401, an agent key 403', async () => {
    expect((await call('GET', '/api/tasks')).status).toBe(401);
    const agent = await call('GET', '/api/tasks', keys.alice);
    expect(agent.status).toBe(403);
    expect(agent.body.error?.code).toBe('FORBIDDEN');
  });

  it.each([
    ['?state=sleeping', 'state'],
    ['?limit=0', 'limit'],
    ['?limit=201', 'limit'],
    ['?agentId=', 'agentId'],
    ['?state=working&state=completed', 'state'],
    ['?limit=1e2', 'limit'],
    ['?limit=5&limit=6', 'limit'],
    ['?colour=blue', 'colour'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const r = await call('GET', `/api/tasks${query}`, keys.admin);
    expect(r.status).toBe(400);
    expect(r.body.error?.details?.field).toBe(field);
  });

  it('lists the tenant’s tasks with filters, never another tenant’s', async () => {
    const done = await rpc<{ id: string }>(hub.url, keys.alice, 'SendMessage', {
      message: text('ping'),
      configuration: { agentId: 'echo', blocking: true },
    });
    const doneId = done.result?.id ?? '';
    const waiting = await rpc<{ id: string }>(hub.url, keys.carol, 'SendMessage', {
      message: text('for bob, offline'),
      configuration: { agentId: ids.bob },
    });
    const waitingId = waiting.result?.id ?? '';
    expect(waiting.error).toBeUndefined();
    await until(async () => {
      const r = await call('GET', '/api/tasks', keys.admin);
      return (r.body.tasks as TaskView[]).length === 2;
    });
    const all = (await call('GET', '/api/tasks', keys.admin)).body.tasks as TaskView[];
    expect(all.map((t) => t.id).sort()).toEqual([doneId, waitingId].sort());
    const mine = all.find((t) => t.id === doneId);
    expect(mine).toMatchObject({ senderId: ids.alice, status: { state: 'completed' } });
    // Hub-internal fields never leave: the admin sees the hub dialect's task and both parties.
    expect(Object.keys(mine ?? {})).not.toContain('events');
    expect(Object.keys(mine ?? {})).not.toContain('senderTenantId');

    const byAgent = await call('GET', `/api/tasks?agentId=${ids.bob}`, keys.admin);
    expect((byAgent.body.tasks as TaskView[]).map((t) => t.id)).toEqual([waitingId]);
    const byState = await call('GET', '/api/tasks?state=completed&limit=5', keys.admin);
    expect((byState.body.tasks as TaskView[]).map((t) => t.id)).toEqual([doneId]);

    // The other tenant sees its own sender's task only.
    const theirs = await call('GET', '/api/tasks', keys.otherAdmin);
    expect((theirs.body.tasks as TaskView[]).map((t) => t.id)).toEqual([waitingId]);
    expect((await call('GET', `/api/tasks/${doneId}`, keys.otherAdmin)).status).toBe(404);
    const detail = await call('GET', `/api/tasks/${doneId}`, keys.admin);
    expect(detail.status).toBe(200);
    expect((detail.body.task as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
  });

  it('cancels for the tenant’s own sender only', async () => {
    const sent = await rpc<{ id: string }>(hub.url, keys.alice, 'SendMessage', {
      message: text('for bob, to cancel'),
      configuration: { agentId: ids.bob },
    });
    const id = sent.result?.id ?? '';
    expect((await call('POST', `/api/tasks/${id}/cancel`, keys.otherAdmin)).status).toBe(404);
    expect((await call('POST', `/api/tasks/${id}/cancel`, keys.alice)).status).toBe(403);
    await until(async () => (await call('GET', `/api/tasks/${id}`, keys.admin)).status === 200);
    const r = await call('POST', `/api/tasks/${id}/cancel`, keys.admin);
    expect(r.status).toBe(200);
    expect((r.body.task as TaskView).status.state).toBe('canceled');
    const again = await call('POST', `/api/tasks/${id}/cancel`, keys.admin);
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe('TASK_NOT_CANCELABLE');

    // Carol (the other tenant) sent the task bob received: acme sees it but may not cancel it.
    const theirs = (await call('GET', `/api/tasks?agentId=${ids.bob}&state=submitted`, keys.admin))
      .body.tasks as TaskView[];
    const carols = theirs.find((t) => t.senderId === ids.carol);
    expect(carols).toBeDefined();
    const refused = await call('POST', `/api/tasks/${carols?.id}/cancel`, keys.admin);
    expect(refused.status).toBe(409);
    expect(refused.body.error?.code).toBe('TASK_NOT_CANCELABLE');
  });
});

describe('GET /api/tasks/stream', () => {
  it('sends the tenant’s new and changed tasks live, and nothing to another tenant', async () => {
    expect((await call('GET', '/api/tasks/stream', keys.alice)).status).toBe(403);
    expect((await call('GET', '/api/tasks/stream?limit=5', keys.admin)).status).toBe(400);
    const feed = await openFeed(keys.admin);
    const filtered = await openFeed(keys.admin, `?agentId=${ids.bob}`);
    const other = await openFeed(keys.otherAdmin);
    const sent = await rpc<{ id: string }>(hub.url, keys.bob, 'SendMessage', {
      message: text('to alice, online'),
      configuration: { agentId: ids.alice },
    });
    const id = sent.result?.id ?? '';
    const frame = await online.next('message');
    online.send({ type: 'task_response', taskId: frame.taskId, status: { state: 'completed' } });
    await until(() => feed.events.some((t) => t.id === id && t.status.state === 'completed'));
    await until(() => filtered.events.some((t) => t.id === id));
    // Fence: the other tenant's feed polls the same index, in order. A task between two of its
    // agents sent now comes after acme's task changed: had the feed let acme's through, it would
    // be there first.
    const dave = await createAgent(hub.sql, { tenantId: otherTenantId, name: 'dave' });
    const fence = await rpc<{ id: string }>(hub.url, keys.carol, 'SendMessage', {
      message: text('to dave, within the other tenant'),
      configuration: { agentId: dave.agent.id },
    });
    const fenceId = fence.result?.id ?? '';
    expect(fenceId).not.toBe('');
    await until(() => other.events.some((t) => t.id === fenceId));
    expect(new Set(other.events.map((t) => t.id))).toEqual(new Set([fenceId]));
    await Promise.all([feed.close(), filtered.close(), other.close()]);
  });
});

describe('webhook events and deliveries', () => {
  it('changes a webhook’s events, refusing bad input, and lists its deliveries', async () => {
    const created = await call('POST', '/api/webhooks', keys.admin, {
      url: receiver.url,
      events: ['credits.purchased'],
    });
    receiver.secret = created.body.secret as string;
    const id = (created.body.webhook as { id: string }).id;
    for (const [body, field] of [
      [{ events: ['credits.stolen'] }, 'events'],
      [{ events: [] }, 'events'],
      [{}, 'events'],
      [{ events: ['message.sent'], url: 'http://x' }, 'url'],
    ] as const) {
      const r = await call('PATCH', `/api/webhooks/${id}`, keys.admin, body);
      expect(r.status).toBe(400);
      expect(r.body.error?.details?.field).toBe(field);
    }
    expect(
      (await call('PATCH', `/api/webhooks/${id}`, keys.otherAdmin, { events: ['message.sent'] }))
        .status
    ).toBe(404);
    const patched = await call('PATCH', `/api/webhooks/${id}`, keys.admin, {
      events: ['message.sent', 'credits.purchased'],
    });
    expect(patched.status).toBe(200);
    expect((patched.body.webhook as { events: string[] }).events).toEqual([
      'message.sent',
      'credits.purchased',
    ]);

    expect((await call('GET', `/api/webhooks/${id}/deliveries`, keys.otherAdmin)).status).toBe(404);
    expect((await call('GET', `/api/webhooks/${id}/deliveries?x=1`, keys.admin)).status).toBe(400);
    await call('POST', '/api/credits/purchase', keys.admin, { amount: 100 });
    await until(() => receiver.received.some((r) => r.json.event === 'credits.purchased'));
    await until(async () => {
      const r = await call('GET', `/api/webhooks/${id}/deliveries`, keys.admin);
      const list = r.body.deliveries as Array<{ event: string; status: string }>;
      return list.some((d) => d.event === 'credits.purchased' && d.status === 'delivered');
    });
    const list = (await call('GET', `/api/webhooks/${id}/deliveries`, keys.admin)).body
      .deliveries as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({ event: 'credits.purchased', status: 'delivered', attempts: 1 });
  });
});

describe('GET /api/agents', () => {
  it('adds status, queue depth and rating to each agent', async () => {
    const r = await call('GET', '/api/agents', keys.admin);
    const agents = r.body.agents as Array<Record<string, unknown>>;
    const alice = agents.find((a) => a.agentId === ids.alice);
    const bob = agents.find((a) => a.agentId === ids.bob);
    expect(alice).toMatchObject({ status: 'online', rating: { average: null, count: 0 } });
    // Carol's message to bob still waits in bob's queue (bob never connected).
    expect(bob).toMatchObject({ status: 'offline', queueDepth: 1 });
  });
});
