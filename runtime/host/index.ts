export {
  ActorHost,
  type ActorAddress,
  type ActorView,
  type ActorHostOptions,
} from './actor-host.js';
export { callOwner, serveOwner, type OwnerReply, type OwnerRpcOptions } from './owner-rpc.js';
