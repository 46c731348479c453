// The concierge through the running hub: a seeded directory of public HTTP agents in another
// tenant (backed by node:http servers answering A2A JSON-RPC), a private agent of a third tenant,
// a private agent of the caller's own tenant, and the official agents. Routing, research, find,
// failures and timeouts of the agents called, and who the called agents see as the sender.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { forgedEnvelope } from '../support/test-hub.js';
import { rpc, text } from '../support/rpc.js';
import { createAgent } from '../../infra/db/index.js';

interface Skill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
}
interface Seeded {
  name: string;
  alias?: string;
  description: string;
  tags: string[];
  skills: Skill[];
  /** 'public' in Directory Inc, 'secret' = private in Secret Ltd, 'own' = private in Caller Co. */
  home: 'public' | 'secret' | 'own';
  /** What the HTTP agent does with a request. */
  behave: { answer: string } | { error: string } | { slowMs: number; answer: string };
}

const SEED: Record<string, Seeded> = {
  weather: {
    name: 'Skyward Weather',
    alias: 'skyward',
    description: 'Daily weather forecasts for any city: rain, temperature and wind.',
    tags: ['weather', 'forecast'],
    skills: [
      {
        id: 'forecast',
        name: 'Forecast',
        description: 'The forecast for a city and a day.',
        tags: ['forecast'],
        examples: ['will it rain in Paris tomorrow?', 'temperature in Berlin on Friday'],
      },
    ],
    home: 'public',
    behave: { answer: 'Light rain in Paris tomorrow, 14 °C. Take an umbrella.\nWind 10 km/h.' },
  },
  legal: {
    name: 'Clause Counsel',
    alias: 'clause-counsel',
    description:
      'Reviews legal contracts: clauses, obligations, notice periods, termination and liability.',
    tags: ['legal', 'contract', 'law'],
    skills: [
      {
        id: 'review',
        name: 'Review clauses',
        description: 'Flags risky clauses in a contract and explains them.',
        tags: ['contract'],
        examples: ['what notice period is usual in a services contract?'],
      },
    ],
    home: 'public',
    behave: { answer: "30 days' notice is usual in a services contract." },
  },
  chef: {
    name: 'Recipe Chef',
    description: 'Cooking recipes and meal ideas from the ingredients you have.',
    tags: ['cooking', 'recipe', 'food'],
    skills: [
      {
        id: 'suggest',
        name: 'Suggest a recipe',
        description: 'A recipe from the ingredients at hand.',
        tags: ['recipe'],
        examples: ['what can I cook with eggs and spinach?'],
      },
    ],
    home: 'public',
    behave: { answer: 'A spinach omelette.' },
  },
  storm: {
    name: 'Storm Watch',
    description: 'Severe weather warnings: storms, heavy rain and flood alerts by region.',
    tags: ['weather', 'storm', 'alerts'],
    skills: [
      {
        id: 'alerts',
        name: 'Storm alerts',
        description: 'Current storm and heavy rain warnings for a region.',
        tags: ['storm'],
        examples: ['any storm warnings for Brittany?'],
      },
    ],
    home: 'public',
    behave: { slowMs: 6000, answer: 'No storm warnings.' },
  },
  radar: {
    name: 'Rain Radar',
    description: 'Rain radar and precipitation nowcasts for the next two hours.',
    tags: ['weather', 'rain', 'radar'],
    skills: [
      {
        id: 'nowcast',
        name: 'Nowcast',
        description: 'Whether rain is coming in the next two hours.',
        tags: ['nowcast'],
        examples: ['is rain coming in the next hour in Lyon?'],
      },
    ],
    home: 'public',
    behave: { error: 'radar feed is down' },
  },
  // Would win every Paris weather question, if the concierge ever looked past visibility.
  secret: {
    name: 'Paris Rain Oracle',
    description: 'Knows whether it will rain in Paris tomorrow: the Paris weather forecast.',
    tags: ['weather', 'paris', 'rain', 'forecast'],
    skills: [
      {
        id: 'paris',
        name: 'Paris forecast',
        description: 'Will it rain in Paris tomorrow.',
        tags: ['paris'],
        examples: ['will it rain in Paris tomorrow?'],
      },
    ],
    home: 'secret',
    behave: { answer: 'SECRET ORACLE ANSWER' },
  },
  ledger: {
    name: 'Ledger',
    description: 'Our invoices and payments ledger: unpaid invoices and payment status.',
    tags: ['invoices', 'payments', 'finance'],
    skills: [
      {
        id: 'unpaid',
        name: 'Unpaid invoices',
        description: 'Lists the invoices not yet paid.',
        tags: ['invoices'],
        examples: ['which invoices are unpaid?'],
      },
    ],
    home: 'own',
    behave: { answer: 'Two invoices are unpaid.' },
  },
};

interface Seen {
  agent: string;
  method: string;
  sender: { agentId?: string; tenantId?: string } | undefined;
  text: string;
}

let h: AgentHub;
let server: Server;
const seen: Seen[] = [];
const ids: Record<string, string> = {};
const tenants: Record<string, string> = {};
let alice: { id: string; key: string };
let zed: { id: string; key: string };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });
}

function httpAgents(): Server {
  return createServer((req, res) => {
    void (async () => {
      const name = (req.url ?? '').split('/').at(-1) ?? '';
      const seed = SEED[name];
      const body = JSON.parse(await readBody(req)) as {
        id: unknown;
        method: string;
        params: {
          message?: { parts: Array<{ text?: string }> };
          'x-hub'?: { sender?: { agentId?: string; tenantId?: string } };
        };
      };
      seen.push({
        agent: name,
        method: body.method,
        sender: body.params['x-hub']?.sender,
        text: (body.params.message?.parts ?? []).map((p) => p.text ?? '').join(' '),
      });
      const reply = (payload: Record<string, unknown>) => {
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...payload }));
      };
      if (!seed) return reply({ error: { code: -32601, message: `no agent ${name}` } });
      if (body.method !== 'SendMessage')
        return reply({ result: { status: { state: 'canceled' } } });
      const b = seed.behave;
      if ('error' in b) return reply({ error: { code: -32000, message: b.error } });
      if ('slowMs' in b) await new Promise((r) => setTimeout(r, b.slowMs));
      reply({ result: b.answer });
    })();
  });
}

const seenBy = (agent: string) => seen.filter((s) => s.agent === agent);

async function eventually(ok: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

beforeAll(async () => {
  server = httpAgents();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/a2a`;
  h = await startAgentHub();
  tenants.caller = await h.tenant('Caller Co');
  tenants.directory = await h.tenant('Directory Inc');
  tenants.secret = await h.tenant('Secret Ltd');
  alice = await h.agent(tenants.caller, 'alice');
  zed = await h.agent(tenants.directory, 'zed');
  for (const [key, s] of Object.entries(SEED)) {
    const url = `${base}/${key}`;
    const created = await createAgent(h.hub.sql, {
      tenantId:
        s.home === 'public'
          ? tenants.directory
          : s.home === 'own'
            ? tenants.caller
            : tenants.secret,
      name: s.name,
      description: s.description,
      tags: s.tags,
      url,
      visibility: s.home === 'public' ? 'public' : 'private',
      ...(s.alias ? { alias: s.alias } : {}),
      card: {
        name: s.name,
        description: s.description,
        url,
        version: '1.0.0',
        capabilities: { streaming: false, pushNotifications: false },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: s.skills,
      },
    });
    ids[key] = created.agent.id;
  }
});

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await h?.close();
});

describe('routing (no prefix)', () => {
  it('forwards a question to the best agent, as the caller, and says who answered', async () => {
    const before = seen.length;
    const r = await ask(h.url, alice.key, 'concierge', 'will it rain in Paris tomorrow?');
    expect(r.statusText).toBe('');
    expect(r.state).toBe('completed');
    expect(r.text).toMatch(
      new RegExp(
        `^🛎️ Routed to Skyward Weather \\(skyward, ${ids.weather}\\) — score 0\\.\\d\\d\\n\\n`
      )
    );
    expect(r.text).toContain('Light rain in Paris tomorrow, 14 °C.');
    const calls = seen.slice(before);
    expect(calls).toEqual([
      {
        agent: 'weather',
        method: 'SendMessage',
        sender: { agentId: alice.id, tenantId: tenants.caller },
        text: 'will it rain in Paris tomorrow?',
      },
    ]);
    // The private oracle of another tenant matches better, and is never seen.
    expect(seenBy('secret')).toEqual([]);
  });

  it('routes "ping" to the official echo agent', async () => {
    const r = await ask(h.url, alice.key, 'concierge', 'ping');
    expect(r.state).toBe('completed');
    expect(r.text).toMatch(/^🛎️ Routed to Echo \(echo, agent-echo-official\) — score /);
    expect(r.text).toMatch(/pong/);
  });

  it('routes to a private agent of the caller’s own tenant', async () => {
    const r = await ask(h.url, alice.key, 'concierge', 'which invoices are unpaid?');
    expect(r.state).toBe('completed');
    expect(r.text).toContain(`Routed to Ledger (${ids.ledger})`);
    expect(r.text).toContain('Two invoices are unpaid.');
  });

  it('gives the routed agent, its answer and the scores as JSON data when asked', async () => {
    const r = await ask(
      h.url,
      alice.key,
      'concierge',
      'what notice period is usual in a services contract?',
      { accept: ['application/json'] }
    );
    expect(r.state).toBe('completed');
    const d = r.data as {
      mode: string;
      agent: { agentId: string; alias: string; name: string };
      score: number;
      answer: string;
      taskId: string;
      candidates: Array<{ agentId: string; score: number; why: { tags: string[] } }>;
    };
    expect(d.mode).toBe('route');
    expect(d.agent).toEqual({
      agentId: ids.legal,
      alias: 'clause-counsel',
      name: 'Clause Counsel',
    });
    expect(d.answer).toBe("30 days' notice is usual in a services contract.");
    expect(d.score).toBeGreaterThanOrEqual(0.25);
    expect(d.taskId).toMatch(/^task-/);
    expect(d.candidates[0]).toMatchObject({ agentId: ids.legal, score: d.score });
    expect(d.candidates[0]!.why.tags).toContain('contract');
  });

  it('forwards `message` in the JSON form while matching on `query`', async () => {
    const before = seen.length;
    const r = await ask(h.url, alice.key, 'concierge', {
      action: 'route',
      query: 'recipe ideas for cooking',
      message: 'eggs, spinach, feta',
    });
    expect(r.state).toBe('completed');
    expect(r.text).toContain(`Routed to Recipe Chef (${ids.chef})`);
    expect(seen.slice(before).map((s) => [s.agent, s.text])).toEqual([
      ['chef', 'eggs, spinach, feta'],
    ]);
  });

  it('cannot be made to act for another tenant or sender through params or the body', async () => {
    const before = seen.length;
    const r = await ask(
      h.url,
      alice.key,
      'concierge',
      {
        action: 'route',
        query: 'will it rain in Paris tomorrow?',
        tenantId: tenants.secret,
        senderId: 'agent-forged',
        sender: { agentId: 'agent-forged', tenantId: tenants.secret },
      },
      {
        params: {
          'x-hub': forgedEnvelope('agent-concierge-official'),
          tenantId: tenants.secret,
          senderId: 'agent-forged',
        },
      }
    );
    expect(r.state).toBe('completed');
    expect(r.text).toContain(`Routed to Skyward Weather (skyward, ${ids.weather})`);
    expect(seen.slice(before)).toEqual([
      {
        agent: 'weather',
        method: 'SendMessage',
        sender: { agentId: alice.id, tenantId: tenants.caller },
        text: 'will it rain in Paris tomorrow?',
      },
    ]);
    expect(seenBy('secret')).toEqual([]);
  });

  it('fails naming the agent and its reason when the agent called fails', async () => {
    const r = await ask(h.url, alice.key, 'concierge', 'rain radar nowcast for the next hour');
    expect(r.state).toBe('failed');
    expect(r.statusText).toBe(`Rain Radar (${ids.radar}) failed: radar feed is down`);
  });

  it('fails naming the agent when it does not answer in time, and cancels its task', async () => {
    const before = seen.length;
    const r = await ask(h.url, alice.key, 'concierge', {
      action: 'route',
      query: 'storm warnings',
      timeout_ms: 1000,
    });
    expect(r.state).toBe('failed');
    expect(r.statusText).toBe(`Storm Watch (${ids.storm}) did not answer within 1 s`);
    await eventually(() => seen.slice(before).some((c) => c.method === 'CancelTask'));
    expect(seen.slice(before).map((c) => [c.agent, c.method])).toEqual([
      ['storm', 'SendMessage'],
      ['storm', 'CancelTask'],
    ]);
  });

  it('cancels the forwarded task when the caller cancels the concierge task', async () => {
    const before = seen.length;
    const sent = await rpc<{ id: string }>(h.url, alice.key, 'SendMessage', {
      message: text('storm warnings'),
      configuration: { agentId: 'concierge' },
    });
    expect(sent.error).toBeUndefined();
    await eventually(() => seen.slice(before).some((c) => c.method === 'SendMessage'));
    const canceled = await rpc<{ status: { state: string } }>(h.url, alice.key, 'CancelTask', {
      id: sent.result!.id,
    });
    expect(canceled.result?.status.state).toBe('canceled');
    await eventually(() => seen.slice(before).some((c) => c.method === 'CancelTask'));
    expect(seen.slice(before).map((c) => [c.agent, c.method])).toEqual([
      ['storm', 'SendMessage'],
      ['storm', 'CancelTask'],
    ]);
  });

  it('fails saying no agent matched, and suggests find:', async () => {
    const before = seen.length;
    const r = await ask(h.url, alice.key, 'concierge', 'book a flight to Rome');
    expect(r.state).toBe('failed');
    expect(r.statusText).toMatch(
      /^no agent matched “book a flight to Rome” \(closest: .* at 0\.\d\d, below the minimum 0\.25\)/
    );
    expect(r.statusText).toContain('"find: <words>"');
    expect(seen.length).toBe(before);
  });
});

describe('find:', () => {
  it('lists the matching agents, best first, with scores and why, and calls none of them', async () => {
    const before = seen.length;
    const r = await ask(h.url, alice.key, 'concierge', 'find: weather forecast');
    expect(r.state).toBe('completed');
    const lines = r.text.split('\n');
    expect(lines[0]).toMatch(/^🔍 \d agents match “weather forecast”:$/);
    expect(r.text).toContain(`1. Skyward Weather (skyward, ${ids.weather}) — score `);
    expect(r.text).toContain(
      '   Daily weather forecasts for any city: rain, temperature and wind.'
    );
    expect(r.text).toMatch(/why: tags weather, forecast; skills “Forecast”/);
    expect(r.text).toContain(`Storm Watch (${ids.storm})`);
    expect(r.text).not.toContain('Paris Rain Oracle');
    // Fence: a routed question after the find. A call the find made would have gone out before
    // its answer, so before this one: the fence's call must be the only new one.
    const fence = await ask(h.url, alice.key, 'concierge', 'will it rain in Paris tomorrow?');
    expect(fence.state).toBe('completed');
    expect(seen.slice(before).map((c) => [c.agent, c.method])).toEqual([
      ['weather', 'SendMessage'],
    ]);
  });

  it('finds the official memory agent for a memory-ish query', async () => {
    const r = await ask(h.url, alice.key, 'concierge', 'find: remember my dentist appointment');
    expect(r.state).toBe('completed');
    expect(r.text).toContain('1. ');
    expect(r.text.split('\n').find((l) => l.startsWith('1. '))).toContain('agent-memory-official');
  });

  it('answers JSON data with the matches', async () => {
    const r = await ask(
      h.url,
      alice.key,
      'concierge',
      { action: 'find', query: 'what can I cook with eggs', limit: 2 },
      { accept: ['application/json'] }
    );
    expect(r.state).toBe('completed');
    const d = r.data as {
      mode: string;
      matches: Array<{ agentId: string; name: string; score: number; why: { skills: string[] } }>;
    };
    expect(d.mode).toBe('find');
    expect(d.matches.length).toBeGreaterThanOrEqual(1);
    expect(d.matches.length).toBeLessThanOrEqual(2);
    expect(d.matches[0]).toMatchObject({ agentId: ids.chef, name: 'Recipe Chef' });
    expect(d.matches[0]!.why.skills).toContain('Suggest a recipe');
  });

  it('never lists a private agent of another tenant', async () => {
    const mine = await ask(
      h.url,
      alice.key,
      'concierge',
      {
        action: 'find',
        query: 'will it rain in Paris tomorrow',
        limit: 50,
        min_score: -1,
      },
      { accept: ['application/json'] }
    );
    const listed = (mine.data as { matches: Array<{ agentId: string }> }).matches.map(
      (m) => m.agentId
    );
    expect(listed).toContain(ids.ledger);
    expect(listed).toContain(ids.weather);
    expect(listed).toContain('agent-echo-official');
    expect(listed).not.toContain(ids.secret);
    expect(listed).not.toContain('agent-concierge-official');

    const theirs = await ask(
      h.url,
      zed.key,
      'concierge',
      {
        action: 'find',
        query: 'which invoices are unpaid?',
        limit: 50,
        min_score: -1,
      },
      { accept: ['application/json'] }
    );
    const seenByZed = (theirs.data as { matches: Array<{ agentId: string }> }).matches.map(
      (m) => m.agentId
    );
    expect(seenByZed).toContain(ids.weather);
    expect(seenByZed).not.toContain(ids.ledger);
    expect(seenByZed).not.toContain(ids.secret);
  });

  it('tells the caller to say what to find', async () => {
    const r = await ask(h.url, alice.key, 'concierge', 'find:   ');
    expect(r.state).toBe('failed');
    expect(r.statusText).toBe('say what to find after "find:", e.g. "find: weather forecast"');
  });
});

describe('research:', () => {
  it('asks the top agents in parallel and cites each, naming the one that timed out and the one that failed', async () => {
    const before = seen.length;
    const r = await ask(h.url, alice.key, 'concierge', {
      action: 'research',
      query: 'rain forecast and storm warnings',
      deadline_ms: 2000,
    });
    expect(r.state).toBe('completed');
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('🔎 Research: 1 of 3 agents answered “rain forecast and storm warnings”');
    expect(r.text).toContain('• Light rain in Paris tomorrow, 14 °C. [1]');
    expect(r.text).toContain(`[1] Skyward Weather (skyward, ${ids.weather}) — score 0.`);
    expect(r.text).toContain(
      '  Light rain in Paris tomorrow, 14 °C. Take an umbrella.\n  Wind 10 km/h.'
    );
    expect(r.text).toContain(`• Storm Watch (${ids.storm}) — ⏱️ timed out: no answer within 2 s`);
    expect(r.text).toContain(`• Rain Radar (${ids.radar}) — ❌ failed: radar feed is down`);
    await eventually(() => seen.slice(before).some((c) => c.method === 'CancelTask'));
    const calls = seen.slice(before).filter((c) => c.method === 'SendMessage');
    expect(calls.map((c) => c.agent).sort()).toEqual(['radar', 'storm', 'weather']);
    // The agent that ran out of time has its task canceled, not left working for the caller.
    expect(
      seen
        .slice(before)
        .filter((c) => c.method === 'CancelTask')
        .map((c) => c.agent)
    ).toEqual(['storm']);
    for (const c of calls) {
      expect(c.sender).toEqual({ agentId: alice.id, tenantId: tenants.caller });
      expect(c.text).toBe('rain forecast and storm warnings');
    }
  });

  it('gives the sections as JSON data when asked', async () => {
    const r = await ask(
      h.url,
      alice.key,
      'concierge',
      { action: 'research', query: 'rain forecast and storm warnings', deadline_ms: 1500 },
      { accept: ['application/json'] }
    );
    expect(r.state).toBe('completed');
    const d = r.data as {
      mode: string;
      asked: number;
      answered: number;
      sources: Array<{ cite: number; agentId: string; answer: string }>;
      missing: Array<{ agentId: string; status: string; reason: string }>;
    };
    expect(d).toMatchObject({ mode: 'research', asked: 3, answered: 1 });
    expect(d.sources).toEqual([
      expect.objectContaining({
        cite: 1,
        agentId: ids.weather,
        answer: 'Light rain in Paris tomorrow, 14 °C. Take an umbrella.\nWind 10 km/h.',
      }),
    ]);
    expect(d.missing).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          agentId: ids.storm,
          status: 'timeout',
          reason: 'no answer within 1.5 s',
        }),
        expect.objectContaining({
          agentId: ids.radar,
          status: 'failed',
          reason: 'radar feed is down',
        }),
      ])
    );
  });

  it('takes the text form with the default number of agents', async () => {
    const r = await ask(
      h.url,
      alice.key,
      'concierge',
      'research: what notice period is usual in a services contract?'
    );
    expect(r.state).toBe('completed');
    expect(r.text.split('\n')[0]).toMatch(
      /^🔎 Research: 1 of 1 agent answered “what notice period/
    );
    expect(r.text).toContain(`[1] Clause Counsel (clause-counsel, ${ids.legal})`);
  });

  it('fails naming every agent when none answered', async () => {
    const r = await ask(h.url, alice.key, 'concierge', {
      action: 'research',
      query: 'rain radar nowcast for the next hour',
      max_agents: 1,
      deadline_ms: 1500,
    });
    expect(r.state).toBe('failed');
    expect(r.statusText).toBe(
      `no agent answered “rain radar nowcast for the next hour” (1 asked) — Rain Radar (${ids.radar}): radar feed is down`
    );
  });
});

describe('requests the concierge cannot act on', () => {
  it('explains the three forms, with examples, for an empty request', async () => {
    const r = await ask(h.url, alice.key, 'concierge', '   ');
    expect(r.state).toBe('failed');
    expect(r.statusText).toContain('will it rain in Paris tomorrow?');
    expect(r.statusText).toContain('"research: <question>"');
    expect(r.statusText).toContain('"find: <words>"');
  });

  it('names the actions for an unknown JSON action, and the field for a bad one', async () => {
    const r = await ask(h.url, alice.key, 'concierge', { action: 'book', query: 'x' });
    expect(r.state).toBe('failed');
    expect(r.statusText).toBe('unknown action "book"; use one of "route", "research", "find"');
    const bad = await ask(h.url, alice.key, 'concierge', {
      action: 'research',
      query: 'x',
      deadline_ms: 10,
    });
    expect(bad.state).toBe('failed');
    expect(bad.statusText).toMatch(/^research: `deadline_ms`/);
  });
});
