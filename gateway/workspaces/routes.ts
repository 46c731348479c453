// REST for workspaces (issue 28 item 1): the same operations as x-gopherhole/workspace.*, with
// path segments and the JSON body (or the query string, for reads) merged into the method params.
// An agent key acts as that agent; a tenant admin key manages its tenant's workspaces.
import type { Authenticator } from '../auth/index.js';
import {
  decodeParam,
  jsonReply,
  parseJsonObject,
  parseQuery,
  type HttpMethod,
  type RouteRequest,
} from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { HubError } from '../../runtime/errors/index.js';
import { readParams } from './params.js';
import { workspaceRouteDoc, type WorkspaceOperationName } from './route-docs.js';
import { workspaceOperations, type WorkspaceDeps } from './service.js';

export interface WorkspaceRoutesDeps extends WorkspaceDeps {
  readonly auth: Pick<Authenticator, 'authenticate'>;
}

interface Row {
  method: HttpMethod;
  pattern: string;
  op: WorkspaceOperationName;
  status?: number;
  /** Body fields accepted (POST, PUT, PATCH). */
  body?: readonly string[];
  /** Query parameters accepted (GET). */
  query?: readonly string[];
}

const WS = '/api/workspaces/:workspaceId';
const ROWS: readonly Row[] = [
  {
    method: 'POST',
    pattern: '/api/workspaces',
    op: 'create',
    status: 201,
    body: ['name', 'description'],
  },
  { method: 'GET', pattern: '/api/workspaces', op: 'list' },
  { method: 'GET', pattern: WS, op: 'get' },
  { method: 'DELETE', pattern: WS, op: 'delete' },
  { method: 'GET', pattern: `${WS}/members`, op: 'members.list' },
  { method: 'POST', pattern: `${WS}/members`, op: 'members.add', status: 201, body: ['agentId'] },
  { method: 'DELETE', pattern: `${WS}/members/:agentId`, op: 'members.remove' },
  {
    method: 'GET',
    pattern: `${WS}/memories`,
    op: 'memories',
    query: ['type', 'limit', 'offset'],
  },
  {
    method: 'POST',
    pattern: `${WS}/memories`,
    op: 'store',
    status: 201,
    body: ['content', 'type', 'tags'],
  },
  {
    method: 'POST',
    pattern: `${WS}/memories/query`,
    op: 'query',
    body: ['query', 'type', 'limit', 'minScore'],
  },
  {
    method: 'PATCH',
    pattern: `${WS}/memories/:memoryId`,
    op: 'update',
    body: ['content', 'type', 'tags'],
  },
  { method: 'DELETE', pattern: `${WS}/memories/:memoryId`, op: 'forget' },
  { method: 'GET', pattern: `${WS}/types`, op: 'types' },
  { method: 'GET', pattern: `${WS}/secrets`, op: 'secrets.list' },
  { method: 'PUT', pattern: `${WS}/secrets/:name`, op: 'secrets.set', body: ['value'] },
  { method: 'GET', pattern: `${WS}/secrets/:name`, op: 'secrets.get' },
  { method: 'DELETE', pattern: `${WS}/secrets/:name`, op: 'secrets.delete' },
];

export function workspaceRoutes(d: WorkspaceRoutesDeps): RouteRegistrar {
  const ops = workspaceOperations(d);
  return (table) => {
    for (const row of ROWS) {
      const op = ops[row.op]!;
      const doc = workspaceRouteDoc(row.op, {
        status: row.status ?? 200,
        ...(row.body ? { body: row.body } : {}),
        ...(row.query ? { query: row.query } : {}),
      });
      const query = doc.query;
      table.add({
        method: row.method,
        pattern: row.pattern,
        ...(row.body ? { body: true } : {}),
        doc,
        handler: async (req) => {
          const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
          const params = {
            ...(row.body ? bodyParams(await req.body, row.body) : {}),
            ...(query ? parseQuery(query, req.query) : {}),
            ...pathParams(req),
          };
          return jsonReply(row.status ?? 200, await op(principal, params));
        },
      });
    }
  };
}

function pathParams(req: RouteRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.params)) out[k] = decodeParam(v);
  return out;
}

/** The JSON body: one object of the row's fields (an unknown one is 400 naming it). */
function bodyParams(body: Buffer, allowed: readonly string[]): Record<string, unknown> {
  const input = parseJsonObject(
    body,
    () => new HubError('INVALID_REQUEST', 'The body must be a JSON object'),
    { emptyIsObject: true }
  );
  return readParams(input, allowed);
}
