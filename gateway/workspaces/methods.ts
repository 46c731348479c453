// `x-gopherhole/workspace.*` (issue 28 item 1): the workspace operations as vendor JSON-RPC
// methods, served on POST /a2a and over the agent WebSocket like the other x-gopherhole methods
// (decisions.md §11): the composition root adds this map to the hub's method table.
import type { Principal } from '../../infra/db/index.js';
import { workspaceOperations, type WorkspaceDeps } from './service.js';

export const WORKSPACE_METHOD_PREFIX = 'x-gopherhole/workspace.';

export const WorkspaceMethods = [
  'create',
  'get',
  'delete',
  'list',
  'members.add',
  'members.remove',
  'members.list',
  'store',
  'query',
  'update',
  'forget',
  'memories',
  'types',
  'secrets.set',
  'secrets.get',
  'secrets.delete',
  'secrets.list',
] as const;

export type WorkspaceMethodHandler = (
  params: unknown,
  caller: { readonly principal: Principal }
) => Promise<unknown>;

export function workspaceMethods(d: WorkspaceDeps): Map<string, WorkspaceMethodHandler> {
  const ops = workspaceOperations(d);
  return new Map(
    WorkspaceMethods.map((name) => {
      const op = ops[name]!;
      return [`${WORKSPACE_METHOD_PREFIX}${name}`, (params, c) => op(c.principal, params)];
    })
  );
}
