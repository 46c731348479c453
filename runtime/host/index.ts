export { ActorHost } from './actor-host.js';
export type { ActorAddress, ActorView, ActorHostOptions, RefusedHook } from './actor-types.js';
export {
  callOwner,
  respondOwner,
  serveOwner,
  type OwnerReply,
  type OwnerRpcOptions,
} from './owner-rpc.js';
