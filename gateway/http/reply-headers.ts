// Per-request scope for code deep inside a request (the rate limiter behind the authenticator):
// headers it adds to the reply, whatever route or error answers it, and the client's address (for
// the failed-authentication limit). The route table makes one per request and hands it along
// explicitly (RouteRequest.scope → RpcContext.scope → Authenticator.authenticate), not through
// AsyncLocalStorage, whose promise hooks cost every promise in the process (issue 19: 2-3% of
// the hub's CPU). Streamed replies (SSE) do not get the headers.

export class RequestScope {
  /** Headers (lower-case names) for the reply; undefined until someone adds one. */
  headers: Record<string, string> | undefined;

  constructor(
    /** The peer's address as uWS gave it, or '' when unknown. */
    readonly clientAddress = ''
  ) {}

  addReplyHeaders(headers: Readonly<Record<string, string>>): void {
    if (this.headers === undefined) this.headers = { ...headers };
    else Object.assign(this.headers, headers);
  }
}

/** Add headers to the reply of the request `scope` belongs to; a no-op without a scope. */
export function addReplyHeaders(
  headers: Readonly<Record<string, string>>,
  scope: RequestScope | undefined
): void {
  scope?.addReplyHeaders(headers);
}

/** The address of the client of the request `scope` belongs to, or '' without one. */
export function currentClientAddress(scope: RequestScope | undefined): string {
  return scope?.clientAddress ?? '';
}
