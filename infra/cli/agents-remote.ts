// `burrow --url <hub> --key <admin key> agents create|list|update`: the same commands through the
// hub's management API (POST/GET /api/agents, PATCH /api/agents/:id), printed as the database
// versions print them.
import type { AgentSettingsPatch } from '../db/index.js';
import type { CreateOptions } from './agents.js';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';
import { refuseTenantWithRemote, type RemoteHub } from './remote.js';

/** An agent as GET /api/agents shows it (gateway/manage agentView). */
interface AgentView {
  agentId: string;
  name: string;
  transport: string;
  visibility: string;
  url: string | null;
}

export async function createRemote(
  ctx: CliContext,
  hub: RemoteHub,
  opts: CreateOptions
): Promise<void> {
  refuseTenantWithRemote(opts.tenant);
  // The card is read here, as without --url, so an unreachable agent fails before anything is sent.
  const card = opts.url !== undefined && !opts.skipCard ? await ctx.fetchCard(opts.url) : undefined;
  const created = await hub.call<{ agent: AgentView; apiKey: string; webhookSecret?: string }>(
    'POST',
    '/api/agents',
    {
      name: opts.name,
      visibility: opts.public ? 'public' : 'private',
      tags: opts.tag,
      ...(opts.url !== undefined ? { url: opts.url } : {}),
      ...(opts.description !== undefined ? { description: opts.description } : {}),
      ...(opts.category !== undefined ? { category: opts.category } : {}),
      ...(opts.alias !== undefined ? { alias: opts.alias } : {}),
      ...(card !== undefined ? { card } : {}),
    }
  );
  const { agent, apiKey, webhookSecret } = created;
  if (opts.json) {
    printJson(ctx.io, {
      agentId: agent.agentId,
      apiKey,
      ...(webhookSecret !== undefined ? { webhookSecret } : {}),
    });
    return;
  }
  ctx.io.out(`created ${agent.transport} agent "${agent.name}" (${agent.agentId}) on ${hub.url}`);
  ctx.io.out(`  API key:        ${apiKey}`);
  if (webhookSecret !== undefined) ctx.io.out(`  webhook secret: ${webhookSecret}`);
  ctx.io.out('store them now: they are shown only once');
}

export async function listRemote(
  ctx: CliContext,
  hub: RemoteHub,
  opts: { tenant?: string; json: boolean }
): Promise<void> {
  refuseTenantWithRemote(opts.tenant);
  const { agents } = await hub.call<{ agents: AgentView[] }>('GET', '/api/agents');
  if (opts.json) {
    printJson(ctx.io, agents);
    return;
  }
  printTable(
    ctx.io,
    ['ID', 'TRANSPORT', 'VISIBILITY', 'NAME', 'URL'],
    agents.map((a) => [a.agentId, a.transport, a.visibility, a.name, a.url ?? ''])
  );
}

/** The PATCH body of the settings the command changes, in the API's field names. */
export function wirePatch(p: AgentSettingsPatch): Record<string, unknown> {
  return {
    ...(p.visibility !== undefined ? { visibility: p.visibility } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.category !== undefined ? { category: p.category } : {}),
    ...(p.tags !== undefined ? { tags: p.tags } : {}),
    ...(p.queueMaxPending !== undefined ? { queue_max_pending: p.queueMaxPending } : {}),
    ...(p.queueTtlSeconds !== undefined ? { queue_ttl_seconds: p.queueTtlSeconds } : {}),
  };
}

export async function updateRemote(
  ctx: CliContext,
  hub: RemoteHub,
  agentId: string,
  patch: AgentSettingsPatch,
  json: boolean
): Promise<void> {
  const updated = await hub.call(
    'PATCH',
    `/api/agents/${encodeURIComponent(agentId)}`,
    wirePatch(patch)
  );
  if (json) printJson(ctx.io, updated);
  else ctx.io.out(`updated agent ${agentId}`);
}
