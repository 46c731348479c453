export {
  ActorHost,
  type ActorAddress,
  type ActorView,
  type ActorHostOptions,
  type RefusedHook,
} from './actor-host.js';
export {
  callOwner,
  respondOwner,
  serveOwner,
  type OwnerReply,
  type OwnerRpcOptions,
} from './owner-rpc.js';
