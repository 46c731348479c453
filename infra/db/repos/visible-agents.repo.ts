// The agents a tenant's agents may see and message: public agents of any tenant (the official ones
// among them) and every agent of its own tenant. The concierge routes over this list.
import type { Db } from '../client.js';

export interface VisibleAgentRow {
  id: string;
  alias: string | null;
  tenantId: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  skills: Array<{ name: string; description: string; tags: string[]; examples: string[] }>;
  updatedAt: Date;
}

/** At most `limit` agents, most recently changed first (a bound, not a ranking). */
export async function listVisibleAgents(
  sql: Db,
  tenantId: string,
  limit = 2000
): Promise<VisibleAgentRow[]> {
  const rows = await sql<
    Array<Omit<VisibleAgentRow, 'skills' | 'tags'> & { tags: unknown; card: unknown }>
  >`
    select id, alias, tenant_id, name, description, category, tags, card, updated_at
      from agents
     where deleted_at is null and (visibility = 'public' or tenant_id = ${tenantId})
     order by updated_at desc
     limit ${limit}`;
  return rows.map((r) => ({
    id: r.id,
    alias: r.alias,
    tenantId: r.tenantId,
    name: r.name,
    description: r.description,
    category: r.category,
    tags: strings(r.tags),
    skills: skillsOf(r.card),
    updatedAt: r.updatedAt,
  }));
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function skillsOf(card: unknown): VisibleAgentRow['skills'] {
  const skills = (card as { skills?: unknown } | null)?.skills;
  if (!Array.isArray(skills)) return [];
  return skills.map((s: Record<string, unknown>) => ({
    name: typeof s?.name === 'string' ? s.name : '',
    description: typeof s?.description === 'string' ? s.description : '',
    tags: strings(s?.tags),
    examples: strings(s?.examples),
  }));
}
