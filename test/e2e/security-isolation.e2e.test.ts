// Tenant isolation across every API (issue 10, Must 5), in one place: a private agent is invisible
// to other tenants (search, nearby, detail, locations, cards, rating, settings: the same answer as
// an agent that does not exist, also when messaged: -32016 on every endpoint, issue 18); a task is
// visible only to its two parties
// (GetTask, CancelTask, SubscribeToTask, ListTasks, task_response → not found for anyone else);
// settings, usage and webhooks of one tenant are out of another's reach; forged `x-hub` and
// tenant fields are stripped (the recipient sees the hub's signed envelope naming the real
// sender); and an official agent's data stays with its owner whatever identity a caller forges.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, forgedIdentity, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { rpc, text } from '../support/rpc.js';
import { forgedEnvelope } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { verifyEnvelope, type JwksInput } from '../../runtime/envelope/index.js';
import { createAgent, issueAdminKey, updateAgentSettings } from '../../infra/db/index.js';

let h: AgentHub;
const t = { a: '', b: '', empty: '' };
/** Tenant A: alice (sender), bob (private recipient), carol (a bystander of the same tenant),
 * pub (public). Tenant B: mallory. */
const id: Record<string, string> = {};
const key: Record<string, string> = {};
let bob: TestWsAgent;
let taskId = '';
const UNKNOWN = 'agent-does-not-exist-0000';
const PARIS = {
  tag: 'location:paris',
  lat: 48.8566,
  lng: 2.3522,
  displayName: 'Paris',
  country: 'FR',
};

async function http(method: string, path: string, k: string | undefined, body?: unknown) {
  const res = await fetch(`${h.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(k === undefined ? {} : { authorization: `Bearer ${k}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const raw = await res.text();
  return {
    status: res.status,
    body: (raw === '' ? null : JSON.parse(raw)) as Record<string, unknown>,
  };
}

/** A reply with the agent id replaced, so "private" and "unknown" can be compared whole. */
function neutral(v: unknown, agentId: string): string {
  return JSON.stringify(v).replaceAll(agentId, '<id>');
}

beforeAll(async () => {
  h = await startAgentHub();
  t.a = await h.tenant('iso-a');
  t.b = await h.tenant('iso-b');
  t.empty = await h.tenant('iso-empty');
  for (const [name, tenant, visibility] of [
    ['alice', t.a, 'private'],
    ['bob', t.a, 'private'],
    ['carol', t.a, 'private'],
    ['pub', t.a, 'public'],
    ['mallory', t.b, 'private'],
  ] as const) {
    const c = await createAgent(h.hub.sql, {
      tenantId: tenant,
      name: `${name} zebrafish`,
      description: 'studies zebrafish',
      visibility,
    });
    id[name] = c.agent.id;
    key[name] = c.apiKey;
  }
  for (const who of ['bob', 'pub']) {
    await updateAgentSettings(h.hub.sql, id[who]!, { tags: [PARIS.tag], locations: [PARIS] });
  }
  key.adminA = (await issueAdminKey(h.hub.sql, t.a)).key;
  key.adminB = (await issueAdminKey(h.hub.sql, t.b)).key;
  key.adminEmpty = (await issueAdminKey(h.hub.sql, t.empty)).key;
  bob = await connectWsAgent(h.url, key.bob);
  // One open task between alice and bob: bob receives it and does not answer yet.
  const sent = await rpc(h.url, key.alice, 'SendMessage', {
    message: text('for bob only'),
    configuration: { agentId: id.bob },
  });
  taskId = (sent.result as { id: string }).id;
  await bob.next('message');
});

afterAll(async () => {
  await bob?.close();
  await h?.close();
});

describe('a private agent is invisible to other tenants', () => {
  const ids = (r: { body: Record<string, unknown> }) =>
    ((r.body.agents ?? []) as Array<{ id: string }>).map((a) => a.id);

  it('in search and nearby (its own tenant sees it)', async () => {
    const search = '/api/discover/agents?q=zebrafish';
    const nearby = `/api/discover/agents/nearby?lat=${PARIS.lat}&lng=${PARIS.lng}&radius=5`;
    for (const path of [search, nearby]) {
      const stranger = await http('GET', path, key.mallory);
      const anonymous = await http('GET', path, undefined);
      const own = await http('GET', path, key.alice);
      console.log(
        `${path}: mallory ${ids(stranger).length}, anonymous ${ids(anonymous).length}, alice ${ids(own).length} agents`
      );
      expect(ids(stranger)).toContain(id.pub);
      expect(ids(stranger)).not.toContain(id.bob);
      expect(ids(anonymous)).not.toContain(id.bob);
      expect(ids(own)).toContain(id.bob);
    }
  });

  it.each([
    ['detail', (a: string) => ['GET', `/api/discover/agents/${a}`]],
    ['locations', (a: string) => ['GET', `/api/discover/agents/${a}/locations`]],
    ['agent card', (a: string) => ['GET', `/agents/${a}/.well-known/agent-card.json`]],
    ['legacy agent card', (a: string) => ['GET', `/agents/${a}/.well-known/agent.json`]],
    ['rating', (a: string) => ['POST', `/api/discover/agents/${a}/rate`]],
    ['settings', (a: string) => ['GET', `/api/agents/${a}`]],
    ['settings change', (a: string) => ['PATCH', `/api/agents/${a}`]],
  ] as const)('in its %s: the same answer as for an unknown agent', async (_what, route) => {
    for (const k of [key.mallory, key.adminB]) {
      const [method = '', path = ''] = route(id.bob!);
      const [, unknownPath = ''] = route(UNKNOWN);
      const body =
        method === 'GET'
          ? undefined
          : method === 'POST'
            ? { rating: 5 }
            : { description: 'mine now' };
      const hidden = await http(method, path, k, body);
      const unknown = await http(method, unknownPath, k, body);
      expect(hidden.status).toBeGreaterThanOrEqual(400);
      expect(hidden.status).toBe(unknown.status);
      expect(neutral(hidden.body, id.bob!)).toBe(neutral(unknown.body, UNKNOWN));
    }
    // The owner's tenant reaches it (the route works; the refusal above is isolation).
    const [method = '', path = ''] = route(id.bob!);
    if (method === 'GET') expect((await http(method, path, key.adminA)).status).toBe(200);
  });

  it('when messaged or named in a task call: the same bytes as for an unknown agent (issue 18)', async () => {
    // Decisions.md §5: only its own tenant may see a private agent, so -32015 (Forbidden) would
    // tell a stranger that it exists. Every endpoint answers exactly as for an id that was never
    // issued: /a2a, the per-agent endpoint in both dialects, and JSON-RPC over the WebSocket.
    // The same JSON-RPC id for both calls, so only the agent id differs.
    const raw = async (path: string, method: string, params: unknown, version = '1.0') => {
      const res = await fetch(`${h.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': version,
          authorization: `Bearer ${key.mallory}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
      });
      return `${res.status} ${await res.text()}`;
    };
    const send = (agentId: string) => ({
      message: { ...text('hi'), messageId: 'm-same' },
      configuration: { agentId },
    });
    const calls: Array<[string, (a: string) => Promise<string>]> = [
      ['/a2a SendMessage', (a) => raw('/a2a', 'SendMessage', send(a))],
      ['/a2a message/send', (a) => raw('/a2a', 'message/send', send(a))],
      [
        'per-agent SendMessage v1.0',
        (a) => raw(`/agents/${a}/a2a`, 'SendMessage', { message: send(a).message }),
      ],
      [
        'per-agent message/send v0.3',
        (a) =>
          raw(
            `/agents/${a}/a2a`,
            'message/send',
            { message: { ...send(a).message, kind: 'message' } },
            '0.3'
          ),
      ],
      ['per-agent ListTasks', (a) => raw(`/agents/${a}/a2a`, 'ListTasks', {})],
      ['per-agent GetTask', (a) => raw(`/agents/${a}/a2a`, 'GetTask', { id: taskId })],
    ];
    for (const [what, call] of calls) {
      const hidden = await call(id.bob!);
      const unknown = await call(UNKNOWN);
      console.log(`${what}: ${hidden}`);
      expect(neutral(hidden, id.bob!), what).toBe(neutral(unknown, UNKNOWN));
      expect(hidden, what).not.toMatch(/bob|zebrafish|Paris|-32015/);
    }
    const viaSocket = await connectWsAgent(h.url, key.mallory);
    try {
      const answers: string[] = [];
      viaSocket.ws.on('message', (d: Buffer) => {
        const s = d.toString();
        if (s.includes('"jsonrpc"')) answers.push(s);
      });
      // One at a time: both answers carry id 7, and two calls in flight may finish in either order.
      for (const [i, agentId] of [id.bob!, UNKNOWN].entries()) {
        viaSocket.send({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params: send(agentId) });
        await vi.waitFor(() => expect(answers).toHaveLength(i + 1));
      }
      console.log(`websocket SendMessage: ${answers[0]}`);
      expect(neutral(answers[0], id.bob!)).toBe(neutral(answers[1], UNKNOWN));
      expect(answers[0]).toContain('-32016');
    } finally {
      await viaSocket.close();
    }
    // Nothing reached bob.
    expect(bob.frames.filter((f) => f.type === 'message')).toHaveLength(1);
  });

  it('its own tenant may still message it', async () => {
    const r = await rpc(h.url, key.carol, 'SendMessage', {
      message: text('for bob, from carol'),
      configuration: { agentId: id.bob },
    });
    expect(r.error).toBeUndefined();
    await bob.next('message');
  });

  it('an admin key, which sees the agent, is refused with -32015', async () => {
    const r = await rpc(h.url, key.adminA, 'SendMessage', {
      message: text('from the admin'),
      configuration: { agentId: id.pub },
    });
    expect(r.error?.code).toBe(-32015);
  });
});

describe('a task is visible only to its two parties', () => {
  const unknownTask = 'task-00000000-0000-4000-8000-000000000000';

  it.each(['mallory', 'carol'])(
    '%s gets "not found" from GetTask, CancelTask and SubscribeToTask',
    async (who) => {
      for (const method of ['GetTask', 'CancelTask', 'SubscribeToTask']) {
        const theirs = await rpc(h.url, key[who], method, { id: taskId });
        const unknown = await rpc(h.url, key[who], method, { id: unknownTask });
        expect(theirs.error?.code, method).toBe(-32001);
        expect(neutral(theirs.error, taskId), method).toBe(neutral(unknown.error, unknownTask));
      }
      const direct = await rpc(h.url, key[who], 'GetTask', { id: taskId }, `/agents/${id.bob}/a2a`);
      expect(direct.error).toBeDefined();
    }
  );

  it.each(['mallory', 'carol'])('%s does not see it in ListTasks; the parties do', async (who) => {
    const listed = async (k: string | undefined) =>
      (
        (await rpc(h.url, k, 'ListTasks', {})).result?.tasks as Array<{ id: string }> | undefined
      )?.map((x) => x.id) ?? [];
    expect(await listed(key[who])).not.toContain(taskId);
    expect(await listed(key.alice)).toContain(taskId);
    expect(await listed(key.bob)).toContain(taskId);
  });

  it('a stranger cannot answer it over the WebSocket, and it stays open', async () => {
    const mallory = await connectWsAgent(h.url, key.mallory);
    mallory.send({
      type: 'task_response',
      taskId,
      status: { state: 'completed', message: 'hijacked' },
    });
    const err = await mallory.next('error');
    expect(err).toMatchObject({ taskId });
    await mallory.close();
    const task = await rpc(h.url, key.alice, 'GetTask', { id: taskId });
    expect((task.result as { status: { state: string } }).status.state).not.toBe('completed');
    expect(JSON.stringify(task.result)).not.toContain('hijacked');
  });
});

describe("one tenant's settings, usage and webhooks are out of another's reach", () => {
  it('usage and statistics of another tenant look like those of an empty tenant', async () => {
    for (const path of ['/api/usage', '/api/messages/stats/summary']) {
      const b = await http('GET', path, key.adminB);
      const empty = await http('GET', path, key.adminEmpty);
      const a = await http('GET', path, key.adminA);
      expect(b.status).toBe(200);
      expect(b.body).toEqual(empty.body);
      // Tenant A's traffic is there for A: the comparison above is not between two empty answers.
      expect(a.body).not.toEqual(empty.body);
    }
  });

  it("another tenant's admin cannot see, test or delete a webhook", async () => {
    const created = await http('POST', '/api/webhooks', key.adminA, {
      url: 'http://127.0.0.1:9/hook',
      events: ['credits.purchased'],
    });
    expect(created.status).toBe(201);
    const hookId = (created.body.webhook as { id: string }).id;
    expect((await http('GET', '/api/webhooks', key.adminB)).body.webhooks).toEqual([]);
    for (const [method, path] of [
      ['POST', `/api/webhooks/${hookId}/test`],
      ['DELETE', `/api/webhooks/${hookId}`],
    ] as const) {
      const theirs = await http(method, path, key.adminB);
      const unknown = await http(method, path.replace(hookId, 'wh-unknown'), key.adminB);
      expect(theirs.status).toBe(404);
      expect(neutral(theirs.body, hookId)).toBe(neutral(unknown.body, 'wh-unknown'));
    }
    expect((await http('GET', '/api/webhooks', key.adminA)).body.webhooks).toHaveLength(1);
  });
});

describe('forged x-hub and tenant fields are stripped', () => {
  it("the recipient sees the hub's envelope naming the real sender", async () => {
    const forged = forgedEnvelope(id.bob!);
    const pending = rpc(h.url, key.mallory, 'SendMessage', {
      message: {
        ...text('who am I?'),
        metadata: { 'x-hub': forged, tenantId: t.a, senderId: id.alice },
      },
      configuration: { agentId: id.pub, tenantId: t.a, senderId: id.alice },
      metadata: { 'x-hub': forged },
      'x-hub': forged,
      tenantId: t.a,
      senderId: id.alice,
      sender: { agentId: id.alice, tenantId: t.a },
    });
    const pub = await connectWsAgent(h.url, key.pub);
    const m = await pub.next('message');
    await pub.close();
    void pending;
    expect(m.from).toBe(id.mallory);
    const envelope = (m.metadata as { 'x-hub': unknown })['x-hub'];
    const jwks = (await (await fetch(`${h.url}/.well-known/hub-keys.json`)).json()) as JwksInput;
    const v = verifyEnvelope(envelope, jwks, { now: Date.now() });
    expect(v.ok).toBe(true);
    expect(v.ok && v.envelope.sender).toEqual({ agentId: id.mallory, tenantId: t.b });
    expect(JSON.stringify(m)).not.toContain('agent-forged');
    expect(JSON.stringify(m)).not.toContain('"sig":"AAAA"');
  });

  it("an official agent's data stays with its owner whatever identity is forged", async () => {
    const JSON_OUT = ['application/json'];
    const stored = await ask(
      h.url,
      key.alice!,
      'memory',
      { action: 'store', content: 'the vault code is 4711' },
      { accept: JSON_OUT }
    );
    expect(stored.state, stored.statusText).toBe('completed');
    const f = forgedIdentity('agent-memory-official', { agentId: id.alice!, tenantId: t.a });
    for (const who of ['mallory', 'carol']) {
      const recall = await ask(
        h.url,
        key[who]!,
        'memory',
        { action: 'recall', query: 'vault code', ...f.body },
        { accept: JSON_OUT, params: f.params }
      );
      expect(recall.error).toBeUndefined();
      expect((recall.data as { results: unknown[] }).results, who).toEqual([]);
      expect(JSON.stringify(recall.task)).not.toContain('4711');
    }
  });
});
