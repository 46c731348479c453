// `burrow agents create|list|update|alias|email|feature|delete`: registering agents (key shown
// once), their settings (interface-spec "Agent settings"), alias and email (issue 28), the
// directory's featured list, and telling running hub nodes when cached state changed.
// `location:<address>` tags are geocoded as PATCH /api/agents/:agentId does: an address that
// names no place fails the command naming the tag, and nothing is saved.
import { InvalidArgumentError, type Command } from 'commander';
import {
  createAgent,
  inTransaction,
  listAgents,
  replaceAgentLocations,
  resolveAgent,
  setAgentFeatured,
  softDeleteAgent,
  updateAgentSettings,
  validateTags,
  type AgentRecord,
  type AgentSettingsPatch,
  type Db,
} from '../db/index.js';
import { geocodeLocationTags } from '../geo/index.js';
import { subjects } from '../../runtime/bus/index.js';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';
import { requireTenant } from './resolve.js';
import { createRemote, listRemote, updateRemote } from './agents-remote.js';
import { tenantRequired } from './remote.js';

export interface CreateOptions {
  tenant?: string;
  name: string;
  url?: string;
  public: boolean;
  description?: string;
  category?: string;
  alias?: string;
  tag: string[];
  skipCard: boolean;
  json: boolean;
}

interface UpdateOptions {
  agent: string;
  public?: boolean;
  private?: boolean;
  unlisted?: boolean;
  description?: string;
  category?: string;
  tag?: string[];
  clearTags?: boolean;
  queueMaxPending?: number;
  queueTtlSeconds?: number;
  json: boolean;
}

export function registerAgentCommands(program: Command, ctx: CliContext): void {
  const agents = program.command('agents').description('register and manage agents');

  agents
    .command('create')
    .description('register an agent and issue its API key (shown once)')
    .option('--tenant <tenant>', 'owning tenant, by id or slug (not with --url)')
    .requiredOption('--name <name>', 'agent name')
    .option('--url <url>', 'endpoint of an HTTP (webhook) agent; its card is fetched from it')
    .option('--public', 'let any authenticated agent message it (default: private)', false)
    .option('--description <text>', "description (default: the card's)")
    .option('--category <category>', 'directory category')
    .option('--alias <alias>', 'short name, unique in the tenant')
    .option('--tag <tag>', 'a tag (repeatable; location:<address> for the map)', collect, [])
    .option('--skip-card', 'register an HTTP agent without fetching its card', false)
    .option('--json', 'print {"agentId","apiKey","webhookSecret"?} as JSON', false)
    .action(async (opts: CreateOptions) => {
      if (ctx.remote) return createRemote(ctx, ctx.remote, opts);
      const db = await ctx.db();
      const tenant = await requireTenant(db, tenantRequired(opts.tenant));
      // Before anything is written: an unreachable agent or an unknown place leaves no
      // half-registered record.
      const locations = await geocodeLocationTags(ctx.geocoder, validateTags(opts.tag));
      const card =
        opts.url !== undefined && !opts.skipCard ? await ctx.fetchCard(opts.url) : undefined;
      const cardDescription = (card as { description?: unknown } | undefined)?.description;
      const created = await createWithLocations(db, locations, {
        tenantId: tenant.id,
        name: opts.name,
        ...(opts.url !== undefined ? { url: opts.url } : {}),
        visibility: opts.public ? 'public' : 'private',
        description:
          opts.description ?? (typeof cardDescription === 'string' ? cardDescription : ''),
        ...(opts.category !== undefined ? { category: opts.category } : {}),
        ...(opts.alias !== undefined ? { alias: opts.alias } : {}),
        tags: opts.tag,
        ...(card !== undefined ? { card } : {}),
      });
      const { agent, apiKey, webhookSecret } = created;
      if (opts.json) {
        printJson(ctx.io, {
          agentId: agent.id,
          apiKey,
          ...(webhookSecret !== undefined ? { webhookSecret } : {}),
        });
        return;
      }
      ctx.io.out(
        `created ${agent.transport} agent "${agent.name}" (${agent.id}) in ${tenant.slug}`
      );
      ctx.io.out(`  API key:        ${apiKey}`);
      if (webhookSecret !== undefined) ctx.io.out(`  webhook secret: ${webhookSecret}`);
      ctx.io.out('store them now: they are shown only once');
    });

  agents
    .command('list')
    .description("list a tenant's agents")
    .option('--tenant <tenant>', 'tenant id or slug (not with --url)')
    .option('--json', 'print a JSON array', false)
    .action(async (opts: { tenant?: string; json: boolean }) => {
      if (ctx.remote) return listRemote(ctx, ctx.remote, opts);
      const db = await ctx.db();
      const tenant = await requireTenant(db, tenantRequired(opts.tenant));
      const all = await listAgents(db, tenant.id);
      if (opts.json) {
        printJson(ctx.io, all.map(summary));
        return;
      }
      printTable(
        ctx.io,
        ['ID', 'TRANSPORT', 'VISIBILITY', 'NAME', 'URL'],
        all.map((a) => [a.id, a.transport, a.visibility, a.name, a.url ?? ''])
      );
    });

  agents
    .command('update')
    .description("change an agent's settings")
    .requiredOption('--agent <agentId>', 'agent id')
    .option('--public', 'make it public')
    .option('--private', 'make it private')
    .option('--unlisted', 'anyone may message it by id; searches leave it out')
    .option('--description <text>', 'description')
    .option('--category <category>', 'category ("" clears it)')
    .option('--tag <tag>', 'replace the tags with these (repeatable)', collect)
    .option('--clear-tags', 'remove every tag')
    .option('--queue-max-pending <n>', 'maximum pending queued messages (1-100000)', integer)
    .option('--queue-ttl-seconds <n>', 'lifetime of a queued message (1-2592000)', integer)
    .option('--json', 'print the updated agent as JSON', false)
    .action(async (opts: UpdateOptions) => {
      const patch = settingsPatch(opts);
      if (ctx.remote) return updateRemote(ctx, ctx.remote, opts.agent, patch, opts.json);
      if (patch.tags !== undefined) {
        patch.locations = await geocodeLocationTags(ctx.geocoder, validateTags(patch.tags));
      }
      const agent = await updateAgentSettings(await ctx.db(), opts.agent, patch);
      await ctx.notify([
        { subject: subjects.agentChanged(agent.id), payload: { agentId: agent.id } },
      ]);
      if (opts.json) printJson(ctx.io, details(agent));
      else ctx.io.out(`updated agent ${agent.id}`);
    });

  agents
    .command('alias <agentId> <alias>')
    .description(
      'rename the alias ("-" removes it); mail to the old address is delivered 30 more days'
    )
    .option('--json', 'print the updated agent as JSON', false)
    .action(async (agentId: string, alias: string, opts: { json: boolean }) => {
      const agent = await updateAgentSettings(await ctx.db(), agentId, {
        alias: alias === '-' ? null : alias,
      });
      await ctx.notify([
        { subject: subjects.agentChanged(agent.id), payload: { agentId: agent.id } },
      ]);
      if (opts.json) printJson(ctx.io, details(agent));
      else ctx.io.out(`agent ${agent.id} alias: ${agent.alias ?? '(none)'}`);
    });

  agents
    .command('email <agentId> <onOrOff>')
    .description("turn an agent's email address on or off (off: its mail bounces)")
    .option('--json', 'print the updated agent as JSON', false)
    .action(async (agentId: string, onOrOff: string, opts: { json: boolean }) => {
      if (onOrOff !== 'on' && onOrOff !== 'off') {
        throw new InvalidParamsError('emailEnabled', 'say "on" or "off"');
      }
      const agent = await updateAgentSettings(await ctx.db(), agentId, {
        emailEnabled: onOrOff === 'on',
      });
      await ctx.notify([
        { subject: subjects.agentChanged(agent.id), payload: { agentId: agent.id } },
      ]);
      if (opts.json) printJson(ctx.io, details(agent));
      else ctx.io.out(`agent ${agent.id} email: ${agent.emailEnabled ? 'on' : 'off'}`);
    });

  agents
    .command('feature <agent>')
    .description('list an agent in GET /api/discover/featured, or take it off with --off')
    .option('--off', 'take it off the featured list', false)
    .option('--json', 'print {"agentId","featured"} as JSON', false)
    .action(async (ref: string, opts: { off: boolean; json: boolean }) => {
      const db = await ctx.db();
      // An id, or an official agent's alias (`burrow agents feature echo`).
      const agent = await resolveAgent(db, ref);
      const featured = !opts.off;
      if (agent === null || !(await setAgentFeatured(db, agent.id, featured))) {
        throw new HubError('AGENT_NOT_FOUND', `agent ${ref} not found`);
      }
      if (opts.json) printJson(ctx.io, { agentId: agent.id, featured });
      else ctx.io.out(`${featured ? 'featured' : 'unfeatured'} agent ${agent.id}`);
    });

  agents
    .command('delete')
    .description('delete an agent and revoke its keys')
    .requiredOption('--agent <agentId>', 'agent id')
    .option('--json', 'print {"agentId","deleted"} as JSON', false)
    .action(async (opts: { agent: string; json: boolean }) => {
      if (ctx.remote) {
        const r = await ctx.remote.call('DELETE', `/api/agents/${encodeURIComponent(opts.agent)}`);
        if (opts.json) printJson(ctx.io, r);
        else ctx.io.out(`deleted agent ${opts.agent}`);
        return;
      }
      const result = await softDeleteAgent(await ctx.db(), opts.agent);
      if (!result) {
        throw new HubError('AGENT_NOT_FOUND', `agent ${opts.agent} not found`);
      }
      await ctx.notify([
        ...result.revokedKeyHashes.map((keyHash) => ({
          subject: subjects.keyRevoked,
          payload: { keyHash },
        })),
        { subject: subjects.agentChanged(opts.agent), payload: { agentId: opts.agent } },
      ]);
      if (opts.json) printJson(ctx.io, { agentId: opts.agent, deleted: true });
      else ctx.io.out(`deleted agent ${opts.agent}`);
    });
}

/** The agent and its geocoded locations, in one transaction. */
function createWithLocations(
  db: Db,
  locations: Parameters<typeof replaceAgentLocations>[2],
  input: Parameters<typeof createAgent>[1]
): ReturnType<typeof createAgent> {
  if (locations.length === 0) return createAgent(db, input);
  return inTransaction(db, async (tx) => {
    const created = await createAgent(tx, input);
    await replaceAgentLocations(tx, created.agent.id, locations);
    return created;
  });
}

function settingsPatch(opts: UpdateOptions): AgentSettingsPatch {
  if ([opts.public, opts.private, opts.unlisted].filter(Boolean).length > 1) {
    throw new InvalidParamsError(
      'visibility',
      '--public, --private and --unlisted exclude each other'
    );
  }
  if (opts.tag !== undefined && opts.clearTags) {
    throw new InvalidParamsError('tags', '--tag and --clear-tags exclude each other');
  }
  const patch: AgentSettingsPatch = {};
  if (opts.public) patch.visibility = 'public';
  if (opts.private) patch.visibility = 'private';
  if (opts.unlisted) patch.visibility = 'unlisted';
  if (opts.description !== undefined) patch.description = opts.description;
  if (opts.category !== undefined) patch.category = opts.category === '' ? null : opts.category;
  if (opts.tag !== undefined) patch.tags = opts.tag;
  if (opts.clearTags) patch.tags = [];
  if (opts.queueMaxPending !== undefined) patch.queueMaxPending = opts.queueMaxPending;
  if (opts.queueTtlSeconds !== undefined) patch.queueTtlSeconds = opts.queueTtlSeconds;
  return patch;
}

function summary(a: AgentRecord) {
  return {
    agentId: a.id,
    name: a.name,
    transport: a.transport,
    visibility: a.visibility,
    url: a.url,
  };
}

function details(a: AgentRecord) {
  return {
    ...summary(a),
    alias: a.alias,
    emailEnabled: a.emailEnabled,
    description: a.description,
    category: a.category,
    tags: a.tags,
    queueMaxPending: a.queueMaxPending,
    queueTtlSeconds: a.queueTtlSeconds,
  };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function integer(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('not an integer');
  return Number(value);
}
