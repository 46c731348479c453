// Filling the graph through the other public-data agents: research asks each one that the caller
// can see, through the hub and as the caller (kit services' forward), about the company; their
// answers write the graph as any call of theirs does. Agents not in this hub's directory are
// skipped, and every outcome is reported.
import { OFFICIAL_ALIASES, type OfficialAlias } from '../../infra/db/index.js';
import type { AgentContext, AgentRequest } from '../kit/index.js';

/** Whom to ask about a company, and how: one JSON request per agent, by alias. */
export interface FillPlan {
  alias: OfficialAlias;
  request(company: string): Record<string, unknown>;
}

/** Agents whose company skills write companies into the graph. Add a row to ask another one. */
export const FILL_PLANS: readonly FillPlan[] = [
  { alias: 'trials', request: (c) => ({ skill: 'sponsor', sponsor: c, limit: 20 }) },
  { alias: 'fda', request: (c) => ({ skill: 'sponsor', sponsor: c, limit: 20 }) },
  { alias: 'epa', request: (c) => ({ skill: 'company', company: c, limit: 20 }) },
  { alias: 'patents', request: (c) => ({ skill: 'assignee', assignee: c, limit: 20 }) },
  {
    alias: 'research-grants',
    request: (c) => ({ skill: 'institution', institution: c, limit: 20 }),
  },
  { alias: 'lobbying', request: (c) => ({ skill: 'company', company: c, limit: 20 }) },
];

export interface Asked {
  alias: string;
  agentId: string;
  status: 'answered' | 'failed' | 'unavailable';
  taskId?: string;
  reason?: string;
}

export async function fill(
  company: string,
  req: AgentRequest,
  ctx: AgentContext,
  plans: readonly FillPlan[] = FILL_PLANS
): Promise<Asked[]> {
  // The official agents by canonical id: a tenant's own agent may carry the same alias.
  const visible = new Set((await ctx.hub.visibleAgents(req.envelope)).map((a) => a.id));
  const timeoutMs = ctx.config.publicData.research.fillTimeoutMs;
  return Promise.all(
    plans.map(async (p): Promise<Asked> => {
      const agentId = OFFICIAL_ALIASES[p.alias];
      if (!visible.has(agentId) || agentId === req.senderId) {
        return { alias: p.alias, agentId, status: 'unavailable', reason: 'not in this hub' };
      }
      try {
        const a = await ctx.hub.forward(req.envelope, {
          agentId,
          text: JSON.stringify(p.request(company)),
          signal: ctx.signal,
          timeoutMs,
        });
        if (a.state === 'completed') {
          return { alias: p.alias, agentId: a.agentId, status: 'answered', taskId: a.taskId };
        }
        const said = a.text.trim();
        return {
          alias: p.alias,
          agentId: a.agentId,
          status: 'failed',
          taskId: a.taskId,
          reason:
            a.state === 'canceled' || a.state === 'working' || a.state === 'submitted'
              ? `no answer within ${timeoutMs / 1000} s`
              : `${a.state}${said ? `: ${said.split('\n')[0]}` : ''}`,
        };
      } catch (err) {
        return {
          alias: p.alias,
          agentId,
          status: 'failed',
          reason: err instanceof Error ? err.message : String(err),
        };
      }
    })
  );
}
