// Contract: the official @a2a-js/sdk client, 1.x and 0.3.x (the npm alias a2a-sdk-v03), runs its
// whole flow against the per-agent standard endpoint of a real hub, for three recipients: a
// card-less WebSocket agent, a WebSocket agent that sent its card, and the official echo agent.
// One table over (client version × recipient); each driver maps its SDK's shapes to one small
// common form so the assertions are written once.
import {
  ListTasksRequest,
  SendMessageRequest,
  taskStateToJSON,
  type StreamResponse,
  type Task as V1Task,
} from '@a2a-js/sdk';
import {
  ClientFactory as V1ClientFactory,
  DefaultAgentCardResolver as V1CardResolver,
  JsonRpcTransportFactory as V1JsonRpc,
  type Client as V1Client,
} from '@a2a-js/sdk/client';
import {
  TaskNotCancelableError as V1NotCancelable,
  TaskNotFoundError as V1NotFound,
} from '@a2a-js/sdk/errors';
import type { Task as V03Task } from 'a2a-sdk-v03';
import {
  ClientFactory as V03ClientFactory,
  DefaultAgentCardResolver as V03CardResolver,
  JsonRpcTransportFactory as V03JsonRpc,
  TaskNotCancelableError as V03NotCancelable,
  TaskNotFoundError as V03NotFound,
  type Client as V03Client,
} from 'a2a-sdk-v03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

/** Cards name the hub by its public URL; the clients' fetch sends those requests to the real port. */
const PUBLIC_URL = 'http://hub.example.test';
const UNKNOWN = 'agent-000000000000';
/** A message whose text starts with this is held `working` by the WebSocket agents until released. */
const HOLD = 'hold:';
/** A message whose text starts with this gets `input-required` and the question below. */
const ASK = 'ask:';
const QUESTION = 'for how many?';
const ECHO_CARD = { name: 'Echo', skills: ['echo', 'ping'] };

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let callerKey: string;
let seq = 0;

// ---- the common form both drivers produce ----

interface Snapshot {
  id: string;
  contextId: string;
  state: string;
  /** The text of the status message, '' when there is none. */
  ask: string;
  /** The text of every artifact part, joined. */
  text: string;
}

interface Event {
  kind: 'task' | 'message' | 'status' | 'artifact';
  /** On a task: its id. */
  id?: string;
  state?: string;
  text?: string;
  /** On an artifact: whether it extends the artifact of the same id. */
  append?: boolean;
}

interface CardFacts {
  name: string;
  skills: string[];
}

interface Session {
  /** The card the client was made from. */
  card: CardFacts;
  /** `to` continues a task: the follow-up message names its task and context. */
  send(text: string, blocking: boolean, to?: Snapshot): Promise<Snapshot>;
  get(id: string): Promise<Snapshot>;
  /** Task ids the list shows; absent when the client version has no list. */
  list?: () => Promise<string[]>;
  cancel(id: string): Promise<Snapshot>;
  stream(text: string, to?: Snapshot): AsyncGenerator<Event>;
  resubscribe(id: string): AsyncGenerator<Event>;
}

interface Driver {
  name: string;
  /** The JSON-RPC methods, with the A2A-Version sent, that the whole flow uses. */
  wire: string[];
  /** Whether the client version has ListTasks. */
  lists: boolean;
  /** A session from the agent's card; `endpointOf` swaps the agent id in the card's URLs. */
  open(agent: string, endpointOf?: string): Promise<Session>;
  notFound: abstract new (...args: never[]) => Error;
  notCancelable: abstract new (...args: never[]) => Error;
}

/** Every JSON-RPC call each client made, by driver name: method and A2A-Version ('' for none). */
const wire: Record<string, Set<string>> = {};

/** fetch to the hub: public URL → bound port, plus the caller's API key; records the calls. */
function hubFetch(driver: string): typeof fetch {
  return (input, init) => {
    const raw = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${callerKey}`);
    if (typeof init?.body === 'string') {
      const { method } = JSON.parse(init.body) as { method: string };
      (wire[driver] ??= new Set()).add(`${method} ${headers.get('a2a-version') ?? ''}`.trim());
    }
    return fetch(raw.replace(PUBLIC_URL, hub.url), { ...init, headers });
  };
}

const baseUrl = (agent: string) => `${PUBLIC_URL}/agents/${agent}/`;

/** The card with its endpoint moved to another agent id: a client of an agent that is gone. */
function retarget<T>(card: T, endpointOf: string | undefined): T {
  if (endpointOf === undefined) return card;
  return JSON.parse(
    JSON.stringify(card).replace(/\/agents\/[^/]+\/a2a/g, `/agents/${endpointOf}/a2a`)
  ) as T;
}
const facts = (card: { name: string; skills: Array<{ id: string }> }): CardFacts => ({
  name: card.name,
  skills: card.skills.map((k) => k.id),
});
const messageId = () => `m-${++seq}-${Date.now()}`;

// ---- 1.x ----

/** TASK_STATE_INPUT_REQUIRED → input-required, as the 0.3 and hub dialects spell it. */
const v1State = (s: Parameters<typeof taskStateToJSON>[0] | undefined) =>
  s === undefined
    ? ''
    : taskStateToJSON(s).replace('TASK_STATE_', '').toLowerCase().replace('_', '-');

function v1Text(parts: V1Task['artifacts'][number]['parts']): string {
  return parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

function v1Snapshot(t: V1Task): Snapshot {
  return {
    id: t.id,
    contextId: t.contextId,
    ask: v1Text(t.status?.message?.parts ?? []),
    state: v1State(t.status?.state),
    text: t.artifacts.map((a) => v1Text(a.parts)).join(''),
  };
}

async function* v1Events(stream: AsyncGenerator<StreamResponse>): AsyncGenerator<Event> {
  for await (const e of stream) {
    const p = e.payload;
    if (p?.$case === 'task')
      yield { kind: 'task', id: p.value.id, state: v1State(p.value.status?.state) };
    else if (p?.$case === 'statusUpdate')
      yield { kind: 'status', state: v1State(p.value.status?.state) };
    else if (p?.$case === 'artifactUpdate')
      yield {
        kind: 'artifact',
        text: v1Text(p.value.artifact?.parts ?? []),
        append: p.value.append,
      };
    else yield { kind: 'message' };
  }
}

function v1Session(c: V1Client, card: CardFacts): Session {
  const task = (r: Awaited<ReturnType<V1Client['sendMessage']>>) => {
    if (!('status' in r)) throw new Error('expected a task, got a message');
    return v1Snapshot(r);
  };
  const request = (text: string, returnImmediately: boolean, to?: Snapshot) =>
    SendMessageRequest.fromJSON({
      message: {
        messageId: messageId(),
        role: 'ROLE_USER',
        parts: [{ text }],
        ...(to ? { taskId: to.id, contextId: to.contextId } : {}),
      },
      configuration: { returnImmediately },
    });
  return {
    card,
    send: async (text, blocking, to) => task(await c.sendMessage(request(text, !blocking, to))),
    get: async (id) => v1Snapshot(await c.getTask({ tenant: '', id })),
    list: async () =>
      (await c.listTasks(ListTasksRequest.fromJSON({ pageSize: 100 }))).tasks.map((t) => t.id),
    cancel: async (id) => v1Snapshot(await c.cancelTask({ tenant: '', id, metadata: undefined })),
    stream: (text, to) => v1Events(c.sendMessageStream(request(text, false, to))),
    resubscribe: (id) => v1Events(c.resubscribeTask({ tenant: '', id })),
  };
}

const v1: Driver = {
  name: '@a2a-js/sdk 1.x',
  lists: true,
  wire: [
    'CancelTask 1.0',
    'GetTask 1.0',
    'ListTasks 1.0',
    'SendMessage 1.0',
    'SendStreamingMessage 1.0',
    'SubscribeToTask 1.0',
  ],
  async open(agent, endpointOf) {
    const fetchImpl = hubFetch(this.name);
    const card = await new V1CardResolver({ fetchImpl }).resolve(baseUrl(agent));
    const c = await new V1ClientFactory({
      transports: [new V1JsonRpc({ fetchImpl })],
    }).createFromAgentCard(retarget(card, endpointOf));
    expect(c.protocolVersion).toBe('1.0');
    return v1Session(c, facts(card));
  },
  notFound: V1NotFound,
  notCancelable: V1NotCancelable,
};

// ---- 0.3.x ----

type V03Part = V03Task['status']['message'] extends infer M
  ? M extends { parts: Array<infer P> }
    ? P
    : never
  : never;

function v03Text(parts: V03Part[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
}

function v03Snapshot(t: V03Task): Snapshot {
  return {
    id: t.id,
    contextId: t.contextId,
    ask: v03Text(t.status.message?.parts ?? []),
    state: t.status.state,
    text: (t.artifacts ?? []).map((a) => v03Text(a.parts)).join(''),
  };
}

async function* v03Events(
  stream: AsyncGenerator<Awaited<ReturnType<V03Client['getTask']>> | { kind: string }>
): AsyncGenerator<Event> {
  for await (const raw of stream) {
    const e = raw as
      | V03Task
      | { kind: 'status-update'; status: V03Task['status'] }
      | { kind: 'artifact-update'; artifact: { parts: V03Part[] }; append?: boolean }
      | { kind: 'message' };
    if (e.kind === 'task') yield { kind: 'task', id: e.id, state: e.status.state };
    else if (e.kind === 'status-update') yield { kind: 'status', state: e.status.state };
    else if (e.kind === 'artifact-update')
      yield { kind: 'artifact', text: v03Text(e.artifact.parts), append: e.append ?? false };
    else yield { kind: 'message' };
  }
}

function v03Session(c: V03Client, card: CardFacts): Session {
  const task = (r: Awaited<ReturnType<V03Client['sendMessage']>>) => {
    if (r.kind !== 'task') throw new Error('expected a task, got a message');
    return v03Snapshot(r);
  };
  const params = (text: string, blocking: boolean, to?: Snapshot) => ({
    message: {
      kind: 'message' as const,
      messageId: messageId(),
      role: 'user' as const,
      parts: [{ kind: 'text' as const, text }],
      ...(to ? { taskId: to.id, contextId: to.contextId } : {}),
    },
    configuration: { blocking },
  });
  return {
    card,
    send: async (text, blocking, to) => task(await c.sendMessage(params(text, blocking, to))),
    get: async (id) => v03Snapshot(await c.getTask({ id })),
    cancel: async (id) => v03Snapshot(await c.cancelTask({ id })),
    stream: (text, to) => v03Events(c.sendMessageStream(params(text, true, to))),
    resubscribe: (id) => v03Events(c.resubscribeTask({ id })),
  };
}

const v03: Driver = {
  name: '@a2a-js/sdk 0.3.x',
  lists: false,
  wire: ['message/send', 'message/stream', 'tasks/cancel', 'tasks/get', 'tasks/resubscribe'],
  async open(agent, endpointOf) {
    const fetchImpl = hubFetch(this.name);
    const card = await new V03CardResolver({ fetchImpl }).resolve(baseUrl(agent));
    const factory = new V03ClientFactory({ transports: [new V03JsonRpc({ fetchImpl })] });
    return v03Session(await factory.createFromAgentCard(retarget(card, endpointOf)), facts(card));
  },
  notFound: V03NotFound,
  notCancelable: V03NotCancelable,
};

// ---- recipients ----

interface Recipient {
  name: string;
  /** The path id the clients use. */
  id: () => string;
  card: CardFacts;
  /** Whether it can hold a task `working` (echo always finishes at once). */
  holds: boolean;
  /** Completes every task it holds. */
  release?: () => void;
}

/**
 * A WebSocket agent answering with task_response frames: an echo artifact and `completed`, or for
 * a HOLD message one artifact chunk and `working`, finished only by release().
 */
function answer(agent: TestWsAgent): () => void {
  const held = new Set<string>();
  agent.ws.on('message', (data) => {
    const f = JSON.parse((data as Buffer).toString()) as {
      type?: string;
      taskId?: string;
      payload?: { parts?: Array<{ text?: string }> };
    };
    if (f.type !== 'message' || f.taskId === undefined) return;
    const text = (f.payload?.parts ?? []).map((p) => p.text ?? '').join('');
    const hold = text.startsWith(HOLD);
    if (hold) held.add(f.taskId);
    if (text.startsWith(ASK)) {
      agent.send({
        type: 'task_response',
        taskId: f.taskId,
        status: { state: 'input-required', message: QUESTION },
      });
      return;
    }
    agent.send({
      type: 'task_response',
      taskId: f.taskId,
      status: { state: hold ? 'working' : 'completed' },
      artifact: { artifactId: 'reply', parts: [{ kind: 'text', text: `echo: ${text}` }] },
      lastChunk: !hold,
    });
  });
  return () => {
    for (const taskId of held) {
      agent.send({
        type: 'task_response',
        taskId,
        status: { state: 'completed' },
        artifact: { artifactId: 'reply', parts: [{ kind: 'text', text: ' done' }] },
        lastChunk: true,
      });
    }
    held.clear();
  };
}

const ids: Record<string, string> = {};
const releases: Record<string, () => void> = {};
const sockets: TestWsAgent[] = [];

const recipients: Recipient[] = [
  {
    name: 'a card-less WebSocket agent',
    id: () => ids.plain!,
    card: { name: 'plain', skills: [] },
    holds: true,
  },
  {
    name: 'a carded WebSocket agent',
    id: () => ids.carded!,
    // The directory's name wins over the card's, so cards agree with discovery; skills are the card's.
    card: { name: 'carded', skills: ['echo'] },
    holds: true,
  },
  { name: 'the official echo agent', id: () => 'echo', card: ECHO_CARD, holds: false },
];

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PUBLIC_URL }), silentLogger);
  await partitionsSettled([hub], 8);
  const tenant = await createTenant(hub.sql, { name: 'Contract' });
  callerKey = (await createAgent(hub.sql, { tenantId: tenant.id, name: 'caller' })).apiKey;
  for (const name of ['plain', 'carded']) {
    const created = await createAgent(hub.sql, { tenantId: tenant.id, name });
    ids[name] = created.agent.id;
    const ws = await connectWsAgent(hub.url, created.apiKey);
    sockets.push(ws);
    releases[name] = answer(ws);
    if (name === 'carded') {
      ws.send({
        type: 'update_card',
        agentCard: {
          name: 'Carded',
          description: 'answers over its socket',
          url: 'ws://carded',
          version: '1.0.0',
          capabilities: { streaming: true, pushNotifications: false },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 'echo', name: 'Echo', description: 'Says it back', tags: ['echo'] }],
        },
      });
      await ws.next('card_updated');
    }
  }
  recipients[0]!.release = () => releases.plain!();
  recipients[1]!.release = () => releases.carded!();
});

afterAll(async () => {
  for (const ws of sockets) await ws.close();
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

async function collect(stream: AsyncGenerator<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

/** A stream opens with the task: its id. */
function taskIdOf(events: Event[]): string {
  const first = events[0];
  if (first?.kind !== 'task' || first.id === undefined) throw new Error('no task first');
  return first.id;
}

const artifactText = (events: Event[]) =>
  events.flatMap((e) => (e.kind === 'artifact' ? [e.text] : [])).join('');

describe.each([v1, v03])('$name', (driver) => {
  describe.each(recipients)('to $name', (recipient) => {
    let s: Session;
    beforeAll(async () => {
      s = await driver.open(recipient.id());
    });

    it("takes the recipient's card: its name and skills", () => {
      expect(s.card).toEqual(recipient.card);
    });

    it('sends blocking and gets the completed task with its artifact', async () => {
      const done = await s.send('hello contract', true);
      expect(done).toMatchObject({ state: 'completed' });
      expect(done.id).toMatch(/^task-/);
      expect(done.text).toContain('hello contract');
      expect(await s.get(done.id)).toMatchObject({ id: done.id, state: 'completed' });
    });

    it('sends without blocking, then get sees it complete', async () => {
      const first = await s.send('later', false);
      expect(['submitted', 'working', 'completed']).toContain(first.state);
      let last = first;
      await until(async () => (last = await s.get(first.id)).state === 'completed');
      expect(last.text).toContain('later');
    });

    // 0.3 has no tasks/list.
    if (driver.lists) {
      it('lists the tasks with this agent', async () => {
        const sent = await s.send('list me', true);
        // The list reads the tasks index, which trails the task log by a few milliseconds.
        await until(async () => (await s.list!()).includes(sent.id));
      });
    }

    it('streams: the task first, then working, the artifact, completed last', async () => {
      const events = await collect(s.stream('stream me'));
      expect(events[0]?.kind).toBe('task');
      const states = events.flatMap((e) => (e.kind === 'status' ? [e.state] : []));
      expect(states.at(-1)).toBe('completed');
      expect(states.slice(0, -1).every((st) => st === 'working')).toBe(true);
      expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });
      expect(artifactText(events)).toContain('stream me');
    });

    it('resubscribes to a finished task: the task, then the end of the stream', async () => {
      const done = await s.send('resubscribe me', true);
      const events = await collect(s.resubscribe(done.id));
      expect(events).toEqual([{ kind: 'task', id: done.id, state: 'completed' }]);
    });

    // Echo finishes every task at once: it has no working task to cancel or follow.
    if (recipient.holds) {
      it('cancels a working task; a client following it sees canceled last', async () => {
        const held = await s.send(`${HOLD} cancel me`, false);
        await until(async () => (await s.get(held.id)).state === 'working');
        const follower = s.resubscribe(held.id);
        expect((await follower.next()).value).toMatchObject({ kind: 'task', state: 'working' });
        expect(await s.cancel(held.id)).toMatchObject({ id: held.id, state: 'canceled' });
        expect((await collect(follower)).at(-1)).toMatchObject({
          kind: 'status',
          state: 'canceled',
        });
        expect((await s.get(held.id)).state).toBe('canceled');
      });

      it('asks back (input-required) and completes on the follow-up in the same task', async () => {
        const asked = await s.send(`${ASK} book a table`, true);
        expect(asked).toMatchObject({ state: 'input-required', ask: QUESTION });
        const done = await s.send('four', true, asked);
        expect(done).toMatchObject({
          id: asked.id,
          contextId: asked.contextId,
          state: 'completed',
        });
        expect(done.text).toContain('four');
      });

      it('resubscribes to a working task and follows it to completed', async () => {
        const held = await s.send(`${HOLD} follow me`, false);
        await until(async () => (await s.get(held.id)).state === 'working');
        const stream = s.resubscribe(held.id);
        const first = await stream.next();
        expect(first.value).toMatchObject({ kind: 'task', state: 'working' });
        recipient.release!();
        const rest = await collect(stream);
        expect(rest.filter((e) => e.kind === 'artifact')).toEqual([
          { kind: 'artifact', text: ' done', append: true },
        ]);
        expect(rest.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });
        const after = await s.get(held.id);
        expect(after.state).toBe('completed');
        // The second chunk was appended to the one artifact, not added beside it.
        expect(after.text).toBe(`echo: ${HOLD} follow me done`);
      });

      it('streams the question back, the stream ends there, and streams the follow-up', async () => {
        const asking = await collect(s.stream(`${ASK} book a table`));
        expect(asking.at(-1)).toMatchObject({ kind: 'status', state: 'input-required' });
        const asked = await s.get(taskIdOf(asking));
        expect(asked).toMatchObject({ state: 'input-required', ask: QUESTION });
        const answering = await collect(s.stream('four', asked));
        expect(taskIdOf(answering)).toBe(asked.id);
        expect(answering.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });
        expect(artifactText(answering)).toContain('four');
      });
    }

    it('errors: unknown task → not found; cancel of a finished task → not cancelable', async () => {
      await expect(s.get('task-nope')).rejects.toBeInstanceOf(driver.notFound);
      await expect(s.cancel('task-nope')).rejects.toBeInstanceOf(driver.notFound);
      const done = await s.send('finish me', true);
      await expect(s.cancel(done.id)).rejects.toBeInstanceOf(driver.notCancelable);
    });
  });

  it("spoke its own version's dialect on the wire", () => {
    expect([...wire[driver.name]!].sort()).toEqual(driver.wire);
  });

  it('errors: an unknown agent has no card, and its endpoint refuses the call', async () => {
    await expect(driver.open(UNKNOWN)).rejects.toThrow(/404/);
    const gone = await driver.open('echo', UNKNOWN);
    // Both versions keep the hub's code on the error they throw for a code they do not name.
    const unknownAgent = { errorResponse: { error: { code: -32016 } } };
    await expect(gone.send('anyone there?', true)).rejects.toMatchObject(unknownAgent);
    await expect(gone.get('task-nope')).rejects.toMatchObject(unknownAgent);
  });
});
