// JSON-RPC 2.0 over HTTP: envelope parsing, error mapping, dispatch, streaming results and the
// route factory.
export {
  parseEnvelope,
  validateEnvelope,
  isRpcId,
  type RpcId,
  type RpcRequest,
  type EnvelopeResult,
} from './envelope.js';
export { toRpcError, rpcHttpStatus, type RpcErrorObject, type RpcHttpStatus } from './rpc-error.js';
export { isJsonContentType } from './content-type.js';
export {
  dispatchRpc,
  rpcErrorReply,
  RPC_METHOD_INVALID,
  RPC_METHOD_UNKNOWN,
  type RpcDispatchEnv,
} from './dispatch.js';
export { rpcRoute, type RpcRouteOptions } from './rpc-route.js';
export { StreamingResult, type StreamStart } from './streaming.js';
