// Following a task over SSE (SendStreamingMessage, SubscribeToTask on POST /a2a). Every event
// carries the task's event rev as its SSE id; when the connection drops before the stream's end,
// the client resubscribes with `Last-Event-ID` and the hub sends only what came after it, so the
// caller sees every event once, in order (gateway/sse/task-stream.ts is the other side).
import { BadResponseError, errorFromRpc, HubConnectionError, HubError } from './errors.js';
import { abortReason, backoffDelay, sleep, type RetryOptions } from './retry.js';
import { readSse } from './sse.js';
import type { Transport } from './transport.js';
import type { HubTask, StreamEvent } from './types.js';

export type StreamStart =
  | { method: 'SendStreamingMessage'; params: Record<string, unknown> }
  | { method: 'SubscribeToTask'; taskId: string; lastEventId?: string | undefined };

export interface TaskStreamOptions {
  retry: RetryOptions;
  maxReconnects: number;
  signal?: AbortSignal | undefined;
}

/** States after which the hub ends a stream: terminal ones, and input-required. */
const ENDS_STREAM = new Set(['completed', 'failed', 'canceled', 'rejected', 'input-required']);

/**
 * The events of one task, as an async iterable (iterate it once). Leaving the loop early closes
 * the connection. Throws the typed error of a refusal, or of an error event the hub sent.
 */
export class TaskStream implements AsyncIterable<StreamEvent> {
  /** Known from the first event on (at once for a subscription). */
  taskId: string | undefined;
  /** The SSE id of the last event delivered: where a resubscription resumes. */
  lastEventId: string | undefined;
  /** How many times the connection was re-established after a drop. */
  reconnects = 0;
  private state: string | undefined;
  private started = false;

  constructor(
    private readonly transport: Transport,
    private readonly start: StreamStart,
    private readonly o: TaskStreamOptions
  ) {
    if (start.method === 'SubscribeToTask') {
      this.taskId = start.taskId;
      this.lastEventId = start.lastEventId;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    if (this.started) throw new Error('A TaskStream can be iterated only once');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<StreamEvent> {
    let dropsInARow = 0;
    for (;;) {
      const connection = linkedAbort(this.o.signal);
      let endedCleanly = false;
      try {
        const res = await this.open(connection.signal);
        for await (const sse of readSse(res.body as ReadableStream<Uint8Array>)) {
          const event = this.accept(sse.id, sse.data);
          if (event === undefined) continue;
          dropsInARow = 0;
          yield event;
          if (event.kind === 'status-update' && event.final) return;
        }
        endedCleanly = true;
      } catch (err) {
        if (this.o.signal?.aborted) throw abortReason(this.o.signal);
        // Refusals, error events and garbage are final; only a broken connection is resumed.
        if (err instanceof HubError && !(err instanceof HubConnectionError)) throw err;
      } finally {
        connection.abort();
      }
      if (endedCleanly && this.state !== undefined && ENDS_STREAM.has(this.state)) return;
      dropsInARow++;
      if (dropsInARow > this.o.maxReconnects) {
        throw new HubConnectionError(
          'CONNECTION_FAILED',
          `The stream of task ${this.taskId ?? '(not started)'} dropped ${dropsInARow} times in a ` +
            `row; resume later with subscribe(taskId, { lastEventId: '${this.lastEventId ?? ''}' })`
        );
      }
      await sleep(backoffDelay(dropsInARow, this.o.retry), this.o.signal);
      this.reconnects++;
    }
  }

  /** The first connection, or a resumption: SubscribeToTask after the last event seen. */
  private open(signal: AbortSignal): Promise<Response> {
    const call = { signal, retry: this.o.retry };
    if (this.taskId === undefined && this.start.method === 'SendStreamingMessage') {
      // Dropped before the first event: sending again is safe, the hub dedupes the messageId.
      return this.transport.openStream(this.start.method, this.start.params, {}, 'safe', call);
    }
    const headers: Record<string, string> =
      this.lastEventId === undefined ? {} : { 'last-event-id': this.lastEventId };
    return this.transport.openStream('SubscribeToTask', { id: this.taskId }, headers, 'safe', call);
  }

  /** One SSE event: its result, or undefined for one already delivered; throws an error event. */
  private accept(id: string | undefined, data: string): StreamEvent | undefined {
    let msg: { result?: unknown; error?: { code: number; message?: string; data?: unknown } };
    try {
      msg = JSON.parse(data) as typeof msg;
    } catch {
      throw new BadResponseError(
        'BAD_RESPONSE',
        `A stream event is not JSON: ${data.slice(0, 200)}`
      );
    }
    if (msg.error !== undefined) throw errorFromRpc(msg.error, 200);
    if (id !== undefined) {
      // Revs only rise: anything at or below the last one was delivered before the drop.
      if (this.lastEventId !== undefined && isRev(id) && isRev(this.lastEventId)) {
        if (Number(id) <= Number(this.lastEventId)) return undefined;
      }
      this.lastEventId = id;
    }
    const event = toStreamEvent(msg.result);
    if (event.kind === 'task') {
      this.taskId ??= event.id;
      this.state = event.status.state;
    } else if (event.kind === 'status-update') {
      this.taskId ??= event.taskId;
      this.state = event.status.state;
    }
    return event;
  }
}

/** What the hub writes as an event's `result`: exactly one of these keys (decisions.md §11). */
interface WireEvent {
  task?: HubTask;
  statusUpdate?: Omit<Extract<StreamEvent, { kind: 'status-update' }>, 'kind' | 'final'> & {
    final?: boolean;
  };
  artifactUpdate?: Omit<Extract<StreamEvent, { kind: 'artifact-update' }>, 'kind'>;
  message?: Omit<Extract<StreamEvent, { kind: 'message' }>, 'kind'>;
}

/** The hub's wrapped event as the SDK's kind-tagged one. */
function toStreamEvent(result: unknown): StreamEvent {
  const r = (typeof result === 'object' && result !== null ? result : {}) as WireEvent;
  if (r.task) return { ...r.task, kind: 'task' };
  if (r.statusUpdate) {
    const u = r.statusUpdate;
    return { kind: 'status-update', ...u, final: u.final ?? ENDS_STREAM.has(u.status.state) };
  }
  if (r.artifactUpdate) return { kind: 'artifact-update', ...r.artifactUpdate };
  if (r.message) return { ...r.message, kind: 'message' };
  throw new BadResponseError(
    'BAD_RESPONSE',
    'A stream event holds none of task, statusUpdate, artifactUpdate, message'
  );
}

function isRev(id: string): boolean {
  return /^\d{1,15}$/.test(id);
}

/** An AbortController that also aborts when `parent` does. */
function linkedAbort(parent: AbortSignal | undefined): AbortController {
  const c = new AbortController();
  if (parent?.aborted) c.abort(parent.reason);
  else parent?.addEventListener('abort', () => c.abort(parent.reason), { once: true });
  return c;
}
