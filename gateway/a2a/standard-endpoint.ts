// POST /agents/:agentId/a2a (and with a trailing slash): standard A2A JSON-RPC for client libraries
// (interface-spec Endpoints; decisions.md §1, §6). The A2A-Version header picks v1.0 or v0.3 shapes;
// errors are encoded per dialect and travel with HTTP 200 except 401, 413 and 429.
import { HubError, InvalidRequestError, MethodNotFoundError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import {
  encodeRpcError,
  isHubOnlyMethod,
  methodNames,
  negotiateVersion,
  normalizeMethod,
  type RpcMethod,
  type StandardDialect,
} from '../../runtime/protocol/index.js';
import type { AgentRecord, Principal } from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import {
  NO_CONTENT,
  decodeParam,
  jsonReply,
  normalizeError,
  type Reply,
  type RouteRequest,
} from '../http/index.js';
import { isVisibleTo, type AgentDirectory } from '../../actors/index.js';
import {
  RPC_METHOD_INVALID,
  RPC_METHOD_UNKNOWN,
  StreamingResult,
  isJsonContentType,
  parseEnvelope,
  rpcHttpStatus,
  type RpcId,
} from '../rpc/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { callStandard, type StandardMethodDeps } from './standard-methods.js';
import { a2aDocs } from './route-docs.js';

export interface StandardEndpointDeps {
  readonly tasks: StandardMethodDeps['tasks'];
  readonly lister: StandardMethodDeps['lister'];
  readonly push: StandardMethodDeps['push'];
  readonly extendedCard: StandardMethodDeps['extendedCard'];
  readonly directory: Pick<AgentDirectory, 'resolve'>;
  readonly auth: Authenticator;
  /** Do these two agents hold an access grant (issue 28)? Absent: nobody does. */
  readonly accessGranted?: (a: string, b: string) => Promise<boolean>;
}

/** The patterns of the per-agent endpoint; uWS treats the trailing slash as another route. */
export const STANDARD_PATTERNS = ['/agents/:agentId/a2a', '/agents/:agentId/a2a/'] as const;

/** The canonical method a name stands for on this endpoint, or undefined: -32601. */
export function standardMethod(name: string): RpcMethod | undefined {
  const method = normalizeMethod(name);
  return method === undefined || isHubOnlyMethod(method) ? undefined : method;
}

/** Every method name the endpoint serves, in both families (GET /openrpc.json?dialect=...). */
export function standardMethodNames(): string[] {
  return methodNames().filter((name) => standardMethod(name) !== undefined);
}

/** Registers the per-agent endpoint on both patterns. */
export function standardRoutes(d: StandardEndpointDeps): RouteRegistrar {
  return (table, gw) => {
    const log = gw.log.child({ component: 'a2a-standard' });
    const handler = standardHandler(d, log, gw.metrics);
    const refuse = (err: unknown, requestId: string): Reply =>
      errorReply(
        err,
        null,
        'v1',
        requestId,
        log,
        gw.metrics,
        RPC_METHOD_INVALID,
        performance.now()
      );
    for (const pattern of STANDARD_PATTERNS) {
      table.add({ method: 'POST', pattern, body: true, handler, refuse, doc: a2aDocs.standard });
    }
  };
}

function standardHandler(
  d: StandardEndpointDeps,
  log: Logger,
  metrics: HubMetrics
): (req: RouteRequest) => Promise<Reply> {
  const methodDeps: StandardMethodDeps = {
    tasks: d.tasks,
    lister: d.lister,
    log,
    push: d.push,
    extendedCard: d.extendedCard,
  };
  return async (req) => {
    const started = performance.now();
    let id: RpcId = null;
    // Errors before a version is agreed (or about the version itself) are written as v1.0.
    let dialect: StandardDialect = 'v1';
    let label: string = RPC_METHOD_INVALID;
    // A notification (no `id`) is run, then answered 204 without a body (see dispatchRpc).
    let notification = false;
    try {
      const body = await req.body;
      const parsed = parseEnvelope(body);
      id = parsed.ok ? parsed.request.id : parsed.id;
      const contentType = req.headers['content-type'];
      if (!isJsonContentType(contentType)) {
        throw new InvalidRequestError(
          `Invalid Request: Content-Type must be application/json, got ${contentType ? `"${contentType}"` : 'none'}`
        );
      }
      if (!parsed.ok) throw parsed.error;
      notification = parsed.request.notification;
      dialect = negotiateVersion(req.headers['a2a-version']);
      const method = standardMethod(parsed.request.method);
      if (method === undefined) {
        label = RPC_METHOD_UNKNOWN;
        throw new MethodNotFoundError(parsed.request.method);
      }
      label = method;
      const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
      const agent = await pathAgent(d, req.params.agentId, principal);
      const result = await callStandard(
        method,
        parsed.request.params,
        {
          principal,
          agent,
          dialect,
          requestId: req.requestId,
          lastEventId: req.headers['last-event-id'],
        },
        methodDeps
      );
      if (notification) {
        observe(metrics, label, '0', started);
        return NO_CONTENT;
      }
      const reply =
        result instanceof StreamingResult
          ? result.reply(id)
          : jsonReply(200, { jsonrpc: '2.0', result: result ?? null, id });
      observe(metrics, label, '0', started);
      return reply;
    } catch (err) {
      const reply = errorReply(err, id, dialect, req.requestId, log, metrics, label, started);
      return notification && reply.status === 200 ? NO_CONTENT : reply;
    }
  };
}

function errorReply(
  err: unknown,
  id: RpcId,
  dialect: StandardDialect,
  requestId: string,
  log: Logger,
  metrics: HubMetrics,
  label: string,
  started: number
): Reply {
  const hub = normalizeError(err);
  if (hub.code === 'INTERNAL') {
    log.error({ err, requestId }, 'internal error in JSON-RPC call');
  }
  const error = encodeRpcError(hub, dialect, requestId);
  const { status, headers } = rpcHttpStatus(error);
  observe(metrics, label, String(error.code), started);
  return jsonReply(status, { jsonrpc: '2.0', error, id }, headers);
}

/** The path's agent, if the caller may see it: a canonical id, or an alias of its tenant or the hub's. */
async function pathAgent(
  d: StandardEndpointDeps,
  raw: string | undefined,
  principal: Principal
): Promise<AgentRecord> {
  const idOrAlias = decodeParam(raw ?? '');
  const agent = await d.directory.resolve(idOrAlias, principal.tenantId);
  // Another tenant's private agent is answered as an unknown one (issue 18), whatever the method,
  // unless the caller's agent holds an access grant with it (issue 28).
  const reachable =
    agent !== null &&
    (isVisibleTo(agent, principal.tenantId) ||
      (principal.kind === 'agent' &&
        d.accessGranted !== undefined &&
        (await d.accessGranted(principal.agentId, agent.id))));
  if (!agent || !reachable) {
    throw new HubError('AGENT_NOT_FOUND', `no agent ${idOrAlias}`, {
      data: { agentId: idOrAlias },
    });
  }
  return agent;
}

function observe(metrics: HubMetrics, method: string, code: string, started: number): void {
  metrics.rpcRequests.inc({ method, code });
  metrics.rpcDuration.observe({ method }, (performance.now() - started) / 1000);
}
