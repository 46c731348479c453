// The MCP server (issue 29) through both transports, driven by the MCP SDK's own client against a
// real hub: `burrow mcp` as a subprocess over stdio, and the hub's /mcp over Streamable HTTP.
// Discover echo, message it, follow a queued task to completion once its recipient connects (a
// resource subscription tells), the memory agent, cancel, and hub errors as tool errors.
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsAgent } from '../../sdk/index.js';
import { startAgentHub, type AgentHub } from '../support/official-agents.js';
import { until } from '../support/test-hub.js';
import { issueAdminKey } from '../../infra/db/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TOOLS = [
  'agent_me',
  'agent_discover',
  'agent_discover_nearby',
  'agent_message',
  'agent_task_status',
  'agent_task_cancel',
  'agent_tasks_pending',
  'agent_inbox',
  'memory_store',
  'memory_recall',
  'memory_forget',
  'memory_list',
];

let h: AgentHub;
let tenant: string;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  h = await startAgentHub();
  tenant = await h.tenant('mcp-e2e');
});

afterAll(async () => {
  for (const c of opened.reverse()) await c.close().catch(() => undefined);
  await h?.close();
});

type Mode = 'stdio' | 'http';

function transportFor(mode: Mode, key: string): Transport {
  if (mode === 'http') {
    return new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
  }
  return new StdioClientTransport({
    command: process.execPath,
    // The source through tsx, never a dist/ an earlier build left behind.
    args: ['--import', 'tsx', join(ROOT, 'infra/bin/burrow.ts'), 'mcp', '--url', h.url],
    // The key through the environment, as the README's client configuration passes it.
    env: { ...(process.env as Record<string, string>), BURROW_API_KEY: key, LOG_LEVEL: 'silent' },
    cwd: ROOT,
    stderr: 'pipe',
  });
}

async function connect(mode: Mode, key: string): Promise<Client> {
  const client = new Client({ name: 'burrow-e2e', version: '1.0.0' });
  await client.connect(transportFor(mode, key));
  opened.push(client);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (p: Progress) => void
): Promise<CallToolResult & { structuredContent?: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 90_000,
    ...(onprogress ? { onprogress } : {}),
  })) as CallToolResult;
  return r;
}

/** A tool error's details (`_meta["burrow/error"]`). */
function errorOf(r: CallToolResult): Record<string, unknown> | undefined {
  expect(r.isError).toBe(true);
  return r._meta?.['burrow/error'] as Record<string, unknown> | undefined;
}

function text(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

async function wsAgent(
  key: string,
  onMessage: ConstructorParameters<typeof WsAgent>[0]['onMessage']
): Promise<WsAgent> {
  const agent = new WsAgent({ url: h.url, apiKey: key, onMessage });
  await agent.start();
  opened.push(agent);
  return agent;
}

describe.each<Mode>(['stdio', 'http'])('MCP over %s', (mode) => {
  let me: { id: string; key: string };
  let client: Client;

  beforeAll(async () => {
    me = await h.agent(tenant, `mcp-user-${mode}`);
    client = await connect(mode, me.key);
  });

  it('lists every tool with a JSON Schema input and answers agent_me as the key`s agent', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
    }
    const message = tools.find((t) => t.name === 'agent_message');
    expect(message?.inputSchema.properties).toHaveProperty('agentId');
    expect(message?.inputSchema.properties).toHaveProperty('text');

    const r = await call(client, 'agent_me');
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ agentId: me.id, tenantId: tenant, kind: 'agent' });
    expect(text(r)).toContain(me.id);
  });

  it('discovers echo and messages it, the reply as text and as structured content', async () => {
    const found = await call(client, 'agent_discover', { q: 'echo' });
    expect(found.isError).toBeFalsy();
    const agents = (found.structuredContent as { agents: Array<{ id: string }> }).agents;
    expect(agents.map((a) => a.id)).toContain('agent-echo-official');
    expect(text(found)).toContain('agent-echo-official');

    const r = await call(client, 'agent_message', {
      agentId: 'agent-echo-official',
      text: `hello from ${mode}`,
    });
    expect(r.isError, text(r)).toBeFalsy();
    const out = r.structuredContent as { state: string; reply: string; queued: boolean };
    expect(out.state).toBe('completed');
    expect(out.queued).toBe(false);
    expect(out.reply).toContain(`hello from ${mode}`);
    expect(text(r)).toContain(`hello from ${mode}`);
  });

  it('reports progress while a slow agent works, then returns its reply', async () => {
    const slow = await h.agent(tenant, `mcp-slow-${mode}`);
    // The agent answers once the caller has had a progress notification, however long that takes.
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    await wsAgent(slow.key, async ({ text: t }) => {
      await firstProgress;
      return `slowly: ${t}`;
    });
    const progress: Progress[] = [];
    const r = await call(
      client,
      'agent_message',
      { agentId: slow.id, text: 'take your time' },
      (p) => {
        progress.push(p);
        progressed();
      }
    );
    expect(r.isError, text(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      state: 'completed',
      reply: 'slowly: take your time',
    });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatchObject({ total: 60 });
    expect(progress[0]?.progress).toBeGreaterThan(0);
  });

  it('follows a queued task to completion after its recipient connects', async () => {
    const later = await h.agent(tenant, `mcp-later-${mode}`);
    const sent = await call(client, 'agent_message', { agentId: later.id, text: 'are you there?' });
    expect(sent.isError, text(sent)).toBeFalsy();
    const s = sent.structuredContent as { taskId: string; state: string; queued: boolean };
    expect(s).toMatchObject({ state: 'submitted', queued: true });
    expect(text(sent)).toContain('queued');

    // ListTasks (behind both listings) shows a new task up to ~100 ms after it was accepted.
    const listed = async (c: Client, tool: string) => {
      const r = await call(c, tool);
      return (r.structuredContent as { tasks: Array<{ taskId: string; text?: string }> }).tasks;
    };
    await until(async () =>
      (await listed(client, 'agent_tasks_pending')).some((t) => t.taskId === s.taskId)
    );

    // The recipient's own MCP view: the message waits in its inbox, and is not its own pending.
    const theirs = await connect(mode, later.key);
    await until(async () =>
      (await listed(theirs, 'agent_inbox')).some((t) => t.taskId === s.taskId)
    );
    expect(await listed(theirs, 'agent_inbox')).toContainEqual(
      expect.objectContaining({ taskId: s.taskId, text: 'are you there?' })
    );
    expect((await listed(theirs, 'agent_tasks_pending')).map((t) => t.taskId)).not.toContain(
      s.taskId
    );
    expect((await listed(client, 'agent_inbox')).map((t) => t.taskId)).not.toContain(s.taskId);

    const uri = `burrow://tasks/${s.taskId}`;
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await client.subscribeResource({ uri });
    const before = JSON.parse(
      ((await client.readResource({ uri })).contents[0] as { text: string }).text
    ) as { state: string };
    expect(before.state).toBe('submitted');

    await wsAgent(later.key, ({ text: t }) => `yes, I got "${t}"`);
    await until(() => updates.includes(uri), 20_000);
    await until(async () => {
      const c = (await client.readResource({ uri })).contents[0] as { text: string };
      return (JSON.parse(c.text) as { state: string }).state === 'completed';
    }, 20_000);

    const status = await call(client, 'agent_task_status', { taskId: s.taskId });
    expect(status.structuredContent).toMatchObject({
      taskId: s.taskId,
      state: 'completed',
      reply: 'yes, I got "are you there?"',
      agentId: later.id,
    });
    // The listing follows ListTasks, whose index takes the new state a moment after the task.
    await until(
      async () => !(await listed(client, 'agent_tasks_pending')).some((t) => t.taskId === s.taskId)
    );
    await client.unsubscribeResource({ uri });
  });

  it('stores, recalls, lists and forgets a memory through the memory agent', async () => {
    const stored = await call(client, 'memory_store', {
      content: `The ${mode} deployment window is Thursday at noon`,
      tags: ['ops'],
    });
    expect(stored.isError, text(stored)).toBeFalsy();
    const memory = (stored.structuredContent as { memory: { id: string; tags: string[] } }).memory;
    expect(memory.id).toMatch(/^mem_[0-9a-f]{24}$/);
    expect(memory.tags).toEqual(['ops']);

    const recalled = await call(client, 'memory_recall', { query: 'deployment window' });
    expect(recalled.isError, text(recalled)).toBeFalsy();
    const results = (
      recalled.structuredContent as { results: Array<{ id: string; score: number }> }
    ).results;
    expect(results[0]?.id).toBe(memory.id);
    expect(text(recalled)).toContain('deployment window is Thursday');

    const listed = await call(client, 'memory_list');
    expect(listed.structuredContent).toMatchObject({ total: 1 });

    const forgot = await call(client, 'memory_forget', { id: memory.id });
    expect((forgot.structuredContent as { forgotten: Array<{ id: string }> }).forgotten).toEqual([
      expect.objectContaining({ id: memory.id }),
    ]);
    const again = await call(client, 'memory_forget', { id: memory.id });
    expect(errorOf(again)).toMatchObject({ code: 'TASK_FAILED' });
    expect(text(again)).toMatch(/no memory mem_/);
  });

  it('cancels a queued task; cancelling it again is the hub`s -32002 as a tool error', async () => {
    const offline = await h.agent(tenant, `mcp-offline-${mode}`);
    const sent = await call(client, 'agent_message', { agentId: offline.id, text: 'never read' });
    const taskId = (sent.structuredContent as { taskId: string }).taskId;
    const canceled = await call(client, 'agent_task_cancel', { taskId });
    expect(canceled.isError, text(canceled)).toBeFalsy();
    expect(canceled.structuredContent).toMatchObject({ taskId, state: 'canceled' });

    const twice = await call(client, 'agent_task_cancel', { taskId });
    expect(errorOf(twice)).toMatchObject({ code: 'TASK_NOT_CANCELABLE', rpcCode: -32002 });
    expect(text(twice)).toMatch(/^TASK_NOT_CANCELABLE -32002: /);
  });

  it('answers hub refusals as tool errors with the hub`s code, and keeps serving', async () => {
    const unknown = await call(client, 'agent_message', {
      agentId: 'agent-000000000000',
      text: 'anyone?',
    });
    expect(errorOf(unknown)).toMatchObject({ code: 'AGENT_NOT_FOUND', rpcCode: -32016 });
    expect(text(unknown)).toMatch(/^AGENT_NOT_FOUND -32016: /);

    const missing = await call(client, 'agent_task_status', {
      taskId: 'task-00000000-0000-4000-8000-000000000000',
    });
    expect(errorOf(missing)).toMatchObject({ code: 'TASK_NOT_FOUND', rpcCode: -32001 });

    const offline = await h.agent(tenant, `mcp-ttl0-${mode}`);
    const ttl0 = await call(client, 'agent_message', {
      agentId: offline.id,
      text: 'now or never',
      ttlSeconds: 0,
    });
    expect(errorOf(ttl0)).toMatchObject({ code: 'RECIPIENT_OFFLINE', rpcCode: -32011 });

    // Bad arguments are refused by the schema, as a tool error too.
    const bad = await call(client, 'agent_discover', { limit: 500 });
    expect(bad.isError).toBe(true);

    const r = await call(client, 'agent_me');
    expect(r.structuredContent).toMatchObject({ agentId: me.id });
  });

  it("lists the official agents' cards as resources and reads one", async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('burrow://agents/agent-echo-official/card');
    expect(uris).toContain('burrow://agents/agent-memory-official/card');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining(['burrow://agents/{agentId}/card', 'burrow://tasks/{taskId}'])
    );
    const card = await client.readResource({ uri: 'burrow://agents/agent-echo-official/card' });
    const body = JSON.parse((card.contents[0] as { text: string }).text) as { name: string };
    expect(body.name.toLowerCase()).toContain('echo');

    await expect(
      client.readResource({ uri: 'burrow://tasks/task-00000000-0000-4000-8000-000000000000' })
    ).rejects.toThrow(/-32001/);
  });
});

describe('MCP over HTTP: authentication and sessions', () => {
  it('refuses a request without a valid agent key, as the hub does (401)', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${h.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(init),
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer not-a-key' })).status).toBe(401);
  });

  it('answers malformed MCP requests with 4xx, never 500; an admin key is 403', async () => {
    const agent = await h.agent(tenant, 'mcp-raw');
    const raw = (method: string, headers: Record<string, string>, body?: string) =>
      fetch(`${h.url}/mcp`, {
        method,
        headers: {
          authorization: `Bearer ${agent.key}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
        ...(body !== undefined ? { body } : {}),
      });
    const notJson = await raw('POST', {}, '{');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const notInit = await raw(
      'POST',
      {},
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    );
    expect(notInit.status).toBe(400);
    expect((await raw('GET', {})).status).toBe(400);
    expect((await raw('DELETE', { 'mcp-session-id': 'no-such-session' })).status).toBe(404);
    expect((await raw('PUT', {}, '{}')).status).toBe(405);

    const admin = await issueAdminKey(h.hub.sql, tenant);
    const asAdmin = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(asAdmin.status).toBe(403);
  });

  it('keeps a session to the key that opened it', async () => {
    const a = await h.agent(tenant, 'mcp-session-a');
    const b = await h.agent(tenant, 'mcp-session-b');
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${a.key}` } },
    });
    const client = new Client({ name: 'a', version: '1' });
    await client.connect(transport);
    opened.push(client);
    const sessionId = transport.sessionId as string;
    expect(sessionId).toBeTruthy();

    const asB = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${b.key}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(asB.status).toBe(404);

    const r = (await client.callTool({ name: 'agent_me', arguments: {} })) as CallToolResult;
    expect(r.structuredContent).toMatchObject({ agentId: a.id });
    await transport.terminateSession();
  });
});
