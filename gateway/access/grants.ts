// What an approved access request lets through (issue 28 item 2): the pair check the task
// acceptor and the per-agent endpoint ask for a recipient the sender cannot otherwise see, and
// the granted agents x-gopherhole/agents.available lists.
import {
  getDirectoryAgent,
  getAgent,
  grantedPeers,
  hasAccessGrant,
  type DirectoryAgent,
  type Queryable,
} from '../../infra/db/index.js';

export function accessGranted(sql: Queryable): (a: string, b: string) => Promise<boolean> {
  return (a, b) => hasAccessGrant(sql, a, b);
}

/** The granted peers of an agent as directory records, seen as their own tenant sees them. */
export function grantedAgents(sql: Queryable): (agentId: string) => Promise<DirectoryAgent[]> {
  return async (agentId) => {
    const out: DirectoryAgent[] = [];
    for (const peer of await grantedPeers(sql, agentId)) {
      const agent = await getAgent(sql, peer);
      if (agent === null) continue;
      const record = await getDirectoryAgent(sql, { tenantId: agent.tenantId }, peer);
      if (record === null) continue;
      const { agentCard: _card, ...listed } = record;
      out.push(listed);
    }
    return out;
  };
}
