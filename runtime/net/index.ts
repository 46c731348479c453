// Outbound network policy: which addresses the hub may call (webfetch, HTTP agents, webhooks) and
// a guarded HTTP request that connects only to checked addresses.
export {
  AddressKind,
  allowableKind,
  classifyAddress,
  refusal,
  v6Groups,
  type AddressClass,
} from './address-policy.js';
export {
  createOutboundGuard,
  OutboundRefusedError,
  refusalText,
  registrationRefusal,
  systemResolver,
  type OutboundGuard,
  type OutboundGuardOptions,
  type Resolved,
  type Resolver,
} from './outbound-guard.js';
export {
  outboundRequest,
  OutboundTimeoutError,
  type OutboundRequest,
  type OutboundResponse,
} from './outbound-request.js';
