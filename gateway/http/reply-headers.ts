// Headers that code deep inside a request (the rate limiter behind the authenticator) adds to the
// reply, whatever route or error answers it. The route table opens one bag per request with
// AsyncLocalStorage, so no handler has to pass it along; streamed replies (SSE) do not get them.
import { AsyncLocalStorage } from 'node:async_hooks';

const store = new AsyncLocalStorage<Record<string, string>>();

/** Run `fn` with a fresh header bag; what it collects is `bag`. */
export function withReplyHeaders<T>(bag: Record<string, string>, fn: () => T): T {
  return store.run(bag, fn);
}

/** Add headers (lower-case names) to the current request's reply; a no-op outside a request. */
export function addReplyHeaders(headers: Readonly<Record<string, string>>): void {
  const bag = store.getStore();
  if (bag !== undefined) Object.assign(bag, headers);
}
