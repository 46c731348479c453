// The /debug routes of style B4.7 (machines, definitions, actor snapshots, cluster view). Mounted
// only when debug is enabled and an admin token is set; every call needs `Bearer <adminToken>`.
import { HubError, UnauthenticatedError } from '../../runtime/errors/index.js';
import type { DebugSource } from '../deps.js';
import type { Logger } from '../../runtime/log/index.js';
import { jsonReply, restErrorReply, textReply, type Reply } from '../http/reply.js';
import { decodeParam, type RouteRequest } from '../http/request.js';
import { parseQuery } from '../http/validate.js';
import type { RouteHandler, RouteSpec } from '../http/route-table.js';
import { bearerTokenCheck } from './admin-auth.js';
import { builtInDocs } from './route-docs.js';

export interface DebugRoutesOptions {
  readonly debug: DebugSource;
  readonly adminToken: string;
  readonly log: Logger;
}

export function debugRoutes(opts: DebugRoutesOptions): RouteSpec[] {
  const { debug, log } = opts;
  const authorized = bearerTokenCheck(opts.adminToken);
  const challenge = { 'www-authenticate': 'Bearer realm="burrow-debug"' };

  const guarded =
    (handler: (req: RouteRequest) => Reply | Promise<Reply>): RouteHandler =>
    (req) =>
      authorized(req.headers['authorization'])
        ? handler(req)
        : restErrorReply(
            new UnauthenticatedError('Admin token required: Authorization: Bearer <ADMIN_TOKEN>'),
            req.requestId,
            log,
            challenge
          );

  return [
    {
      method: 'GET',
      pattern: '/debug/machines',
      doc: builtInDocs.machines,
      handler: guarded(() => jsonReply(200, { machines: debug.machineIds() })),
    },
    {
      method: 'GET',
      pattern: '/debug/machines/:id',
      doc: builtInDocs.machine,
      handler: guarded((req) => {
        const id = decodeParam(req.params['id'] ?? '');
        const definition = debug.machineDefinition(id);
        if (definition === undefined)
          throw new HubError('NOT_FOUND', `No machine "${id}" is registered`);
        return jsonReply(200, definition);
      }),
    },
    {
      method: 'GET',
      pattern: '/debug/machines/:id/graph',
      doc: builtInDocs.machineGraph,
      handler: guarded((req) => {
        const id = decodeParam(req.params['id'] ?? '');
        const { format } = parseQuery(builtInDocs.machineGraph.query, req.query);
        const graph = debug.machineGraph?.(id, format);
        if (graph === undefined)
          throw new HubError('NOT_FOUND', `No machine "${id}" is registered`);
        const type = format === 'dot' ? 'text/vnd.graphviz' : 'text/vnd.mermaid';
        return textReply(200, graph, `${type}; charset=utf-8`);
      }),
    },
    {
      method: 'GET',
      pattern: '/debug/actors/:systemId',
      doc: builtInDocs.actor,
      handler: guarded(async (req) => {
        const systemId = decodeParam(req.params['systemId'] ?? '');
        const snapshot = await debug.actorSnapshot(systemId);
        if (snapshot === undefined || snapshot === null) {
          throw new HubError('NOT_FOUND', `No actor "${systemId}" is live in the cluster`);
        }
        return jsonReply(200, { systemId, snapshot });
      }),
    },
    {
      method: 'GET',
      pattern: '/debug/queues/:agentId',
      doc: builtInDocs.queue,
      handler: guarded(async (req) => {
        const agentId = decodeParam(req.params['agentId'] ?? '');
        const queue = await debug.queue?.(agentId);
        if (queue === undefined) throw new HubError('NOT_FOUND', `No agent "${agentId}"`);
        return jsonReply(200, queue);
      }),
    },
    {
      method: 'GET',
      pattern: '/debug/cluster',
      doc: builtInDocs.cluster,
      handler: guarded(async () => jsonReply(200, await debug.cluster())),
    },
  ];
}
