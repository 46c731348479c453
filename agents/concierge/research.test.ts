import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  excerpt,
  fanOut,
  leadSentence,
  synthesize,
  type Outcome,
  type Settled,
} from './research.js';
import { renderResearch } from './render.js';
import type { Match } from './rank.js';
import { agent } from './test-fakes.js';
import { RESEARCH_AGENT_ID, whomToAsk } from './concierge.js';

function match(id: string, name: string, alias: string | null, score: number): Match {
  return {
    agent: agent({ id, name, alias }),
    score,
    similarity: score,
    boost: 0,
    why: { tags: [], skills: [], names: [] },
  };
}

const fast = match('agent-fast', 'Fast', 'fast', 0.6);
const slow = match('agent-slow', 'Slow', null, 0.5);
const broken = match('agent-broken', 'Broken', 'broken', 0.4);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

describe('fanOut', () => {
  // Simulated time: the slow agent would take 5 s; the check is that the fan-out settles once the
  // deadline's 150 simulated ms have passed, whatever the machine's load.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Tracks whether a promise has settled, without awaiting it. */
  const track = <T>(p: Promise<T>) => {
    const state = { settled: false, value: undefined as T | undefined };
    void p.then((v) => {
      state.settled = true;
      state.value = v;
    });
    return state;
  };

  it('asks every agent in parallel and settles each by the deadline', async () => {
    const aborted: string[] = [];
    const run = track(
      fanOut(
        [fast, slow, broken],
        async (m, signal): Promise<Settled> => {
          if (m === broken) throw new Error('upstream said no');
          if (m === slow) {
            await sleep(5000, signal);
            if (signal.aborted) aborted.push(m.agent.id);
            return { status: 'answered', taskId: 't-slow', text: 'too late' };
          }
          await sleep(10);
          return { status: 'answered', taskId: 't-fast', text: 'Quick answer.' };
        },
        150,
        new AbortController().signal
      )
    );
    await vi.advanceTimersByTimeAsync(149);
    expect(run.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.settled).toBe(true);
    const out = run.value!;
    expect(out.map((o) => o.status)).toEqual(['answered', 'timeout', 'failed']);
    expect(out[2]).toMatchObject({ reason: 'upstream said no' });
    expect(out[1]).toMatchObject({ afterMs: 150 });
    await vi.waitFor(() => expect(aborted).toEqual(['agent-slow']));
  });

  it('stops at once when the caller cancels', async () => {
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 50);
    const run = track(
      fanOut(
        [slow],
        async (_m, signal): Promise<Settled> => {
          await sleep(5000, signal);
          return { status: 'failed', reason: 'canceled' };
        },
        10_000,
        caller.signal
      )
    );
    await vi.advanceTimersByTimeAsync(49);
    expect(run.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.settled).toBe(true);
    expect(run.value![0]!.status).toBe('timeout');
  });
});

describe('synthesize', () => {
  const outcomes: Outcome[] = [
    {
      match: fast,
      status: 'answered',
      taskId: 't1',
      text: 'It will rain. Bring an umbrella.\nMore detail.',
    },
    { match: slow, status: 'timeout', afterMs: 1500 },
    { match: broken, status: 'failed', reason: 'database is down' },
    {
      match: match('agent-quiet', 'Quiet', null, 0.3),
      status: 'answered',
      taskId: 't4',
      text: '  ',
    },
  ];

  it('cites each answer, and names every agent that did not answer with its reason', () => {
    const s = synthesize('rain?', outcomes);
    expect(s).toMatchObject({ query: 'rain?', asked: 4, answered: 1 });
    expect(s.summary).toEqual([{ cite: 1, sentence: 'It will rain.' }]);
    expect(s.sources[0]).toMatchObject({
      cite: 1,
      agentId: 'agent-fast',
      alias: 'fast',
      taskId: 't1',
      score: 0.6,
    });
    expect(s.missing).toEqual([
      expect.objectContaining({
        agentId: 'agent-slow',
        status: 'timeout',
        reason: 'no answer within 1.5 s',
      }),
      expect.objectContaining({
        agentId: 'agent-broken',
        status: 'failed',
        reason: 'database is down',
      }),
      expect.objectContaining({
        agentId: 'agent-quiet',
        status: 'failed',
        reason: 'answered with no text',
      }),
    ]);
  });

  it('renders the count first, a section per source, and the ones without an answer', () => {
    const { text, data } = renderResearch(synthesize('rain?', outcomes));
    const lines = text.split('\n');
    expect(lines[0]).toBe('🔎 Research: 1 of 4 agents answered “rain?”');
    expect(text).toContain('• It will rain. [1]');
    expect(text).toContain(
      '[1] Fast (fast, agent-fast) — score 0.60\n  It will rain. Bring an umbrella.\n  More detail.'
    );
    expect(text).toContain('• Slow (agent-slow) — ⏱️ timed out: no answer within 1.5 s');
    expect(text).toContain('• Broken (broken, agent-broken) — ❌ failed: database is down');
    expect(data).toMatchObject({ mode: 'research', answered: 1, asked: 4 });
  });
});

describe('excerpt and leadSentence', () => {
  it('keeps the first lines and marks what was cut', () => {
    expect(excerpt('a\n\nb\nc\nd\ne', 3)).toBe('a\nb\nc\n…');
    expect(excerpt('x'.repeat(50), 4, 10)).toBe('x'.repeat(9) + '…');
    expect(excerpt('one\ntwo')).toBe('one\ntwo');
  });

  it('takes the first sentence of the first line', () => {
    expect(leadSentence('Sunny, 21 °C. Wind 10 km/h.')).toBe('Sunny, 21 °C.');
    expect(leadSentence('no period here\nsecond line')).toBe('no period here');
    expect(leadSentence('3.5 percent is the rate! Really.')).toBe('3.5 percent is the rate!');
  });
});

describe('whomToAsk', () => {
  it('gives the question to the research agent alone when it is the best match', () => {
    const research = match(RESEARCH_AGENT_ID, 'Research', 'research', 0.8);
    expect(whomToAsk([research, fast, slow])).toEqual([research]);
    expect(whomToAsk([fast, research, slow])).toEqual([fast, research, slow]);
    expect(whomToAsk([])).toEqual([]);
  });
});
