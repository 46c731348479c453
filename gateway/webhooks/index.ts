// Account webhooks: signing, the retry schedule, and the durable dispatcher (decisions.md §9).
export {
  createWebhookDispatcher,
  DISPATCHER_CONSUMER,
  PER_DESTINATION,
  postWebhook,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './dispatcher.js';
export { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryAt, WEBHOOK_TIMEOUT_MS } from './schedule.js';
export { signBody, verifySignature } from './sign.js';
export { WebhookInterest, type WebhookInterestOptions } from './interest.js';
