// One agent in the directory (interface-spec "Agent detail"): its card, statistics computed from
// the tasks it received (0003 tasks index) and its latest reviews. decisions.md §7: ratings 1..5,
// avgResponseTime in milliseconds.
import {
  DIRECTORY_COLUMNS,
  toDirectoryAgent,
  type DirectoryAgent,
  type DirectoryRow,
  type Viewer,
} from './discover-view.js';
import type { Queryable } from './sql.js';

export interface AgentStats {
  avgRating: number;
  ratingCount: number;
  /** Tasks addressed to the agent (each one starts with a message to it). */
  totalMessages: number;
  /** Completed tasks over finished ones (completed, failed, rejected), 0..1; 0 with none. */
  successRate: number;
  /** Mean time from a task's creation to its completion, in ms; 0 with none completed. */
  avgResponseTime: number;
}

export interface Review {
  rating: number;
  review: string;
  /** Unix time, seconds. */
  created_at: number;
  reviewer_name: string;
}

export interface AgentDetail {
  agent: DirectoryAgent & { agentCard: unknown; stats: AgentStats };
  reviews: Review[];
}

/** How many reviews the detail carries, newest first. */
export const DETAIL_REVIEWS = 50;

/**
 * The agent if `viewer` may see it, else null (private agents of other tenants do not exist). An
 * `unlisted` agent is found by its id, as it may be messaged by it; searches leave it out.
 */
export async function getDirectoryAgent(
  sql: Queryable,
  viewer: Viewer,
  agentId: string
): Promise<(DirectoryAgent & { agentCard: unknown }) | null> {
  const [row] = await sql.unsafe<Array<DirectoryRow & { cardJson: string | null }>>(
    `select ${DIRECTORY_COLUMNS}, a.card::text as card_json
     from agents a join tenants t on t.id = a.tenant_id
     where a.id = $2 and a.deleted_at is null
       and (a.visibility <> 'private' or a.tenant_id = $1::text)`,
    [viewer.tenantId ?? null, agentId],
    { prepare: true }
  );
  if (!row) return null;
  // As text, then parsed: the card comes back exactly as stored.
  const agentCard = row.cardJson === null ? null : (JSON.parse(row.cardJson) as unknown);
  return { ...toDirectoryAgent(row), agentCard };
}

/** Detail, statistics and reviews, or null when `viewer` may not see the agent. */
export async function getAgentDetail(
  sql: Queryable,
  viewer: Viewer,
  agentId: string
): Promise<AgentDetail | null> {
  const agent = await getDirectoryAgent(sql, viewer, agentId);
  if (agent === null) return null;
  const [[tasks], reviews] = await Promise.all([
    sql<Array<{ total: string; finished: string; completed: string; avgMs: number | null }>>`
      select count(*) as total,
        count(*) filter (where state in ('completed', 'failed', 'rejected')) as finished,
        count(*) filter (where state = 'completed') as completed,
        avg(extract(epoch from (updated_at - created_at)) * 1000)
          filter (where state = 'completed')::float8 as avg_ms
      from tasks where recipient_id = ${agentId}`,
    sql<Array<{ rating: number; review: string; createdAt: number; reviewerName: string }>>`
      select r.rating, r.review, floor(extract(epoch from r.created_at))::float8 as created_at,
        coalesce(rater.name, '') as reviewer_name
      from agent_ratings r left join agents rater on rater.id = r.rater_agent_id
      where r.agent_id = ${agentId}
      order by r.created_at desc, r.rater_agent_id
      limit ${DETAIL_REVIEWS}`,
  ]);
  const finished = Number(tasks?.finished ?? 0);
  return {
    agent: {
      ...agent,
      stats: {
        avgRating: agent.avgRating,
        ratingCount: agent.ratingCount,
        totalMessages: Number(tasks?.total ?? 0),
        successRate: finished === 0 ? 0 : Number(tasks?.completed ?? 0) / finished,
        avgResponseTime: Math.round(tasks?.avgMs ?? 0),
      },
    },
    reviews: reviews.map((r) => ({
      rating: r.rating,
      review: r.review,
      created_at: r.createdAt,
      reviewer_name: r.reviewerName,
    })),
  };
}
