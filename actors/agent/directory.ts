// A short-lived cache of agent records in front of PostgreSQL: every message resolves its target,
// so the hot path must not query per request. Changes are broadcast on hub.directory.agent.<id>
// and drop the cached copy on every node; the TTL bounds staleness if a broadcast is missed.
import type { Subscription } from '@nats-io/nats-core';
import { subjects, type Bus } from '../../runtime/bus/index.js';
import {
  OFFICIAL_TENANT,
  getAgent,
  resolveAgent,
  type AgentRecord,
  type Queryable,
} from '../../infra/db/index.js';

export type { AgentRecord };

/**
 * May a caller of `tenantId` see (and so message) this agent? A private agent exists only for its
 * own tenant (decisions.md §5), and for the hub's official agents, which act for callers (postie
 * hands inbound mail over). Anyone else must get the answer of an unknown id.
 */
export function isVisibleTo(agent: AgentRecord, tenantId: string): boolean {
  return (
    agent.visibility !== 'private' || agent.tenantId === tenantId || tenantId === OFFICIAL_TENANT.id
  );
}

interface Entry {
  at: number;
  agent: AgentRecord | null;
}

export class AgentDirectory {
  private readonly byId = new Map<string, Entry>();
  /** `<callerTenant>|<alias>` → agent id */
  private readonly aliases = new Map<string, { at: number; id: string | null }>();
  private sub: Subscription | undefined;
  private readonly listeners: Array<(agentId: string) => void> = [];

  constructor(
    private readonly sql: Queryable,
    private readonly bus: Bus,
    private readonly ttlMs = 5000
  ) {}

  start(): void {
    this.sub = this.bus.nc.subscribe(subjects.agentChangedAll, {
      callback: (_e, msg) => {
        const agentId = msg.subject.slice(msg.subject.lastIndexOf('.') + 1);
        this.invalidate(agentId);
        for (const fn of this.listeners) fn(agentId);
      },
    });
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  /** Also tell `fn` about every change broadcast (e.g. the authenticator drops cached keys). */
  onChanged(fn: (agentId: string) => void): void {
    this.listeners.push(fn);
  }

  invalidate(agentId: string): void {
    this.byId.delete(agentId);
    for (const [k, v] of this.aliases) if (v.id === agentId) this.aliases.delete(k);
  }

  /** Tell every node (this one included) that an agent's record changed. */
  announce(agentId: string): void {
    this.invalidate(agentId);
    this.bus.nc.publish(subjects.agentChanged(agentId));
  }

  async get(id: string): Promise<AgentRecord | null> {
    const now = Date.now();
    const hit = this.byId.get(id);
    if (hit && now - hit.at < this.ttlMs) return hit.agent;
    const agent = await getAgent(this.sql, id);
    this.byId.set(id, { at: now, agent });
    return agent;
  }

  /** An agent id, or an alias of the caller's tenant, or an official alias. */
  async resolve(idOrAlias: string, callerTenantId: string): Promise<AgentRecord | null> {
    if (idOrAlias.startsWith('agent-')) {
      const direct = await this.get(idOrAlias);
      if (direct) return direct;
    }
    const now = Date.now();
    const k = `${callerTenantId}|${idOrAlias}`;
    const hit = this.aliases.get(k);
    if (hit && now - hit.at < this.ttlMs) return hit.id ? this.get(hit.id) : null;
    const agent = await resolveAgent(this.sql, idOrAlias, { callerTenantId });
    this.aliases.set(k, { at: now, id: agent?.id ?? null });
    if (agent) this.byId.set(agent.id, { at: now, agent });
    return agent;
  }
}
