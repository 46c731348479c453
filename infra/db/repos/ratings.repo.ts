// Ratings (interface-spec "Discovery", rate): one per rating agent per rated agent, a new one
// replacing the old; 1..5 (decisions.md §7). The rated agent's average and count on its agents
// row change in the same transaction, so search order and detail never disagree with the ratings.
import { HubError, InvalidParamsError } from '../../../runtime/errors/index.js';
import { visibleTo } from './discover-view.js';
import { inTransaction, type Queryable } from './sql.js';
import { intInRange } from './validate.js';

export const RatingLimits = { min: 1, max: 5, maxReview: 2000 } as const;

export interface RatingInput {
  /** The rated agent. */
  agentId: string;
  /** The rating agent and its tenant (from its API key). */
  raterAgentId: string;
  raterTenantId: string;
  rating: number;
  review: string;
}

export interface RatingResult {
  avgRating: number;
  ratingCount: number;
}

/**
 * Store (or replace) the rater's rating. Throws NOT_FOUND when the rater may not see the agent
 * (as for an unknown one), FORBIDDEN for an agent of the rater's own tenant, INVALID_PARAMS.
 */
export async function rateAgent(sql: Queryable, input: RatingInput): Promise<RatingResult> {
  const rating = intInRange('rating', input.rating, RatingLimits.min, RatingLimits.max);
  if (typeof input.review !== 'string') throw new InvalidParamsError('review', 'must be a string');
  const review = input.review.trim();
  if (review.length > RatingLimits.maxReview) {
    throw new InvalidParamsError('review', `must be at most ${RatingLimits.maxReview} characters`);
  }
  return inTransaction(sql, async (tx) => {
    // The row lock serializes ratings of one agent, so the recomputed average is never stale.
    const [target] = await tx.unsafe<Array<{ tenantId: string }>>(
      `select a.tenant_id from agents a where a.id = $2 and ${visibleTo(1)} for update`,
      [input.raterTenantId, input.agentId],
      { prepare: true }
    );
    if (!target) throw new HubError('NOT_FOUND', `No agent ${input.agentId}`);
    if (target.tenantId === input.raterTenantId) {
      throw new HubError('FORBIDDEN', "An agent cannot rate its own tenant's agents", {
        data: { agentId: input.agentId },
      });
    }
    await tx`
      insert into agent_ratings (agent_id, rater_agent_id, rating, review)
      values (${input.agentId}, ${input.raterAgentId}, ${rating}, ${review})
      on conflict (agent_id, rater_agent_id) do update
        set rating = excluded.rating, review = excluded.review, created_at = now()`;
    const [totals] = await tx<Array<{ ratingAvg: number; ratingCount: number }>>`
      update agents a set rating_avg = s.avg, rating_count = s.n
      from (select coalesce(avg(rating), 0)::float8 as avg, count(*)::int as n
            from agent_ratings where agent_id = ${input.agentId}) s
      where a.id = ${input.agentId}
      returning a.rating_avg, a.rating_count`;
    return { avgRating: totals?.ratingAvg ?? 0, ratingCount: totals?.ratingCount ?? 0 };
  });
}
