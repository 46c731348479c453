// Key scopes (issue 28): each route family authenticates through a view of the one authenticator
// that also demands its scope, so a key made for discovery cannot send and a messaging key cannot
// change settings. The check is one array probe on the cached principal: nothing on the hot path.
import { hasScope, type KeyScope, type Principal } from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { Authenticator } from './authenticator.js';

/** FORBIDDEN unless the principal's key carries `scope`. */
export function requireScope(p: Principal, scope: KeyScope): Principal {
  if (!hasScope(p, scope)) {
    throw new HubError('FORBIDDEN', `this API key lacks the "${scope}" scope`, {
      data: { scope, scopes: p.scopes ?? [] },
    });
  }
  return p;
}

/**
 * The authenticator, refusing keys without `scope`. `known` answers as before: it only tells
 * whether the database must be asked, and the next authenticate call makes the scope check.
 */
export function scopedAuthenticator<A extends Pick<Authenticator, 'authenticate'>>(
  auth: A,
  scope: KeyScope
): A {
  return {
    ...auth,
    authenticate: async (header: string | undefined, reqScope?: Parameters<A['authenticate']>[1]) =>
      requireScope(await auth.authenticate(header, reqScope), scope),
  };
}
