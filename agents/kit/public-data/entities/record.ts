// The one call a public-data agent makes after a successful upstream fetch: write what it saw into
// the entity graph. A failed write is logged and swallowed, so the agent's reply never fails or
// changes because of the graph.
import type { AgentContext } from '../../types.js';
import type { EntityBatch } from './batch.js';
import { writeBatch } from './store.js';

export async function recordEntities(
  ctx: Pick<AgentContext, 'sql' | 'config' | 'log'>,
  batch: EntityBatch
): Promise<void> {
  if (batch.empty) return;
  try {
    const r = await writeBatch(ctx.sql, batch, ctx.config.publicData.entityNameThreshold);
    ctx.log.debug({ agent: batch.agentId, ...r }, 'entity graph written');
  } catch (err) {
    ctx.log.warn({ err, agent: batch.agentId }, 'entity graph write failed; replying without it');
  }
}
