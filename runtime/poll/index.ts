// Polling for due work claimed under a lease: the loop the webhook dispatcher and the pusher share.
export { createClaimPoller, type ClaimPoller, type ClaimPollerOptions } from './claim-poller.js';
