// `burrow access list|approve|deny|auto-approve` (issue 28 item 2): the owner's side of access
// grants, for operators: the requests to a tenant's agents, deciding them, and an agent's
// auto-approve setting. The same as the /api/access-requests routes, on the database directly.
import type { Command } from 'commander';
import {
  ACCESS_STATUSES,
  decideAccessRequest,
  getAgent,
  listAccessRequests,
  setAutoApprove,
  type AccessRequest,
  type AccessStatus,
} from '../db/index.js';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import type { CliContext } from './context.js';
import { printJson, printTable } from './output.js';
import { requireTenant } from './resolve.js';

function view(r: AccessRequest) {
  return {
    requestId: r.id,
    requesterAgentId: r.requesterAgentId,
    requesterTenantId: r.requesterTenantId,
    targetAgentId: r.targetAgentId,
    status: r.status,
    message: r.message,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  };
}

export function registerAccessCommands(program: Command, ctx: CliContext): void {
  const access = program
    .command('access')
    .description("requests from other tenants' agents to message a tenant's private agents");

  access
    .command('list')
    .description("list the access requests to a tenant's agents, newest first")
    .requiredOption('--tenant <tenant>', 'tenant id or slug (the owner of the requested agents)')
    .option('--status <status>', `only one status: ${ACCESS_STATUSES.join(', ')}`)
    .option('--agent <agentId>', 'only requests to this agent')
    .option('--json', 'print a JSON array', false)
    .action(async (opts: { tenant: string; status?: string; agent?: string; json: boolean }) => {
      if (
        opts.status !== undefined &&
        !(ACCESS_STATUSES as readonly string[]).includes(opts.status)
      ) {
        throw new InvalidParamsError('status', `must be one of ${ACCESS_STATUSES.join(', ')}`);
      }
      const db = await ctx.db();
      const tenant = await requireTenant(db, opts.tenant);
      const all = await listAccessRequests(db, tenant.id, {
        ...(opts.status === undefined ? {} : { status: opts.status as AccessStatus }),
        ...(opts.agent === undefined ? {} : { agentId: opts.agent }),
      });
      if (opts.json) {
        printJson(ctx.io, all.map(view));
        return;
      }
      printTable(
        ctx.io,
        ['ID', 'STATUS', 'FROM', 'TO', 'MESSAGE'],
        all.map((r) => [r.id, r.status, r.requesterAgentId, r.targetAgentId, r.message])
      );
    });

  for (const [name, status] of [
    ['approve', 'approved'],
    ['deny', 'denied'],
  ] as const) {
    access
      .command(name)
      .description(`${name} an access request (by its id, acr_…)`)
      .argument('<requestId>', 'the access request id')
      .requiredOption('--tenant <tenant>', 'tenant id or slug (the owner of the requested agent)')
      .option('--json', 'print the request as JSON', false)
      .action(async (requestId: string, opts: { tenant: string; json: boolean }) => {
        const db = await ctx.db();
        const tenant = await requireTenant(db, opts.tenant);
        const decided = await decideAccessRequest(db, tenant.id, requestId, status);
        if (decided === null) {
          throw new HubError(
            'NOT_FOUND',
            `access request ${requestId} not found in ${tenant.slug}`
          );
        }
        if (opts.json) printJson(ctx.io, view(decided));
        else
          ctx.io.out(
            `${status} ${decided.id}: ${decided.requesterAgentId} → ${decided.targetAgentId}`
          );
      });
  }

  access
    .command('auto-approve')
    .description('approve every access request to an agent at once (on), or ask the owner (off)')
    .argument('<agentId>', 'the agent')
    .argument('<onOff>', 'on or off')
    .option('--json', 'print {"agentId","autoApprove","approved"} as JSON', false)
    .action(async (agentId: string, onOff: string, opts: { json: boolean }) => {
      if (onOff !== 'on' && onOff !== 'off') {
        throw new InvalidParamsError('onOff', 'must be on or off');
      }
      const db = await ctx.db();
      const agent = await getAgent(db, agentId);
      if (agent === null) throw new HubError('NOT_FOUND', `agent ${agentId} not found`);
      const set = await setAutoApprove(db, agent.id, onOff === 'on');
      if (opts.json) printJson(ctx.io, { agentId: agent.id, ...set });
      else {
        ctx.io.out(
          `auto-approve ${onOff} for ${agent.id}` +
            (set.approved > 0 ? ` (${set.approved} pending request(s) approved)` : '')
        );
      }
    });
}
