// One Server-Sent Events response on uWS (WHATWG HTML "Server-sent events"): event-stream headers,
// each event one corked write, a heartbeat comment, and backpressure: while uWS reports a full
// socket, events wait in a bounded queue for onWritable; past the bound the connection is closed.
import type { HttpResponse } from 'uWebSockets.js';
import type { Exchange } from '../http/exchange.js';

export interface SseOptions {
  /** A comment line this often keeps proxies from timing the stream out. Default 15 s. */
  readonly heartbeatMs?: number;
  /**
   * Bytes that may wait behind a slow client. Past it the connection is closed rather than
   * buffering without end; the client reconnects with Last-Event-ID and loses nothing. Default 8 MiB.
   */
  readonly maxQueuedBytes?: number;
  /** Reconnection delay suggested to EventSource clients (`retry:`). Default 2 s. */
  readonly retryMs?: number;
}

const DEFAULTS = { heartbeatMs: 15_000, maxQueuedBytes: 8 * 1024 * 1024, retryMs: 2_000 } as const;
const HEARTBEAT = ': keep-alive\n\n';

type State = 'open' | 'ending' | 'closed';

export class SseWriter {
  private state: State = 'open';
  /** uWS holds more than the socket took: further chunks wait in `queue` for onWritable. */
  private blocked = false;
  private queue: string[] = [];
  private queuedBytes = 0;
  private readonly maxQueuedBytes: number;
  private readonly timer: NodeJS.Timeout;
  private closeHook: (() => void) | undefined;

  /** Must run synchronously in the route's reply, before any await (the response is live now). */
  constructor(
    private readonly res: HttpResponse,
    exchange: Exchange,
    opts: SseOptions = {}
  ) {
    this.maxQueuedBytes = opts.maxQueuedBytes ?? DEFAULTS.maxQueuedBytes;
    exchange.onAbort(() => this.closed());
    res.onWritable(() => this.drain());
    res.cork(() => {
      res.writeStatus('200 OK');
      res.writeHeader('content-type', 'text/event-stream');
      res.writeHeader('cache-control', 'no-cache');
      // Reverse proxies (nginx) would otherwise hold events back in their buffers.
      res.writeHeader('x-accel-buffering', 'no');
      // The first bytes also flush the headers, so the client's request resolves before any event.
      this.write(`retry: ${opts.retryMs ?? DEFAULTS.retryMs}\n\n`);
    });
    this.timer = setInterval(() => this.heartbeat(), opts.heartbeatMs ?? DEFAULTS.heartbeatMs);
    // An open stream alone must not keep a stopping process alive (gateway.close aborts it).
    this.timer.unref();
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Runs once, when the stream ended or the client went away: release what feeds it. */
  onClose(hook: () => void): void {
    this.closeHook = hook;
  }

  /** `data` must be one line (JSON.stringify output is). `id` becomes the client's Last-Event-ID. */
  event(id: number | undefined, data: string): void {
    this.push(id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`);
  }

  /** Ends the stream once everything queued has been written. */
  end(): void {
    if (this.state !== 'open') return;
    this.state = 'ending';
    clearInterval(this.timer);
    // What uWS already holds is flushed before the end of the response; only our queue must wait.
    if (this.queue.length === 0) this.finish();
  }

  private push(chunk: string): void {
    if (this.state !== 'open') return;
    if (!this.blocked) {
      this.res.cork(() => this.write(chunk));
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes > this.maxQueuedBytes) {
      // The response is unusable from here on, whenever uWS runs onAborted for it.
      this.closed();
      this.res.close();
    }
  }

  private write(chunk: string): void {
    if (!this.res.write(chunk)) this.blocked = true;
  }

  /** uWS: the socket took what it held. Write what waited; more backpressure waits again. */
  private drain(): boolean {
    if (this.state === 'closed') return true;
    this.blocked = false;
    this.res.cork(() => {
      while (this.queue.length > 0 && !this.blocked) {
        const chunk = this.queue.shift() as string;
        this.queuedBytes -= chunk.length;
        this.write(chunk);
      }
    });
    if (this.state === 'ending' && this.queue.length === 0) this.finish();
    // write() never refuses bytes (uWS buffers them), so nothing has to be retried from an offset.
    return true;
  }

  private heartbeat(): void {
    // A blocked socket is not idle; the heartbeat would only add to the queue.
    if (!this.blocked) this.push(HEARTBEAT);
  }

  private finish(): void {
    this.res.cork(() => this.res.end());
    this.closed();
  }

  private closed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearInterval(this.timer);
    this.queue = [];
    this.queuedBytes = 0;
    const hook = this.closeHook;
    this.closeHook = undefined;
    hook?.();
  }
}
