// One uWS response's life: it notes when the client goes away, because writing to an aborted
// uWS response is a use-after-free, and writes the reply at most once, corked into one syscall.
import type { HttpResponse } from 'uWebSockets.js';
import type { Reply } from './reply.js';
import { statusLine } from './status-line.js';

export class Exchange {
  private aborted = false;
  private ended = false;
  /** The request body has started but not ended (set by the body reader). */
  bodyPending = false;
  private abortHook: (() => void) | undefined;

  /** Must run synchronously inside the uWS handler: uWS requires onAborted before returning. */
  constructor(private readonly res: HttpResponse) {
    res.onAborted(() => {
      this.aborted = true;
      this.abortHook?.();
    });
  }

  get isAborted(): boolean {
    return this.aborted;
  }

  /** uWS keeps a single abort handler per response, so the body reader hooks in here. */
  onAbort(hook: () => void): void {
    this.abortHook = hook;
  }

  /**
   * Writes the reply unless the client is gone or a reply was already written; `extraHeaders`
   * (the request scope's) go with it, replacing the reply's own of the same name.
   */
  send(reply: Reply, extraHeaders?: Readonly<Record<string, string>>): boolean {
    if (this.aborted || this.ended) return false;
    this.ended = true;
    if (reply.stream === undefined) writeReply(this.res, reply, this.bodyPending, extraHeaders);
    else reply.stream(this.res, this);
    return true;
  }
}

/**
 * Writes a whole reply in one cork. Only for a response known to be alive. With `close` (or the
 * reply's own `close`) uWS adds `Connection: close` and closes the socket once it is written, so a
 * client still sending a body it was refused is cut off at once instead of at the idle timeout.
 */
export function writeReply(
  res: HttpResponse,
  reply: Reply,
  close = false,
  extraHeaders?: Readonly<Record<string, string>>
): void {
  const closing = close || reply.close === true;
  res.cork(() => {
    res.writeStatus(statusLine(reply.status));
    for (const name in reply.headers) {
      if (extraHeaders === undefined || !Object.hasOwn(extraHeaders, name)) {
        res.writeHeader(name, reply.headers[name] ?? '');
      }
    }
    for (const name in extraHeaders) res.writeHeader(name, extraHeaders[name] ?? '');
    // endWithoutBody(undefined, …) would announce a bogus Content-Length; with no arguments it
    // sends none. A 204 that must close (rare: it never answers a body still arriving) says 0.
    if (reply.status !== 204) res.end(reply.body, closing);
    else if (closing) res.endWithoutBody(0, true);
    else res.endWithoutBody();
  });
}
