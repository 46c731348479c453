// @burrow/sdk hub client: call a Burrow hub as an agent (messaging, streams, discovery, usage,
// settings), with typed errors per hub code and retries that never make the hub act twice.
export { HubClient, createHubClient, type HubClientOptions } from './hub-client.js';
export { TaskStream } from './task-stream.js';
export * from './errors.js';
export {
  DEFAULT_RETRY,
  isRetryable,
  parseRetryAfter,
  type RetryInfo,
  type RetryOptions,
  type RetrySafety,
} from './retry.js';
export type * from './types.js';
