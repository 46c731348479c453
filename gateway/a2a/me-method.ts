// `x-burrow/agent.me` (hub dialect, POST /a2a and the agent WebSocket): who the caller's key
// speaks for. A client holding only a key (the MCP server, issue 29) learns its agent id and
// tenant here, the same identity the hub stamps into every x-hub envelope it signs for it.
import { HubError } from '../../runtime/errors/index.js';
import type { AgentDirectory } from '../../actors/index.js';
import type { HubMethod } from './hub-methods.js';

export const ME_METHOD = 'x-burrow/agent.me';

/** The caller's identity as the hub knows it: for an agent key, the agent's own record too. */
export interface MeResult {
  kind: 'agent' | 'admin';
  tenantId: string;
  agentId?: string;
  name?: string;
  description?: string;
  alias?: string | null;
  visibility?: string;
  category?: string | null;
  tags?: string[];
  transport?: string;
}

export function meMethod(directory: Pick<AgentDirectory, 'get'>): Map<string, HubMethod> {
  const me: HubMethod = async (_params, c): Promise<MeResult> => {
    const p = c.principal;
    if (p.kind === 'admin') return { kind: 'admin', tenantId: p.tenantId };
    const agent = await directory.get(p.agentId);
    // A key outlives its agent only until the revocation broadcast: answer as for any stale key.
    if (agent === null) throw new HubError('UNAUTHENTICATED', 'The API key has no agent');
    return {
      kind: 'agent',
      tenantId: p.tenantId,
      agentId: agent.id,
      name: agent.name,
      description: agent.description,
      alias: agent.alias,
      visibility: agent.visibility,
      category: agent.category,
      tags: agent.tags,
      transport: agent.transport,
    };
  };
  return new Map([[ME_METHOD, me]]);
}
