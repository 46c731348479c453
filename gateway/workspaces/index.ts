// Workspaces (issue 28 item 1): shared memories and encrypted secrets of a group of agents, as
// x-gopherhole/workspace.* JSON-RPC methods and as REST under /api/workspaces.
export { SecretBox } from './secret-box.js';
export {
  workspaceOperations,
  type WorkspaceDeps,
  type WorkspaceEmbedder,
  type WorkspaceOperation,
} from './service.js';
export {
  WORKSPACE_METHOD_PREFIX,
  WorkspaceMethods,
  workspaceMethods,
  type WorkspaceMethodHandler,
} from './methods.js';
export { workspaceRoutes, type WorkspaceRoutesDeps } from './routes.js';
export { workspaceOperationDocs, type WorkspaceOperationName } from './route-docs.js';
