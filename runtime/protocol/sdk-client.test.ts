// The official A2A client (@a2a-js/sdk 1.3) against this package, with no network: a fetch double
// answers the SDK's real requests with our cards, tolerant params parsing and codecs, so both what
// the SDK sends (v1.0 and v0.3) and what it reads back are checked end to end.
import { Role, SendMessageRequest, TaskState, type StreamResponse } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { describe, expect, it } from 'vitest';
import { ensureHubError, HubError, MethodNotFoundError } from '../errors/index.js';
import { AgentCardInput } from './card-input.js';
import { cardV03, cardV1 } from './cards.js';
import {
  encodeListTasksV1,
  encodeSendResultV1,
  encodeStreamEventV1,
  encodeStreamTaskV1,
  encodeTaskV1,
} from './codec-v1.js';
import { encodeStreamEventV03, encodeTaskV03 } from './codec-v03.js';
import type { StandardDialect } from './dialect.js';
import { GetTaskParams, ListTasksParams } from './hub-schema.js';
import { normalizeMethod, RpcMethod } from './methods.js';
import type { Task } from './model.js';
import { parseParams } from './parse-params.js';
import { encodeRpcError } from './rpc-errors.js';
import { decodeSendMessage, type SendRequest } from './send-request.js';
import { negotiateVersion } from './version.js';

const PUBLIC_URL = 'https://hub.example';
const AGENT_ID = 'agent-echo-official';
const AGENT_BASE = `${PUBLIC_URL}/agents/${AGENT_ID}/`;
const PNG = 'iVBORw0KGgo=';
const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);

const card = AgentCardInput.parse({
  name: 'Echo',
  description: 'Echoes what it gets',
  url: 'https://echo.internal/a2a',
  version: '1.2.0',
  capabilities: { streaming: false, pushNotifications: false },
  skills: [{ id: 'echo', name: 'Echo', description: 'echo', tags: ['test'] }],
});

/** The hub's answer to one message: an echo, completed, with the events a real task records. */
function echoTask(req: SendRequest, n: number): Task {
  const ids = { contextId: req.contextId ?? `ctx-${n}`, taskId: `task-${n}` };
  const reply = {
    role: 'agent' as const,
    parts: [{ kind: 'text' as const, text: 'echo' }],
    messageId: `r-${n}`,
    ...ids,
  };
  const artifact = { artifactId: `a-${n}`, name: 'echo', parts: req.message.parts };
  const done = { state: 'completed' as const, timestamp: T0 + 2, message: 'echoed' };
  return {
    id: ids.taskId,
    contextId: ids.contextId,
    senderId: 'agent-000000000001',
    recipientId: AGENT_ID,
    senderTenantId: 'tn-1',
    recipientTenantId: 'tn-2',
    createdAt: T0,
    status: done,
    messages: [{ ...req.message, ...ids }, reply],
    artifacts: [artifact],
    events: [
      { rev: 1, type: 'status', status: { state: 'submitted', timestamp: T0 } },
      { rev: 2, type: 'status', status: { state: 'working', timestamp: T0 + 1 } },
      {
        rev: 3,
        type: 'artifact',
        artifactId: artifact.artifactId,
        append: false,
        lastChunk: true,
        parts: artifact.parts,
      },
      { rev: 4, type: 'message', message: reply },
      { rev: 5, type: 'status', status: done },
    ],
    rev: 5,
  };
}

interface Seen {
  dialect: StandardDialect;
  method: string;
  request?: SendRequest;
}

/** A fetch that plays the hub's per-agent endpoint with this package's pieces. */
function fakeHub() {
  const tasks = new Map<string, Task>();
  const seen: Seen[] = [];
  const target = { publicUrl: PUBLIC_URL, agentId: AGENT_ID };

  function handle(input: string | URL | Request, init?: RequestInit): Response {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if ((init?.method ?? 'GET') === 'GET') {
      if (url.pathname.endsWith('/agent-card.json')) return Response.json(cardV1(card, target));
      if (url.pathname.endsWith('/agent-card-v03.json')) {
        return Response.json(cardV03(card, target));
      }
      return new Response('not found', { status: 404 });
    }
    const body = JSON.parse(init?.body as string) as {
      id: number;
      method: string;
      params: unknown;
    };
    const dialect = negotiateVersion(new Headers(init?.headers).get('A2A-Version') ?? undefined);
    const entry: Seen = { dialect, method: body.method };
    seen.push(entry);
    try {
      const result = answer(normalizeMethod(body.method), body.params, dialect, entry);
      if (!Array.isArray(result)) return Response.json({ jsonrpc: '2.0', id: body.id, result });
      const sse = result
        .map((r) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: r })}\n\n`)
        .join('');
      return new Response(sse, { headers: { 'Content-Type': 'text/event-stream' } });
    } catch (err) {
      const error = encodeRpcError(ensureHubError(err), dialect);
      return Response.json({ jsonrpc: '2.0', id: body.id, error });
    }
  }

  /** A JSON-RPC result, or an array of results for an SSE stream. */
  function answer(
    method: RpcMethod | undefined,
    params: unknown,
    dialect: StandardDialect,
    entry: Seen
  ): unknown {
    if (method === RpcMethod.SendMessage || method === RpcMethod.SendStreamingMessage) {
      const request = decodeSendMessage(params, dialect);
      entry.request = request;
      const task = echoTask(request, tasks.size + 1);
      tasks.set(task.id, task);
      if (method === RpcMethod.SendMessage) {
        return dialect === 'v1' ? encodeSendResultV1(task) : encodeTaskV03(task);
      }
      return dialect === 'v1'
        ? [encodeStreamTaskV1(task), ...task.events.map((e) => encodeStreamEventV1(task, e))]
        : [encodeTaskV03(task), ...task.events.map((e) => encodeStreamEventV03(task, e))];
    }
    if (method === RpcMethod.GetTask) {
      const p = parseParams(GetTaskParams, params);
      const task = tasks.get(p.id);
      if (task === undefined) throw new HubError('TASK_NOT_FOUND', `Task not found: ${p.id}`);
      const view = { historyLength: p.historyLength };
      return dialect === 'v1' ? encodeTaskV1(task, view) : encodeTaskV03(task, view);
    }
    if (method === RpcMethod.ListTasks) {
      const p = parseParams(ListTasksParams, params);
      const list = [...tasks.values()].filter(
        (t) => p.status === undefined || t.status.state === p.status
      );
      const page = { nextPageToken: '', pageSize: p.pageSize, totalSize: list.length };
      return encodeListTasksV1(list, page);
    }
    throw new MethodNotFoundError(String(method));
  }

  const fetchImpl: typeof fetch = (input, init) => Promise.resolve(handle(input, init));
  return { fetchImpl, seen };
}

function sendRequest(): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: 'm-1',
      role: 'ROLE_USER',
      parts: [
        { text: 'hello' },
        { data: { q: 1 } },
        { raw: PNG, mediaType: 'image/png', filename: 'p.png' },
      ],
    },
  });
}

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

async function client(cardPath: string, hub: ReturnType<typeof fakeHub>): Promise<Client> {
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl: hub.fetchImpl, legacyCompat: { enabled: true } }),
    ],
    cardResolver: new DefaultAgentCardResolver({
      fetchImpl: hub.fetchImpl,
      legacyCompat: { enabled: true },
    }),
  });
  return factory.createFromUrl(AGENT_BASE, cardPath);
}

describe('@a2a-js/sdk client, A2A v1.0', () => {
  it('reads the v1.0 card and picks its 1.0 JSON-RPC interface', async () => {
    const hub = fakeHub();
    const c = await client('.well-known/agent-card.json', hub);
    expect(c.protocolVersion).toBe('1.0');
    const got = await c.getAgentCard();
    expect(got.supportedInterfaces.map((i) => i.protocolVersion)).toEqual(['1.0', '0.3']);
    expect(got.securitySchemes.bearer?.scheme?.$case).toBe('httpAuthSecurityScheme');
    expect(got.capabilities?.streaming).toBe(true);
  });

  it('sends a message and reads the task back', async () => {
    const hub = fakeHub();
    const c = await client('.well-known/agent-card.json', hub);
    const result = await c.sendMessage(sendRequest());
    expect(hub.seen[0]).toMatchObject({ dialect: 'v1', method: 'SendMessage' });
    expect(hub.seen[0]?.request).toMatchObject({
      blocking: true,
      message: {
        role: 'user',
        messageId: 'm-1',
        parts: [
          { kind: 'text', text: 'hello' },
          { kind: 'data', mimeType: 'application/json', data: '{"q":1}' },
          { kind: 'file', mimeType: 'image/png', name: 'p.png', data: PNG },
        ],
      },
    });
    if (!('status' in result)) throw new Error('expected a task');
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(result.status?.message?.parts[0]?.content).toEqual({ $case: 'text', value: 'echoed' });
    expect(result.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);
    expect(result.artifacts[0]?.parts.map((p) => p.content?.$case)).toEqual([
      'text',
      'data',
      'raw',
    ]);
    expect(result.artifacts[0]?.parts[1]?.content?.value).toEqual({ q: 1 });

    const again = await c.getTask({ tenant: '', id: result.id, historyLength: 1 });
    expect(again.history.map((m) => m.messageId)).toEqual(['r-1']);
    await expect(c.getTask({ tenant: '', id: 'task-nope' })).rejects.toBeInstanceOf(
      TaskNotFoundError
    );
  });

  it('streams task, status, artifact and message events', async () => {
    const hub = fakeHub();
    const c = await client('.well-known/agent-card.json', hub);
    const events = await collect(c.sendMessageStream(sendRequest()));
    // The hub's card says streaming, so the SDK really opened the SSE stream.
    expect(hub.seen[0]?.method).toBe('SendStreamingMessage');
    expect(events.map((e) => e.payload?.$case)).toEqual([
      'task',
      'statusUpdate',
      'statusUpdate',
      'artifactUpdate',
      'message',
      'statusUpdate',
    ]);
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED
    );
  });

  it('lists tasks filtered by state', async () => {
    const hub = fakeHub();
    const c = await client('.well-known/agent-card.json', hub);
    await c.sendMessage(sendRequest());
    const page = await c.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_COMPLETED,
      pageSize: 10,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(page.tasks).toHaveLength(1);
    expect(page.totalSize).toBe(1);
    expect(page.pageSize).toBe(10);
  });
});

describe('@a2a-js/sdk client, A2A v0.3 (legacy compat)', () => {
  it('reads the v0.3 card and talks v0.3 JSON-RPC', async () => {
    const hub = fakeHub();
    const c = await client('.well-known/agent-card-v03.json', hub);
    expect(c.protocolVersion).toBe('0.3');

    const result = await c.sendMessage(sendRequest());
    expect(hub.seen[0]).toMatchObject({ dialect: 'v0.3', method: 'message/send' });
    expect(hub.seen[0]?.request).toMatchObject({
      blocking: true,
      message: {
        role: 'user',
        parts: [
          { kind: 'text', text: 'hello' },
          { kind: 'data', mimeType: 'application/json', data: '{"q":1}' },
          { kind: 'file', mimeType: 'image/png', name: 'p.png', data: PNG },
        ],
      },
    });
    if (!('status' in result)) throw new Error('expected a task');
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(result.artifacts[0]?.parts.map((p) => p.content?.$case)).toEqual([
      'text',
      'data',
      'raw',
    ]);

    const again = await c.getTask({ tenant: '', id: result.id, historyLength: 0 });
    expect(hub.seen.at(-1)?.method).toBe('tasks/get');
    expect(again.history).toEqual([]);
    await expect(c.getTask({ tenant: '', id: 'task-nope' })).rejects.toBeInstanceOf(
      TaskNotFoundError
    );
  });

  it('streams over message/stream', async () => {
    const hub = fakeHub();
    const c = await client('.well-known/agent-card-v03.json', hub);
    const events = await collect(c.sendMessageStream(sendRequest()));
    expect(hub.seen[0]?.method).toBe('message/stream');
    expect(events.map((e) => e.payload?.$case)).toEqual([
      'task',
      'statusUpdate',
      'statusUpdate',
      'artifactUpdate',
      'message',
      'statusUpdate',
    ]);
  });
});
