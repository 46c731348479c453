// A2A methods: the hub dialect table, shared by POST /a2a and the agent WebSocket.
export {
  hubMethods,
  httpHandlers,
  lookupMethod,
  invoke,
  type HubMethod,
  type Caller,
} from './hub-methods.js';
export { largeAgentRequests, type LargeRequestPolicy } from './large-requests.js';
export { meMethod, ME_METHOD, type MeResult } from './me-method.js';
