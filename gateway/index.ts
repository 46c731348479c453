// The gateway's public surface: createGateway for infra/bin, the route API for later routes, and
// the pure JSON-RPC pieces (envelope, error mapping) other edges reuse.
export { createGateway, type GatewayOptions } from './server.js';
export type {
  CheckStatus,
  DebugSource,
  Gateway,
  GatewayDeps,
  HealthReport,
  RpcContext,
  RpcHandler,
} from './deps.js';
export {
  RouteTable,
  UNMATCHED_ROUTE,
  jsonReply,
  textReply,
  restErrorReply,
  decodeParam,
  normalizeError,
  type HttpMethod,
  type Reply,
  type RouteHandler,
  type RouteRequest,
  type RouteSpec,
} from './http/index.js';
export {
  parseEnvelope,
  validateEnvelope,
  isRpcId,
  toRpcError,
  rpcHttpStatus,
  isJsonContentType,
  dispatchRpc,
  rpcErrorReply,
  rpcRoute,
  type EnvelopeResult,
  type RpcErrorObject,
  type RpcId,
  type RpcRequest,
  type RpcRouteOptions,
} from './rpc/index.js';
export { builtInRoutes, bearerTokenCheck, type RouteRegistrar } from './routes/index.js';
