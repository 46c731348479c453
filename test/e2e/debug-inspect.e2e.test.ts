// GET /debug/inspect against a real hub: an admin watching `kind=task` sees a task actor come into
// view and each event and transition live (Stately inspector events), through to `completed`; a
// watch by actor id that begins mid-task first shows the actor as it is, then its next transition;
// no token, a wrong token, or a bad filter is refused before the upgrade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WsAgent } from '../../sdk/index.js';
import { startAgentHub, type AgentHub } from '../support/official-agents.js';
import { rpc, text } from '../support/rpc.js';
import { until } from '../support/test-hub.js';

const ADMIN = 'inspect-admin-token-0123456789';

interface Frame {
  type: string;
  sessionId: string;
  rootId: string;
  createdAt: string;
  _version: string;
  name?: string;
  definition?: string;
  event?: { type: string };
  snapshot?: { status: string; value: unknown; context: { status?: { state: string } } };
}

interface Watch {
  frames: Frame[];
  close(): void;
}

describe('/debug/inspect', () => {
  let h: AgentHub;
  let alice: { id: string; key: string };
  let bob: { id: string; key: string };
  let agent: WsAgent;

  beforeAll(async () => {
    h = await startAgentHub({ ADMIN_TOKEN: ADMIN, DEBUG_ENABLED: 'true' });
    const tenantId = await h.tenant('Acme');
    alice = await h.agent(tenantId, 'alice');
    bob = await h.agent(tenantId, 'bob');
    agent = new WsAgent({
      url: h.url,
      apiKey: bob.key,
      onMessage: ({ text: t }) =>
        t === 'ask me' ? { state: 'input-required', text: 'what?' } : `got ${t}`,
    });
    await agent.start();
  });

  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  const wsUrl = (query: string) => `${h.url.replace(/^http/, 'ws')}/debug/inspect?${query}`;

  async function watch(query: string, headers = { authorization: `Bearer ${ADMIN}` }) {
    const ws = new WebSocket(wsUrl(query), { headers });
    const frames: Frame[] = [];
    ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString()) as Frame));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { frames, close: () => ws.close() } satisfies Watch;
  }

  /** The HTTP status the upgrade was refused with. */
  function refusal(query: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl(query), { headers });
      // ws reports a refused upgrade as an error too, once the response is read.
      ws.on('error', () => undefined);
      ws.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      });
      ws.once('open', () => reject(new Error('upgraded')));
    });
  }

  async function send(body: string, taskId?: string) {
    const r = await rpc<{ id: string; status: { state: string } }>(
      h.url,
      alice.key,
      'SendMessage',
      {
        message: { ...text(body), ...(taskId ? { taskId } : {}) },
        configuration: { ...(taskId ? {} : { agentId: bob.id }), blocking: true },
      }
    );
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    return r.result!;
  }

  it("shows a task actor's transitions live, in the Stately inspector's format", async () => {
    const w = await watch('kind=task');
    const task = await send('hello');
    expect(task.status.state).toBe('completed');
    const session = `task:${task.id}`;
    const mine = () => w.frames.filter((f) => f.sessionId === session);
    await until(() => mine().some((f) => f.snapshot?.status === 'done'));
    w.close();
    const frames = mine();
    expect(frames[0]).toMatchObject({ type: '@xstate.actor', name: 'task', rootId: session });
    expect(JSON.parse(frames[0]!.definition!)).toMatchObject({ id: 'task', initial: 'submitted' });
    expect(frames[0]!.snapshot).toMatchObject({ status: 'active', value: 'submitted' });
    for (const f of frames) {
      expect(f._version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(Number(f.createdAt)).toBeGreaterThan(0);
    }
    // Every transition is announced by the event that caused it, and the states follow in order.
    const snapshots = frames.filter((f) => f.type === '@xstate.snapshot');
    for (const s of snapshots) {
      const i = frames.indexOf(s);
      expect(frames[i - 1]).toMatchObject({ type: '@xstate.event', event: s.event });
    }
    const values = snapshots.map((s) => s.snapshot!.value);
    expect(values.at(-1)).toBe('completed');
    expect(values).toContain('working');
    expect(snapshots.at(-1)!.snapshot).toMatchObject({
      status: 'done',
      context: { status: { state: 'completed' } },
    });
  });

  it('a watch by actor id begins with the actor as it is, then follows it', async () => {
    const asked = await send('ask me');
    expect(asked.status.state).toBe('input-required');
    const w = await watch(`id=${encodeURIComponent(asked.id)}`);
    await until(() => w.frames.length > 0);
    expect(w.frames[0]).toMatchObject({
      type: '@xstate.actor',
      sessionId: `task:${asked.id}`,
      snapshot: { value: 'input-required' },
    });
    const done = await send('fine', asked.id);
    expect(done.status.state).toBe('completed');
    await until(() => w.frames.some((f) => f.snapshot?.value === 'completed'));
    w.close();
    expect(w.frames.every((f) => f.sessionId === `task:${asked.id}`)).toBe(true);
  });

  it('refuses no token, a wrong token, and a bad filter before the upgrade', async () => {
    expect(await refusal('kind=task', {})).toBe(401);
    expect(await refusal('kind=task', { authorization: 'Bearer nope' })).toBe(401);
    const admin = { authorization: `Bearer ${ADMIN}` };
    expect(await refusal('', admin)).toBe(400);
    expect(await refusal('kind=nothing', admin)).toBe(400);
    expect(await refusal('kind=task&kind=task', admin)).toBe(400);
    expect(await refusal('kind=task&colour=blue', admin)).toBe(400);
    const viaQuery = await watch(`kind=task&token=${ADMIN}`, { authorization: '' });
    viaQuery.close();
  });
});
