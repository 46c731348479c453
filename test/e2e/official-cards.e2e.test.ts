// Every official agent serves its card at {agent_url}/.well-known/agent.json (the registered
// shape) and agent-card.json (A2A), by alias and by canonical id, without a key, and answers by
// alias through /a2a: the kit's cards are what the hub publishes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { officialAgents } from '../../agents/index.js';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';

let h: AgentHub;

beforeAll(async () => {
  h = await startAgentHub();
});

afterAll(async () => {
  await h?.close();
});

describe('official agent cards', () => {
  it.each(officialAgents.map((a) => [a.alias, a] as const))(
    '%s serves its registered card and its A2A card',
    async (alias, agent) => {
      for (const who of [alias, agent.id]) {
        const res = await fetch(`${h.url}/agents/${who}/.well-known/agent.json`);
        expect(res.status).toBe(200);
        const card = (await res.json()) as {
          name: string;
          description: string;
          url: string;
          skills: Array<{ id: string }>;
        };
        expect(card.name).toBe(agent.card.name);
        expect(card.description).toBe(agent.card.description);
        expect(card.url).toContain(`/agents/${agent.id}`);
        expect(card.skills.map((s) => s.id)).toEqual(agent.card.skills.map((s) => s.id));
      }
      const a2a = await fetch(`${h.url}/agents/${alias}/.well-known/agent-card.json`, {
        headers: { 'a2a-version': '1.0' },
      });
      expect(a2a.status).toBe(200);
      expect(((await a2a.json()) as { name: string }).name).toBe(agent.card.name);
    }
  );

  it('lists every official agent as a public agent of the official tenant', async () => {
    const tenant = await h.tenant('Cards Org');
    const caller = await h.agent(tenant, 'caller');
    const r = await ask(h.url, caller.key, 'echo', 'hello cards');
    expect(r.state).toBe('completed');
    const rows = await h.hub.sql<Array<{ id: string; visibility: string; transport: string }>>`
      select id, visibility, transport from agents where tenant_id = 'ten-official' order by id`;
    expect(rows.map((r) => r.id).sort()).toEqual(officialAgents.map((a) => a.id).sort());
    expect(new Set(rows.map((r) => `${r.visibility}/${r.transport}`))).toEqual(
      new Set(['public/official'])
    );
  });
});
