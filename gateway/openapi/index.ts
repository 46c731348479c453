// The API documents: OpenAPI 3.1 of the REST routes (from each route's doc) and OpenRPC of the
// JSON-RPC methods, served at GET /openapi.json and GET /openrpc.json.
export {
  openApiDocument,
  openApiPath,
  jsonSchema,
  type DocumentInfo,
  type JsonSchema,
} from './document.js';
export { openRpcDocument, type RpcMethodDoc } from './openrpc.js';
export { documentRoutes } from './document-routes.js';
export {
  JsonRpcRequestSchema,
  JsonRpcResponseSchema,
  RpcErrorObjectSchema,
} from './rpc-schemas.js';
