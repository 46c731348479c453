// Access grants over REST (issue 28 item 2). An agent asks to message another tenant's private
// agent; the owner's tenant admin (or that agent's own key) approves or denies; an agent may
// approve every request at once (`autoApprove`). Asking about an id that is not there, or about
// a private agent, answers alike (202, pending): only the owner's approval tells the requester
// that the agent exists (issue 18).
import { randomBytes } from 'node:crypto';
import {
  ACCESS_REQUEST_ID,
  accessMessage,
  decideAccessRequest,
  getAgent,
  getAutoApprove,
  listAccessRequests,
  requestAccess,
  setAutoApprove,
  type AccessRequest,
  type AccessStatus,
  type AgentRecord,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import { isVisibleTo } from '../../actors/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, jsonReply, parseBody, parseQuery, type RouteRequest } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { accessDocs as docs } from './route-docs.js';

export interface AccessRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
}

export function accessRequestView(r: AccessRequest) {
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

/** May this caller manage the agent's access (its tenant's admin, or the agent itself)? */
function manages(p: Principal, agent: AgentRecord): boolean {
  return p.kind === 'admin' ? p.tenantId === agent.tenantId : p.agentId === agent.id;
}

export function accessRoutes(d: AccessRoutesDeps): RouteRegistrar {
  const managedAgent = async (req: RouteRequest) => {
    const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
    const agentId = decodeParam(req.params.agentId ?? '');
    const agent = await getAgent(d.sql, agentId);
    if (agent === null || !manages(principal, agent)) {
      throw new HubError('NOT_FOUND', `No agent ${agentId}`);
    }
    return agent;
  };

  const decide =
    (status: 'approved' | 'denied', doc: typeof docs.approveAccess) =>
    async (req: RouteRequest) => {
      const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
      const id = decodeParam(req.params.requestId ?? '');
      if (!ACCESS_REQUEST_ID.test(id)) {
        throw new InvalidParamsError(
          'requestId',
          'must be an access request id (acr_ and 24 hex digits)'
        );
      }
      parseBody(doc.body, await req.body);
      // An agent key decides only requests to itself: checked before anything changes.
      if (principal.kind === 'agent') {
        const mine = await listAccessRequests(d.sql, principal.tenantId, {
          agentId: principal.agentId,
        });
        if (!mine.some((r) => r.id === id))
          throw new HubError('NOT_FOUND', `No access request ${id}`);
      }
      const decided = await decideAccessRequest(d.sql, principal.tenantId, id, status);
      if (decided === null) throw new HubError('NOT_FOUND', `No access request ${id}`);
      return jsonReply(200, { request: accessRequestView(decided) });
    };

  return (table) => {
    table.add({
      method: 'POST',
      pattern: '/api/agents/:agentId/request-access',
      body: true,
      doc: docs.requestAccess,
      handler: async (req) => {
        const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
        if (principal.kind !== 'agent') {
          throw new HubError('FORBIDDEN', 'An agent asks for access: use the agent key');
        }
        const targetId = decodeParam(req.params.agentId ?? '');
        const message = accessMessage(parseBody(docs.requestAccess.body, await req.body).message);
        const target = await getAgent(d.sql, targetId);
        if (target !== null && isVisibleTo(target, principal.tenantId)) {
          throw new HubError(
            'CONFLICT',
            `Agent ${target.id} can already be messaged: no access request is needed`,
            { data: { agentId: target.id } }
          );
        }
        if (target === null) {
          // The answer a pending request gets, with nothing stored (see the header).
          return jsonReply(202, {
            request: {
              requestId: `acr_${randomBytes(12).toString('hex')}`,
              requesterAgentId: principal.agentId,
              requesterTenantId: principal.tenantId,
              targetAgentId: targetId,
              status: 'pending',
              message,
              createdAt: new Date().toISOString(),
              decidedAt: null,
            },
          });
        }
        const r = await requestAccess(d.sql, {
          requester: { agentId: principal.agentId, tenantId: principal.tenantId },
          target: { agentId: target.id, tenantId: target.tenantId },
          message,
        });
        // A denied request is asked again as pending, so a refusal is never told apart from
        // waiting; an approved one (or an auto-approving agent) answers 200.
        return jsonReply(r.status === 'approved' ? 200 : 202, { request: accessRequestView(r) });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/access-requests',
      doc: docs.listAccessRequests,
      handler: async (req) => {
        const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
        const filter: { status?: AccessStatus; agentId?: string } = parseQuery(
          docs.listAccessRequests.query,
          req.query
        );
        // An agent key sees the requests to itself only.
        if (principal.kind === 'agent') filter.agentId = principal.agentId;
        const all = await listAccessRequests(d.sql, principal.tenantId, filter);
        return jsonReply(200, { requests: all.map(accessRequestView), count: all.length });
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/access-requests/:requestId/approve',
      body: true,
      doc: docs.approveAccess,
      handler: decide('approved', docs.approveAccess),
    });
    table.add({
      method: 'POST',
      pattern: '/api/access-requests/:requestId/deny',
      body: true,
      doc: docs.denyAccess,
      handler: decide('denied', docs.denyAccess),
    });
    table.add({
      method: 'GET',
      pattern: '/api/agents/:agentId/access',
      doc: docs.getAccessSettings,
      handler: async (req) => {
        const agent = await managedAgent(req);
        return jsonReply(200, {
          agentId: agent.id,
          autoApprove: await getAutoApprove(d.sql, agent.id),
        });
      },
    });
    table.add({
      method: 'PUT',
      pattern: '/api/agents/:agentId/access',
      body: true,
      doc: docs.setAccessSettings,
      handler: async (req) => {
        const agent = await managedAgent(req);
        const { autoApprove } = parseBody(docs.setAccessSettings.body, await req.body);
        const set = await setAutoApprove(d.sql, agent.id, autoApprove);
        return jsonReply(200, { agentId: agent.id, ...set });
      },
    });
  };
}
