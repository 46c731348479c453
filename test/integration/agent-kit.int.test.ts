// The agent kit on a real NATS server: a pool answers invoke requests with verified envelopes only,
// hands the handler sender and tenant from the envelope (never from params), turns fail() into a
// failed task, sends JSON when asked, and aborts a handler on cancel and at its deadline. Also the
// OpenAI-compatible embedder against a local server answering in OpenAI's shape.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { connectBus, decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';
import {
  EnvelopeSigner,
  generateSigningKey,
  jwksOf,
  type Jwks,
} from '../../runtime/envelope/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import type { InvokeReply, InvokeRequest } from '../../runtime/protocol/index.js';
import {
  action,
  defineAgent,
  fail,
  runAction,
  runAgentPool,
  type AgentPool,
  type AgentRequest,
  type AgentServices,
} from '../../agents/kit/index.js';
import { cosine, createOpenAiEmbedder } from '../../infra/embed/index.js';

let nats: NatsServerHandle;
let bus: Bus;
let pool: AgentPool;
let signer: EnvelopeSigner;
let jwks: Jwks;
const seen: AgentRequest[] = [];
const aborted: string[] = [];
/** Why each aborted handler was aborted: the deadline is a TimeoutError, a cancel is not. */
const abortReasons = new Map<string, string>();

const AGENT = 'agent-kit-test';
const actions = {
  'note:add': action({
    summary: 'add a note: title',
    input: z.object({ title: z.string().min(1), priority: z.number().int().optional() }),
    run: (input, req) =>
      Promise.resolve({
        text: `added ${input.title} for ${req.senderId}`,
        data: { title: input.title, owner: req.senderId, tenant: req.tenantId, input },
      }),
  }),
};

const agent = defineAgent({
  id: AGENT,
  alias: 'kit',
  category: 'test',
  tags: [],
  card: {
    name: 'Kit',
    description: 'kit test agent',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [],
  },
  async handle(req, ctx) {
    seen.push(req);
    if (req.json) return runAction(actions, req.json, req, ctx);
    if (req.text === 'boom') throw new Error('secret internals');
    if (req.text === 'refuse') fail('say please');
    if (req.text === 'wait') {
      await new Promise<void>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          aborted.push(req.taskId);
          abortReasons.set(req.taskId, (ctx.signal.reason as Error | undefined)?.name ?? '');
          resolve();
        });
      });
      return 'never seen';
    }
    return `hello ${req.senderId}`;
  },
});

const services = {} as AgentServices;

function invoke(
  taskId: string,
  text: string,
  o: { envelope?: unknown; configuration?: Record<string, unknown>; timeout?: number } = {}
): Promise<InvokeReply> {
  const envelope =
    o.envelope ??
    signer.sign(
      {
        sender: { agentId: 'agent-alice', tenantId: 'ten-a' },
        recipient: { agentId: AGENT, tenantId: 'ten-official' },
        taskId,
        contextId: 'ctx-1',
        messageId: `m-${taskId}`,
      },
      { now: Date.now() }
    );
  const req: InvokeRequest = {
    taskId,
    contextId: 'ctx-1',
    message: { role: 'user', messageId: `m-${taskId}`, parts: [{ kind: 'text', text }] },
    configuration: o.configuration ?? {},
    'x-hub': envelope,
    at: Date.now(),
  };
  return bus.nc
    .request(subjects.agentInvoke(AGENT), encodeJson(req), { timeout: o.timeout ?? 5000 })
    .then((m) => decodeJson<InvokeReply>(m.data));
}

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({ servers: [nats.url], name: 'kit', replicas: 1, log: silentLogger });
  const key = generateSigningKey();
  signer = new EnvelopeSigner(key);
  jwks = jwksOf([key]);
  pool = runAgentPool(agent, {
    bus,
    log: silentLogger,
    jwks: () => jwks,
    services,
    size: 2,
    deadlineMs: 800,
  });
  await bus.nc.flush();
});

afterAll(async () => {
  await pool?.stop();
  await bus?.close();
  await nats?.close();
});

describe('the agent kit pool', () => {
  it('answers with the sender from the verified envelope', async () => {
    const r = await invoke('t-1', 'hi');
    expect(r).toMatchObject({ ok: true, answer: { state: 'completed' } });
    expect(r.ok && r.answer.artifacts[0]?.parts[0]).toMatchObject({ text: 'hello agent-alice' });
    expect(seen.at(-1)).toMatchObject({ senderId: 'agent-alice', tenantId: 'ten-a' });
  });

  it('refuses a request whose envelope is not signed by the hub', async () => {
    const forged = {
      ...signer.sign(
        {
          sender: { agentId: 'agent-alice', tenantId: 'ten-a' },
          recipient: { agentId: AGENT, tenantId: 'ten-official' },
          taskId: 't-2',
          contextId: 'c',
          messageId: 'm',
        },
        { now: Date.now() }
      ),
      sender: { agentId: 'agent-mallory', tenantId: 'ten-b' },
    };
    const before = seen.length;
    const r = await invoke('t-2', 'hi', { envelope: forged });
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.error).toMatch(/envelope rejected/);
    expect(seen.length).toBe(before);
  });

  it('validates JSON actions, naming the field, and drops fields the schema does not declare', async () => {
    const missing = await invoke('t-3', JSON.stringify({ action: 'note:add' }));
    expect(missing).toEqual({ ok: false, error: 'note:add: `title` is required' });
    const unknown = await invoke('t-4', JSON.stringify({ action: 'note:remove' }));
    expect(!unknown.ok && unknown.error).toBe(
      'unknown action "note:remove"; use one of "note:add"'
    );
    const noAction = await invoke('t-5', JSON.stringify({ title: 'x' }));
    expect(!noAction.ok && noAction.error).toMatch(/add "action"/);
    const badType = await invoke(
      't-6',
      JSON.stringify({ action: 'note:add', title: 'x', priority: 1.5 })
    );
    expect(!badType.ok && badType.error).toMatch(/^note:add: `priority`: /);

    const forged = await invoke(
      't-7',
      JSON.stringify({
        action: 'note:add',
        title: 'x',
        tenantId: 'ten-b',
        senderId: 'agent-b',
        format: 'json',
      })
    );
    expect(forged.ok).toBe(true);
    const part = forged.ok ? forged.answer.artifacts[0]?.parts[0] : undefined;
    expect(part).toMatchObject({ kind: 'data', mimeType: 'application/json' });
    const data = JSON.parse((part as { data: string }).data) as Record<string, unknown>;
    expect(data).toEqual({
      title: 'x',
      owner: 'agent-alice',
      tenant: 'ten-a',
      input: { title: 'x' },
    });
  });

  it('sends JSON when the caller accepts only application/json, text otherwise', async () => {
    const body = JSON.stringify({ action: 'note:add', title: 'y' });
    const asJson = await invoke('t-8', body, {
      configuration: { acceptedOutputModes: ['application/json'] },
    });
    expect(asJson.ok && asJson.answer.artifacts[0]?.parts[0]?.kind).toBe('data');
    const asText = await invoke('t-9', body, {
      configuration: { acceptedOutputModes: ['application/json', 'text/plain'] },
    });
    expect(asText.ok && asText.answer.artifacts[0]?.parts[0]).toMatchObject({
      kind: 'text',
      text: 'added y for agent-alice',
    });
  });

  it("fails with the agent's message for fail(), and hides internals otherwise", async () => {
    expect(await invoke('t-10', 'refuse')).toEqual({ ok: false, error: 'say please' });
    expect(await invoke('t-11', 'boom')).toEqual({
      ok: false,
      error: 'the agent failed unexpectedly',
    });
  });

  it('aborts the handler when its task is canceled', async () => {
    const pending = invoke('t-12', 'wait');
    // The handler is waiting on its signal once it has seen the request.
    await vi.waitFor(() => expect(seen.map((r) => r.taskId)).toContain('t-12'));
    bus.nc.publish(subjects.agentCancel(AGENT), encodeJson({ taskId: 't-12' }));
    const r = await pending;
    expect(aborted).toContain('t-12');
    expect(abortReasons.get('t-12')).not.toBe('TimeoutError');
    expect(r.ok).toBe(true); // this handler chose to return; the hub ignores answers to canceled tasks
  });

  it('aborts the handler at its deadline', async () => {
    await invoke('t-13', 'wait');
    expect(aborted).toContain('t-13');
    // The deadline's own signal aborted it (AbortSignal.timeout), not a cancel or a stop.
    expect(abortReasons.get('t-13')).toBe('TimeoutError');
  });
});

describe('the OpenAI-compatible embedder', () => {
  let server: Server;
  let url = '';
  const requests: Array<{ auth: string | undefined; body: { model: string; input: string[] } }> =
    [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let s = '';
      req.on('data', (c: Buffer) => (s += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(s) as { model: string; input: string[] };
        requests.push({ auth: req.headers.authorization, body });
        if (body.input.includes('overload')) {
          res.writeHead(429, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }));
          return;
        }
        // OpenAI's shape: data[] of {object, index, embedding}, listed out of order on purpose.
        const data = body.input
          .map((t, index) => ({
            object: 'embedding',
            index,
            embedding: [t.length, t.includes('cat') ? 3 : 0, 1],
          }))
          .reverse();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data,
            model: body.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          })
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/`;
  });

  afterAll(() => {
    server?.close();
  });

  it('posts the texts with model and key and returns unit vectors in input order', async () => {
    const e = createOpenAiEmbedder({
      url,
      model: 'text-embedding-3-small',
      apiKey: 'sk-test',
      timeoutMs: 2000,
    });
    expect(e.id).toBe('openai:text-embedding-3-small');
    const [a, b] = await e.embed(['cat', 'a dog']);
    expect(requests.at(-1)).toEqual({
      auth: 'Bearer sk-test',
      body: { model: 'text-embedding-3-small', input: ['cat', 'a dog'] },
    });
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
    expect(a![1]).toBeGreaterThan(0);
    expect(b![1]).toBe(0);
  });

  it('reports an error status as unavailable', async () => {
    const e = createOpenAiEmbedder({ url, model: 'm', timeoutMs: 2000 });
    await expect(e.embed(['overload'])).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'the embeddings service answered HTTP 429',
    });
  });
});
