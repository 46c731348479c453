// The SDK's hub client against a running hub (real fetch): every kind of call, a task stream cut
// by a local TCP proxy and resumed with Last-Event-ID (nothing twice, nothing missed), typed
// errors per code, and retries honouring Retry-After (the hub's rate limit; a local 503 server).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentHub, type AgentHub } from '../support/official-agents.js';
import { until } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { setTenantRateLimit } from '../../infra/db/index.js';
import {
  AgentNotFoundError,
  HubClient,
  InvalidParamsError,
  NotFoundError,
  QueueFullError,
  RateLimitedError,
  RecipientOfflineError,
  SenderThrottledError,
  TaskNotCancelableError,
  TaskNotFoundError,
  TenantQueueFullError,
  UnauthenticatedError,
  UnavailableError,
  type RetryInfo,
  type StreamEvent,
} from '../../sdk/client/index.js';

interface Agent {
  id: string;
  key: string;
}

const RATE_LIMIT = 3;
let h: AgentHub;
let bobWs: TestWsAgent;
const a: Record<string, Agent> = {};
/** One client per agent, on the hub directly. */
const c: Record<string, HubClient> = {};
let rateScenario: Promise<RateScenario>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const noRetry = { retry: { maxAttempts: 1 } };

beforeAll(async () => {
  // Small queue limits, so that every queue refusal is a few messages away.
  h = await startAgentHub({ QUEUE_SENDER_MAX_PENDING: '3', QUEUE_TENANT_MAX_PENDING: '6' });
  const acme = await h.tenant('Acme');
  const queues = await h.tenant('Queues');
  const limited = await h.tenant('Limited');
  await setTenantRateLimit(h.hub.sql, limited, RATE_LIMIT);
  for (const name of ['alice', 'bob', 'olga']) a[name] = await h.agent(acme, name);
  for (const name of ['qa', 'qb', 'r1', 'r2']) a[name] = await h.agent(queues, name);
  for (const name of ['l1', 'l2']) a[name] = await h.agent(limited, name);
  for (const [name, agent] of Object.entries(a)) {
    c[name] = new HubClient({ url: h.url, apiKey: agent.key });
  }
  bobWs = await connectWsAgent(h.url, a.bob!.key);
  await until(() => h.hub.presence.isOnline(a.bob!.id));
  // Waits for the end of a rate-limit window; it runs while the other tests do.
  rateScenario = runRateScenario();
  rateScenario.catch(() => undefined);
});

afterAll(async () => {
  await bobWs?.close();
  await h?.close();
});

/** Bob answers one chunk of a task over his WebSocket. */
function chunk(taskId: string, n: number, last = false): void {
  bobWs.send({
    type: 'task_response',
    taskId,
    status: { state: last ? 'completed' : 'working' },
    artifact: { artifactId: 'story', name: 'story', parts: [{ kind: 'text', text: `part ${n};` }] },
    lastChunk: last,
  });
}

describe('messaging', () => {
  it('send blocking to an alias, with configuration: the settled task', async () => {
    const task = await c.alice!.sendText('echo', 'hello sdk', {
      blocking: true,
      historyLength: 0,
      acceptedOutputModes: ['text/plain'],
      metadata: { trace: 't-1' },
    });
    expect(task.status.state).toBe('completed');
    expect(task.metadata?.agentId).toBe('agent-echo-official');
    expect(task.messages).toEqual([]);
    const text = (task.artifacts ?? [])
      .flatMap((x) => x.parts)
      .map((p) => ('text' in p ? p.text : ''));
    expect(text.join(' ')).toContain('hello sdk');
  });

  it('send non-blocking, getTask with historyLength, listTasks with filters and pages', async () => {
    const sent = await c.alice!.send({
      agentId: a.bob!.id,
      text: 'first',
      parts: [{ kind: 'data', mimeType: 'application/json', data: '{"n":1}' }],
      metadata: { priority: 'high' },
    });
    expect(sent.status.state).toBe('submitted');
    const frame = await bobWs.next('message');
    expect(frame).toMatchObject({
      taskId: sent.id,
      contextId: sent.contextId,
      payload: {
        parts: [
          { kind: 'text', text: 'first' },
          { kind: 'data', mimeType: 'application/json', data: '{"n":1}' },
        ],
      },
    });
    bobWs.send({
      type: 'task_response',
      taskId: sent.id,
      status: { state: 'completed', message: 'done' },
    });
    await until(async () => (await c.alice!.getTask(sent.id)).status.state === 'completed');
    const full = await c.alice!.getTask(sent.id);
    const one = await c.alice!.getTask(sent.id, { historyLength: 1 });
    expect(full.messages!.length).toBeGreaterThan(0);
    expect(one.messages).toHaveLength(1);

    const second = await c.alice!.send({
      agentId: a.bob!.id,
      text: 'second',
      contextId: sent.contextId,
    });
    expect(second.contextId).toBe(sent.contextId);
    await bobWs.next('message');
    await until(
      async () => (await c.alice!.listTasks({ contextId: sent.contextId })).totalSize === 2
    );
    const page1 = await c.alice!.listTasks({ contextId: sent.contextId, pageSize: 1 });
    expect(page1.tasks).toHaveLength(1);
    expect(page1.nextPageToken).not.toBe('');
    const page2 = await c.alice!.listTasks({
      contextId: sent.contextId,
      pageSize: 1,
      pageToken: page1.nextPageToken,
    });
    expect(new Set([page1.tasks[0]!.id, page2.tasks[0]!.id])).toEqual(
      new Set([sent.id, second.id])
    );
    const done = await c.alice!.listTasks({ contextId: sent.contextId, status: 'completed' });
    expect(done.tasks.map((t) => t.id)).toEqual([sent.id]);
    const all = [];
    for await (const t of c.alice!.allTasks({ contextId: sent.contextId, pageSize: 1 }))
      all.push(t.id);
    expect(all.sort()).toEqual([sent.id, second.id].sort());
    // Bob sees the same tasks from the other side.
    expect((await c.bob!.getTask(sent.id)).id).toBe(sent.id);
  });

  it('reply by contextId goes to the other party; a repeated messageId is the same task', async () => {
    const sent = await c.alice!.sendText(a.bob!.id, 'can you hear me?');
    await bobWs.next('message');
    // The hub finds the other party in its task index, which it writes a few ms after a send.
    await until(async () => (await c.bob!.listTasks({ contextId: sent.contextId })).totalSize > 0);
    const reply = await c.bob!.reply(sent.contextId, 'loud and clear');
    expect(reply.contextId).toBe(sent.contextId);
    expect(reply.metadata?.agentId).toBe(a.alice!.id);
    expect(reply.id).not.toBe(sent.id);

    const once = await c.alice!.sendText(a.olga!.id, 'dedupe me', { messageId: 'msg-sdk-dedupe' });
    const twice = await c.alice!.sendText(a.olga!.id, 'dedupe me', { messageId: 'msg-sdk-dedupe' });
    expect(twice.id).toBe(once.id);
  });

  it('cancelTask cancels a queued task; a second cancel is TaskNotCancelable', async () => {
    const queued = await c.alice!.sendText(a.olga!.id, 'for later', { ttlSeconds: 3600 });
    expect(queued.status.state).toBe('submitted');
    const canceled = await c.alice!.cancelTask(queued.id);
    expect(canceled.status.state).toBe('canceled');
    const err = await c.alice!.cancelTask(queued.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotCancelableError);
    expect(err).toMatchObject({ code: 'TASK_NOT_CANCELABLE', rpcCode: -32002 });
  });
});

describe('streams', () => {
  it('resumes a dropped stream with Last-Event-ID: every event once, in order', async () => {
    const proxy = await startCuttingProxy(h.url, 2);
    try {
      const viaProxy = new HubClient({ url: proxy.url, apiKey: a.alice!.key });
      const stream = viaProxy.stream({ agentId: a.bob!.id, text: 'tell a story' });
      const got: StreamEvent[] = [];
      const ids: Array<string | undefined> = [];
      for await (const event of stream) {
        got.push(event);
        ids.push(stream.lastEventId);
        if (got.length === 2) {
          // The proxy has cut the connection after these two; Bob writes while the client is away.
          await bobWs.next('message');
          chunk(stream.taskId!, 1);
          chunk(stream.taskId!, 2);
        }
        // The rest arrives live on the resumed connection.
        if (got.length === 4) chunk(stream.taskId!, 3);
        if (got.length === 5) chunk(stream.taskId!, 4, true);
      }
      expect(proxy.cuts).toBe(1);
      expect(stream.reconnects).toBe(1);
      expect(ids).toEqual(got.map((_, i) => String(i + 1)));
      expect(got.map((e) => e.kind)).toEqual([
        'task',
        'status-update',
        'artifact-update',
        'artifact-update',
        'artifact-update',
        'artifact-update',
        'status-update',
      ]);
      expect(got[0]).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
      expect(got[1]).toMatchObject({ status: { state: 'working' }, final: false });
      const texts = got.flatMap((e) =>
        e.kind === 'artifact-update' ? e.artifact.parts.map((p) => ('text' in p ? p.text : '')) : []
      );
      expect(texts).toEqual(['part 1;', 'part 2;', 'part 3;', 'part 4;']);
      expect(got.at(-1)).toMatchObject({ status: { state: 'completed' }, final: true });

      // A later subscription to the finished task: the task as it stands, then the end.
      const again: StreamEvent[] = [];
      for await (const e of c.alice!.subscribe(stream.taskId!)) again.push(e);
      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      // Resuming after the fifth event gives exactly the two after it.
      const tail: StreamEvent[] = [];
      for await (const e of c.alice!.subscribe(stream.taskId!, { lastEventId: '5' })) tail.push(e);
      expect(tail.map((e) => e.kind)).toEqual(['artifact-update', 'status-update']);
    } finally {
      await proxy.close();
    }
  });

  it('a refused stream throws the typed error before any event', async () => {
    const err = await (async () => {
      for await (const _ of c.alice!.subscribe('task-does-not-exist')) {
        // no event expected
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotFoundError);
  });
});

describe('discovery, usage and settings', () => {
  it('settings: get and patch (tags with a location, visibility, category)', async () => {
    const before = await c.alice!.agentSettings(a.alice!.id);
    expect(before).toMatchObject({
      agentId: a.alice!.id,
      visibility: 'private',
      queue_max_pending: 500,
    });
    const after = await c.alice!.updateAgentSettings(a.alice!.id, {
      tags: ['kayak', 'location:Lyon'],
      visibility: 'public',
      category: 'sdk-testing',
      description: 'Books kayak tours on the Rhône',
      queue_ttl_seconds: 86_400,
      docsUrl: 'https://kayak.example.org/docs',
    });
    expect(after).toMatchObject({
      visibility: 'public',
      category: 'sdk-testing',
      tags: ['kayak', 'location:Lyon'],
      queue_ttl_seconds: 86_400,
      websiteUrl: null,
      docsUrl: 'https://kayak.example.org/docs',
    });
    expect(await c.alice!.agentSettings(a.alice!.id)).toEqual(after);
    const bad = await c
      .alice!.updateAgentSettings(a.alice!.id, { queue_max_pending: -1 })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidParamsError);
    expect(bad).toMatchObject({ httpStatus: 400, code: 'INVALID_PARAMS' });
  });

  it('search with every parameter, categories, detail, rate, nearby, locations', async () => {
    const anonymous = new HubClient({ url: h.url });
    const found = await anonymous.searchAgents({
      q: 'kayak',
      category: 'sdk-testing',
      tag: 'kayak',
      owner: 'Acme',
      sort: 'rating',
      limit: 5,
      offset: 0,
      country: 'FR',
    });
    expect(found.agents.map((x) => x.id)).toEqual([a.alice!.id]);
    expect(found).toMatchObject({ count: 1, offset: 0 });
    expect((await anonymous.searchAgents({ q: 'kayak', verified: true })).agents).toEqual([]);
    const echo = await anonymous.searchAgents({
      skillTag: 'ping',
      contentMode: 'text/plain',
      sort: 'recent',
    });
    expect(echo.agents.map((x) => x.id)).toContain('agent-echo-official');
    // scope=tenant needs a key, and shows the tenant's private agents too.
    const mine = await c.bob!.searchAgents({ scope: 'tenant' });
    expect(mine.agents.map((x) => x.id)).toEqual(expect.arrayContaining([a.bob!.id, a.olga!.id]));
    expect(
      await anonymous.searchAgents({ scope: 'tenant' }).catch((e: unknown) => e)
    ).toBeInstanceOf(UnauthenticatedError);
    expect(await anonymous.searchAgents({ limit: 500 }).catch((e: unknown) => e)).toBeInstanceOf(
      InvalidParamsError
    );

    expect(await anonymous.categories()).toContainEqual({ name: 'sdk-testing', count: 1 });
    expect(await anonymous.featuredAgents()).toEqual([]);
    expect((await anonymous.searchAgents({ q: 'echo', pricing: 'free' })).agents[0]).toMatchObject({
      id: 'agent-echo-official',
      pricing: 'free',
      tenantSlug: 'official',
    });

    // Ratings come from other organizations.
    const rated = await c.qa!.rateAgent(a.alice!.id, { rating: 4, review: 'quick answers' });
    expect(rated).toEqual({ success: true, avgRating: 4, ratingCount: 1 });
    const detail = await anonymous.agentDetail(a.alice!.id);
    expect(detail.agent).toMatchObject({
      id: a.alice!.id,
      stats: { avgRating: 4, ratingCount: 1 },
    });
    expect(detail.reviews).toEqual([
      expect.objectContaining({ rating: 4, review: 'quick answers' }),
    ]);
    const missing = await anonymous.agentDetail('agent-000000000000').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ httpStatus: 404, code: 'NOT_FOUND' });

    const near = await anonymous.nearbyAgents({
      lat: 45.75,
      lng: 4.85,
      radius: 25,
      tag: 'kayak',
      limit: 5,
      offset: 0,
    });
    expect(near.agents.map((x) => x.id)).toEqual([a.alice!.id]);
    expect(near).toMatchObject({ center: { lat: 45.75, lng: 4.85 }, radius: 25, count: 1 });
    expect(near.agents[0]!.distance).toBeLessThan(25);
    expect(
      (await anonymous.nearbyAgents({ lat: -33.9, lng: 151.2, category: 'sdk-testing' })).agents
    ).toEqual([]);
    const locations = await anonymous.agentLocations(a.alice!.id);
    expect(locations).toEqual([expect.objectContaining({ tag: 'location:Lyon', country: 'FR' })]);
  });

  it('usage and message statistics of the calling agent', async () => {
    await c.alice!.sendText('echo', 'count me', { blocking: true });
    const today = new Date().toISOString().slice(0, 10);
    const sentToday = async () =>
      (await c.alice!.usage({ days: 7 })).find((u) => u.date === today)?.messages_sent ?? 0;
    // Both read the task index, which trails sends from earlier tests: compare once it settles.
    let stats = await c.alice!.messageStats({ days: 7 });
    await until(async () => {
      stats = await c.alice!.messageStats({ days: 7 });
      const sent = await sentToday();
      return sent > 0 && stats.summary.sent === sent;
    });
    expect(stats.summary.sent).toBeGreaterThan(0);
    expect(Array.isArray(stats.daily) && Array.isArray(stats.topAgents)).toBe(true);
    expect(await c.alice!.usage({ days: 400 }).catch((e: unknown) => e)).toBeInstanceOf(
      InvalidParamsError
    );
  });
});

describe('typed errors', () => {
  const caught = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e
    );

  it('TaskNotFound, AgentNotFound, InvalidParams, Unauthenticated (JSON-RPC and REST)', async () => {
    const gone = await caught(c.alice!.getTask('task-00000000-0000-0000-0000-000000000000'));
    expect(gone).toBeInstanceOf(TaskNotFoundError);
    expect(gone).toMatchObject({ code: 'TASK_NOT_FOUND', rpcCode: -32001, httpStatus: 200 });
    const nobody = await caught(c.alice!.sendText('agent-000000000000', 'hi'));
    expect(nobody).toMatchObject({ code: 'AGENT_NOT_FOUND', rpcCode: -32016 });
    expect(nobody).toBeInstanceOf(AgentNotFoundError);
    expect(await caught(c.alice!.listTasks({ pageToken: 'not-a-token' }))).toBeInstanceOf(
      InvalidParamsError
    );
    const stranger = new HubClient({ url: h.url, apiKey: 'bad-key' });
    const rpcErr = await caught(stranger.getTask('task-x'));
    expect(rpcErr).toBeInstanceOf(UnauthenticatedError);
    expect(rpcErr).toMatchObject({ rpcCode: -32010, httpStatus: 401 });
    const restErr = await caught(stranger.usage());
    expect(restErr).toBeInstanceOf(UnauthenticatedError);
    expect(restErr).toMatchObject({ code: 'UNAUTHENTICATED', httpStatus: 401 });
  });

  it('RecipientOffline: x-ttl 0 to an offline WebSocket agent', async () => {
    const err = await caught(c.alice!.sendText(a.olga!.id, 'now or never', { ttlSeconds: 0 }));
    expect(err).toBeInstanceOf(RecipientOfflineError);
    expect(err).toMatchObject({
      code: 'RECIPIENT_OFFLINE',
      rpcCode: -32011,
      data: { agentId: a.olga!.id },
    });
  });

  it('QueueFull, SenderThrottled and TenantQueueFull from small queue limits', async () => {
    await c.r1!.updateAgentSettings(a.r1!.id, { queue_max_pending: 2 });
    for (let i = 0; i < 2; i++) await c.qa!.sendText(a.r1!.id, `r1 #${i}`);
    const full = await caught(c.qa!.sendText(a.r1!.id, 'r1 #2', noRetry));
    expect(full).toBeInstanceOf(QueueFullError);
    expect(full).toMatchObject({ rpcCode: -32012, data: { limit: 'queue_max_pending', max: 2 } });

    // QUEUE_SENDER_MAX_PENDING is 3: a fourth message from qa to r2 is refused.
    for (let i = 0; i < 3; i++) await c.qa!.sendText(a.r2!.id, `r2 #${i}`);
    const throttled = await caught(c.qa!.sendText(a.r2!.id, 'r2 #3', noRetry));
    expect(throttled).toBeInstanceOf(SenderThrottledError);
    expect(throttled).toMatchObject({ rpcCode: -32013 });

    // QUEUE_TENANT_MAX_PENDING is 6: the tenant holds 5; qb adds the sixth, then is refused.
    await c.qb!.sendText(a.r2!.id, 'r2 from qb');
    const tenantFull = await caught(c.qb!.sendText(a.r2!.id, 'one too many', noRetry));
    expect(tenantFull).toBeInstanceOf(TenantQueueFullError);
    expect(tenantFull).toMatchObject({ rpcCode: -32014 });

    // Queue refusals are retried by default (nothing was created), then thrown as they are.
    const retries: RetryInfo[] = [];
    const patient = new HubClient({
      url: h.url,
      apiKey: a.qb!.key,
      retry: { maxAttempts: 3, baseDelayMs: 20, onRetry: (r) => retries.push(r) },
    });
    expect(await caught(patient.sendText(a.r2!.id, 'still too many'))).toBeInstanceOf(
      TenantQueueFullError
    );
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });

  it('RateLimited over the limit: -32017 with HTTP 429 and Retry-After', async () => {
    const l2 = new HubClient({ url: h.url, apiKey: a.l2!.key, ...noRetry });
    let err: unknown;
    for (let i = 0; i < 2 * RATE_LIMIT + 2 && err === undefined; i++) {
      err = await caught(l2.listTasks());
    }
    expect(err).toBeInstanceOf(RateLimitedError);
    const limited = err as RateLimitedError;
    expect(limited).toMatchObject({ rpcCode: -32017, httpStatus: 429 });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(60_000);
  });
});

describe('retries honour Retry-After', () => {
  it('the hub rate limit: the client waits for Retry-After, then succeeds', async () => {
    const r = await rateScenario;
    expect(r.refusedFirst).toBeInstanceOf(RateLimitedError);
    expect(r.retries).toHaveLength(1);
    const wanted = r.retries[0]!.error.retryAfterMs!;
    expect(r.retries[0]!.error).toBeInstanceOf(RateLimitedError);
    expect(wanted).toBeGreaterThan(0);
    // At least the wait asked for; one retry (above) shows it did not wait twice.
    expect(r.elapsedMs).toBeGreaterThanOrEqual(wanted);
    // It waited into the next window, which is why the retry was admitted.
    expect(Math.floor(r.finishedAt / 60_000)).toBeGreaterThan(Math.floor(r.startedAt / 60_000));
    expect(Array.isArray(r.usage)).toBe(true);
  }, 90_000);

  it('a 503 with Retry-After: 1 is retried after a second (GET, and SendMessage with one messageId)', async () => {
    const server = await startFlakyServer([
      {
        status: 503,
        headers: { 'retry-after': '1' },
        body: '{"error":{"code":"UNAVAILABLE","message":"down"}}',
      },
      { status: 200, body: '{"categories":[{"name":"x","count":1}]}' },
      {
        status: 503,
        headers: { 'retry-after': '1', 'content-type': 'text/html' },
        body: '<h1>503</h1>',
      },
      {
        status: 200,
        body: '{"jsonrpc":"2.0","id":1,"result":{"id":"task-1","contextId":"ctx-1","status":{"state":"submitted"}}}',
      },
    ]);
    try {
      const client = new HubClient({ url: server.url, apiKey: 'k' });
      let t0 = Date.now();
      expect(await client.categories()).toEqual([{ name: 'x', count: 1 }]);
      const getMs = Date.now() - t0;
      t0 = Date.now();
      const task = await client.sendText('agent-x', 'hi');
      const sendMs = Date.now() - t0;
      expect(task.id).toBe('task-1');
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /api/discover/categories',
        'GET /api/discover/categories',
        'POST /a2a',
        'POST /a2a',
      ]);
      // At least the second asked for; the four requests above show one retry each.
      for (const ms of [getMs, sendMs]) expect(ms).toBeGreaterThanOrEqual(1000);
      // The retried send is the same message, so the hub's dedupe makes it one task.
      const [first, second] = server.requests.slice(2).map((r) => JSON.parse(r.body) as SentBody);
      expect(first!.params.message.messageId).toMatch(/^msg-/);
      expect(second!.params.message.messageId).toBe(first!.params.message.messageId);
    } finally {
      await server.close();
    }
  });

  it('an HTTP-date Retry-After, and no retry of a call that could act twice', async () => {
    const server = await startFlakyServer([
      {
        status: 429,
        headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() },
        body: '',
      },
      { status: 200, body: '{"usage":[]}' },
      { status: 503, body: '' },
    ]);
    try {
      const client = new HubClient({ url: server.url, apiKey: 'k' });
      const t0 = Date.now();
      expect(await client.usage()).toEqual([]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
      // CancelTask twice could cancel once and then fail: a 503 is not retried.
      const err = await client.cancelTask('task-1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnavailableError);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

// ---- helpers ----------------------------------------------------------------------------------

interface SentBody {
  params: { message: { messageId: string } };
}

interface RateScenario {
  refusedFirst: unknown;
  retries: RetryInfo[];
  usage: unknown;
  elapsedMs: number;
  startedAt: number;
  finishedAt: number;
}

/** l1 spends its limit, then a patient call waits out the window's Retry-After and succeeds. */
async function runRateScenario(): Promise<RateScenario> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 3000) await sleep(left + 100);
  const eager = new HubClient({ url: h.url, apiKey: a.l1!.key, ...noRetry });
  for (let i = 0; i < RATE_LIMIT; i++) await eager.usage();
  const refusedFirst = await eager.usage().catch((e: unknown) => e);
  const retries: RetryInfo[] = [];
  const patient = new HubClient({
    url: h.url,
    apiKey: a.l1!.key,
    retry: { maxAttempts: 2, maxDelayMs: 61_000, onRetry: (r) => retries.push(r) },
  });
  const startedAt = Date.now();
  const usage = await patient.usage();
  const finishedAt = Date.now();
  return { refusedFirst, retries, usage, elapsedMs: finishedAt - startedAt, startedAt, finishedAt };
}

interface CuttingProxy {
  url: string;
  readonly cuts: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy to the hub that, once, ends the client's connection right after the `afterEvents`-th
 * SSE event of a stream has passed through (the hub side is destroyed): a dropped stream.
 */
async function startCuttingProxy(target: string, afterEvents: number): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  let cutsLeft = 1;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let seen = '';
    let streaming = false;
    client.pipe(upstream);
    upstream.on('data', (data: Buffer) => {
      client.write(data);
      if (cutsLeft === 0) return;
      seen += data.toString('latin1');
      if (!streaming) {
        const at = seen.indexOf('text/event-stream');
        streaming = at >= 0;
        seen = streaming ? seen.slice(at) : seen.slice(-64);
      }
      if (streaming && seen.split('data: ').length - 1 >= afterEvents) {
        cutsLeft--;
        cuts++;
        upstream.destroy();
        client.end();
      }
    });
    upstream.on('end', () => client.end());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get cuts() {
      return cuts;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

interface Canned {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** An HTTP server giving the canned answers in order and recording each request. */
async function startFlakyServer(answers: Canned[]) {
  const requests: Array<{ method: string; url: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      const answer = answers[requests.length - 1] ?? { status: 500, body: 'no more answers' };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
