// A2A push notifications (issue 27): the config methods shared by both JSON-RPC endpoints, and the
// pusher that POSTs each task update to the registered URLs, signed, durable and in order.
export {
  PushConfigs,
  isPushMethod,
  type PushConfigsDeps,
  type PushMethod,
  type TaskCheck,
} from './push-configs.js';
export { type PushConfigInput } from './push-codec.js';
export { createPusher, pendingNotifications, type Pusher, type PusherOptions } from './pusher.js';
export {
  PushSigner,
  PUSH_SIGNATURE_HEADER,
  PUSH_SIGNATURE_TTL_SECONDS,
  type PushClaims,
} from './push-sign.js';
export { PUSH_MAX_ATTEMPTS, PUSH_TIMEOUT_MS, pushRetryAt } from './push-schedule.js';
