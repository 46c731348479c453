// What the tenant's agent list shows beside each agent's settings: its rating in the directory.
import type { Queryable } from './sql.js';

export interface AgentRating {
  /** Mean of the ratings, 1–5; null before the first. */
  readonly average: number | null;
  readonly count: number;
}

export async function agentRatings(
  sql: Queryable,
  tenantId: string
): Promise<Map<string, AgentRating>> {
  const rows = await sql<Array<{ id: string; ratingAvg: number; ratingCount: number }>>`
    select id, rating_avg, rating_count from agents
    where tenant_id = ${tenantId} and deleted_at is null`;
  return new Map(
    rows.map((r) => [
      r.id,
      { average: r.ratingCount > 0 ? r.ratingAvg : null, count: Number(r.ratingCount) },
    ])
  );
}
