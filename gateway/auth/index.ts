// The gateway's authentication: API key → Principal, cached (decisions.md §5).
export {
  createAuthenticator,
  type Authenticator,
  type AuthenticatorOptions,
} from './authenticator.js';
export { bearerToken } from './bearer-token.js';
export { requireScope, scopedAuthenticator } from './scoped.js';
