// Follows one task as an SSE stream (A2A SendStreamingMessage / SubscribeToTask): subscribe to its
// changes first, then read it, so no change between the two is missed on this node or any other;
// every TaskEventRecord goes out once, in rev order, with its rev as the SSE id (the resume point).
import { ensureHubError, InvalidParamsError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import {
  TerminalStates,
  type Task,
  type TaskStateName,
  type TaskView,
} from '../../runtime/protocol/index.js';
import type { Principal } from '../../infra/db/index.js';
import type { RpcId } from '../rpc/envelope.js';
import { StreamingResult } from '../rpc/streaming.js';
import { SseWriter, type SseOptions } from './sse-writer.js';
import type { TaskStreamCodec } from './stream-codecs.js';

/** What a stream needs of the task service (TaskService has both). */
export interface TaskFeed {
  /** The full task after every durable change, from whichever node owns it; returns unsubscribe. */
  subscribe(taskId: string, onTask: (task: Task) => void): () => void;
  /** TASK_NOT_FOUND unless the principal is the task's sender or recipient. */
  getForCaller(principal: Principal, taskId: string): Promise<Task>;
}

export interface TaskStreamOptions {
  readonly feed: TaskFeed;
  readonly principal: Principal;
  readonly taskId: string;
  readonly codec: TaskStreamCodec;
  readonly requestId: string;
  readonly log: Logger;
  /** SendStreamingMessage: the task as the send returned it, sent first; events after its rev follow. */
  readonly first?: Task;
  /** SubscribeToTask with Last-Event-ID: only the events after this rev, no leading task. */
  readonly after?: number;
  /** How the leading task is written (historyLength of the send). */
  readonly view?: TaskView;
  readonly sse?: SseOptions;
}

/**
 * Where a stream stops: a terminal state, and also input-required. The caller has to act (send
 * the input), and that SendStreamingMessage opens a new stream, so holding this one open would
 * only leave an idle connection; A2A 1.0 likewise ends streams at interrupted states.
 */
export function endsStream(state: TaskStateName): boolean {
  return state === 'input-required' || TerminalStates.has(state);
}

/** The Last-Event-ID request header as a rev; absent or empty is undefined. */
export function parseLastEventId(header: string | undefined): number | undefined {
  const value = header?.trim();
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) {
    throw new InvalidParamsError('Last-Event-ID', 'must be an event id this hub sent (an integer)');
  }
  return Number(value);
}

/** A JSON-RPC result that streams the task; the handler has already checked the caller may see it. */
export function taskStream(o: TaskStreamOptions): StreamingResult {
  return new StreamingResult((res, exchange, id) => {
    const sse = new SseWriter(res, exchange, o.sse);
    new TaskFollower(sse, o, id).start();
  });
}

class TaskFollower {
  /** Highest rev written; nothing at or below it is written again. */
  private lastSent: number;
  /** Live tasks that arrive before the first read: held, then only the newest matters. */
  private early: Task | undefined;
  private ready = false;
  private unsubscribe: (() => void) | undefined;
  private readonly idJson: string;

  constructor(
    private readonly sse: SseWriter,
    private readonly o: TaskStreamOptions,
    id: RpcId
  ) {
    this.lastSent = o.first?.rev ?? o.after ?? 0;
    this.idJson = JSON.stringify(id);
  }

  start(): void {
    const { o, sse } = this;
    sse.onClose(() => this.unsubscribe?.());
    if (o.first) {
      this.write(o.first.rev, o.codec.task(o.first, o.view));
      if (endsStream(o.first.status.state)) return sse.end();
    }
    // Subscribe before reading: a change after the read arrives live; one before it is in the read.
    this.unsubscribe = o.feed.subscribe(o.taskId, (task) => {
      if (!sse.isOpen) return;
      if (!this.ready) {
        if (this.early === undefined || task.rev > this.early.rev) this.early = task;
        return;
      }
      try {
        this.follow(task);
      } catch (err) {
        this.fail(err);
      }
    });
    o.feed
      .getForCaller(o.principal, o.taskId)
      .then((read) => this.begin(read))
      .catch((err: unknown) => this.fail(err));
  }

  private begin(read: Task): void {
    const { o, sse } = this;
    if (!sse.isOpen) return;
    this.ready = true;
    const early = this.early;
    this.early = undefined;
    const task = early !== undefined && early.rev > read.rev ? early : read;
    if (o.first !== undefined || o.after !== undefined) return this.follow(task);
    // A fresh subscription starts with the task as it stands; the events after it follow.
    this.write(task.rev, o.codec.task(task, o.view));
    this.lastSent = task.rev;
    if (endsStream(task.status.state)) sse.end();
  }

  /** Writes the events of `task` not yet sent, in rev order; ends after one that ends the stream. */
  private follow(task: Task): void {
    if (task.rev <= this.lastSent) return;
    const events = task.events;
    // Revs rise by one per event, so the first unsent one is found from the end in a few steps.
    let i = events.length;
    while (i > 0 && (events[i - 1]?.rev ?? 0) > this.lastSent) i--;
    for (; i < events.length; i++) {
      const event = events[i]!;
      const last = event.type === 'status' && endsStream(event.status.state);
      this.write(event.rev, this.o.codec.event(task, event, last));
      this.lastSent = event.rev;
      if (last) return this.sse.end();
    }
    // Resumed after the event that ended the stream: nothing is left to send.
    if (endsStream(task.status.state) && this.lastSent >= task.rev) this.sse.end();
  }

  private write(rev: number, result: unknown): void {
    this.sse.event(rev, `{"jsonrpc":"2.0","id":${this.idJson},"result":${JSON.stringify(result)}}`);
  }

  /** A failure after the stream began: one error event (JSON-RPC error response), then the end. */
  private fail(err: unknown): void {
    if (!this.sse.isOpen) return;
    const hub = ensureHubError(err);
    if (hub.code === 'INTERNAL') {
      this.o.log.error({ err, requestId: this.o.requestId }, 'task stream failed');
    }
    const error = JSON.stringify(this.o.codec.error(hub, this.o.requestId));
    this.sse.event(undefined, `{"jsonrpc":"2.0","id":${this.idJson},"error":${error}}`);
    this.sse.end();
  }
}
