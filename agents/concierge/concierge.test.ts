import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import type { Envelope } from '../../runtime/envelope/index.js';
import type { AgentContext, AgentRequest, ForwardOptions, ForwardResult } from '../kit/index.js';
import concierge from './index.js';
import { agent, vocabularyEmbedder } from './test-fakes.js';

// The handler with a fake hub: which agent is asked, and how each way an answer can go wrong is
// told to the caller. Ranking and synthesis have their own tests.
const envelope = {
  v: 1,
  sender: { agentId: 'agent-caller', tenantId: 'tenant-a' },
  recipient: { agentId: 'agent-concierge-official', tenantId: 'tenant-official' },
} as unknown as Envelope;

const directory = [
  agent({
    id: 'agent-concierge-official',
    name: 'Concierge',
    description: 'rain weather forecast',
  }),
  agent({ id: 'agent-caller', name: 'Caller', description: 'rain weather forecast' }),
  agent({ id: 'agent-weather', name: 'Weather', alias: 'weather', description: 'rain forecast' }),
  agent({ id: 'agent-chef', name: 'Chef', description: 'recipe pasta' }),
];

function run(
  text: string,
  forward: (o: ForwardOptions) => Promise<ForwardResult>,
  o: { signal?: AbortSignal; json?: Record<string, unknown> } = {}
) {
  const asked: string[] = [];
  const req = {
    text,
    json: o.json,
    wantsJson: false,
    envelope,
    senderId: 'agent-caller',
    tenantId: 'tenant-a',
  } as unknown as AgentRequest;
  const ctx = {
    embedder: vocabularyEmbedder(['rain', 'weather', 'forecast', 'recipe', 'pasta']),
    hub: {
      visibleAgents: () => Promise.resolve(directory),
      forward: (e: Envelope, f: ForwardOptions) => {
        expect(e).toBe(envelope);
        asked.push(f.agentId);
        return forward(f);
      },
    },
    log: silentLogger,
    signal: o.signal ?? new AbortController().signal,
    now: Date.now,
  } as unknown as AgentContext;
  return { asked, result: concierge.handle(req, ctx) };
}

const answer = (state: string, text: string): Promise<ForwardResult> =>
  Promise.resolve({ agentId: 'agent-weather', taskId: 'task-1', state, text });

describe('route', () => {
  it('never picks itself or the caller, however well they match', async () => {
    const r = run('rain forecast', () => answer('completed', 'Rain.'));
    expect(await r.result).toMatchObject({
      text: '🛎️ Routed to Weather (weather, agent-weather) — score 0.58\n\nRain.',
    });
    expect(r.asked).toEqual(['agent-weather']);
  });

  it.each([
    ['failed', 'boom', 'Weather (weather, agent-weather) failed: boom'],
    ['failed', '', 'Weather (weather, agent-weather) failed: no reason given'],
    ['rejected', 'not my job', 'Weather (weather, agent-weather) rejected the request: not my job'],
    [
      'input-required',
      'which city?',
      'Weather (weather, agent-weather) needs more input: which city? — continue with it directly (task task-1)',
    ],
    ['canceled', '', 'Weather (weather, agent-weather) canceled the task'],
    ['working', '', 'Weather (weather, agent-weather) did not answer within 45 s'],
  ])('fails when the agent ends %s (%s)', async (state, said, message) => {
    await expect(run('rain', () => answer(state, said)).result).rejects.toThrow(message);
  });

  it('passes on the hub’s refusal, and hides unexpected errors', async () => {
    const refused = run('rain', () => Promise.reject(new HubError('FORBIDDEN', 'not allowed')));
    await expect(refused.result).rejects.toThrow(
      'Weather (weather, agent-weather) failed: not allowed'
    );
    const broken = run('rain', () => Promise.reject(new Error('socket hang up at 10.0.0.3')));
    await expect(broken.result).rejects.toThrow(
      'Weather (weather, agent-weather) could not be reached (the hub failed unexpectedly)'
    );
  });

  it('gives the forward the caller’s signal and the timeout asked for', async () => {
    const caller = new AbortController();
    let seen: ForwardOptions | undefined;
    const r = run(
      '',
      (f) => {
        seen = f;
        return answer('completed', 'ok');
      },
      { signal: caller.signal, json: { action: 'route', query: 'rain', timeout_ms: 1234 } }
    );
    await r.result;
    expect(seen?.signal).toBe(caller.signal);
    expect(seen?.timeoutMs).toBe(1234);
    expect(seen?.text).toBe('rain');
  });
});

describe('research', () => {
  it('fails as canceled when the caller cancels, without a summary', async () => {
    const caller = new AbortController();
    const r = run(
      'research: rain',
      (f) =>
        new Promise((_, reject) =>
          f.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
        ),
      { signal: caller.signal }
    );
    setTimeout(() => caller.abort(), 20);
    await expect(r.result).rejects.toThrow('the research was canceled before the agents answered');
  });
});
