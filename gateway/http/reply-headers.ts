// Per-request scope for code deep inside a request (the rate limiter behind the authenticator):
// headers it adds to the reply, whatever route or error answers it, and the client's address (for
// the failed-authentication limit). The route table opens one scope per request with
// AsyncLocalStorage, so no handler has to pass it along; streamed replies (SSE) do not get the
// headers.
import { AsyncLocalStorage } from 'node:async_hooks';

interface RequestScope {
  readonly headers: Record<string, string>;
  readonly clientAddress: string;
}

const store = new AsyncLocalStorage<RequestScope>();

/** Run `fn` with a fresh header bag (what it collects is `bag`) and the client's address. */
export function withReplyHeaders<T>(
  bag: Record<string, string>,
  fn: () => T,
  clientAddress = ''
): T {
  return store.run({ headers: bag, clientAddress }, fn);
}

/** Add headers (lower-case names) to the current request's reply; a no-op outside a request. */
export function addReplyHeaders(headers: Readonly<Record<string, string>>): void {
  const scope = store.getStore();
  if (scope !== undefined) Object.assign(scope.headers, headers);
}

/** The address of the client whose request is running, or '' outside a request. */
export function currentClientAddress(): string {
  return store.getStore()?.clientAddress ?? '';
}
