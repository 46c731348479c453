// What an agent's handler may return, and how the SDK turns it into the hub's wire shapes: a list of
// WebSocket `task_response` frames (decisions.md §2) or, for HTTP agents, one Task (§3).
import { randomUUID } from 'node:crypto';
import type { Artifact, Message, Part, Task, TaskState } from '../protocol.js';

/** The states an agent may answer with (what `task_response` and `task/respond` accept). */
export type ReplyState = 'completed' | 'failed' | 'input-required' | 'rejected' | 'working';

/**
 * A reply by state: `{ state: 'input-required', text: 'Which city?' }` asks the sender for more
 * input (its next message on the same task reaches the handler again); `working` leaves the task
 * open for a later `respond` call.
 */
export interface StatusReply {
  state: ReplyState;
  /** The status message (the question, the reason for failing, …). */
  text?: string;
  artifacts?: Artifact[];
}

/** A Task as A2A servers return it; `status.state` decides, `submitted`/`canceled` are mapped. */
export interface TaskReply {
  id?: string;
  contextId?: string;
  status: { state: TaskState | ReplyState; message?: Message | string; timestamp?: string };
  artifacts?: Artifact[];
  [key: string]: unknown;
}

/** One item of a streamed reply: text and parts extend one artifact, an Artifact is its own. */
export type StreamChunk = string | Part | Artifact;

/**
 * What a handler returns: a string (completed, one text artifact), artifacts (completed), a
 * StatusReply, a Task-like object, nothing (completed without artifacts), or an async iterable of
 * chunks (streamed: one `task_response` per chunk with `lastChunk: false`, the last one `true`).
 * A thrown error fails the task with the error's message.
 */
export type AgentReply =
  string | Artifact[] | StatusReply | TaskReply | AsyncIterable<StreamChunk> | undefined | void;

/** The body of a `task_response` frame. */
export interface TaskResponseFrame {
  type: 'task_response';
  taskId: string;
  status: { state: ReplyState; message?: string };
  artifact?: Artifact;
  lastChunk: boolean;
}

interface Settled {
  state: ReplyState;
  text?: string;
  artifacts: Artifact[];
}

export const newArtifactId = (): string => `artifact-${randomUUID()}`;

/** Text parts joined by spaces; reads hub parts (`kind: 'text'`) and A2A 1.0 parts (`text`). */
export function textOfParts(parts: readonly unknown[] | undefined): string {
  const out: string[] = [];
  for (const p of parts ?? []) {
    if (typeof p !== 'object' || p === null) continue;
    const { kind, text } = p as { kind?: unknown; text?: unknown };
    if (typeof text === 'string' && (kind === 'text' || kind === undefined)) out.push(text);
  }
  return out.join(' ');
}

export function isAsyncIterable(v: unknown): v is AsyncIterable<StreamChunk> {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/** The frames that answer `taskId` with `reply`, in order; a failing stream ends in `failed`. */
export async function* responseFrames(
  taskId: string,
  reply: AgentReply
): AsyncGenerator<TaskResponseFrame> {
  if (!isAsyncIterable(reply)) {
    yield* settledFrames(taskId, settle(reply));
    return;
  }
  // One chunk is held back: only the next chunk (or the end) tells whether it was its artifact's
  // last, and the very last chunk travels with the final state.
  let held: Artifact | undefined;
  let streamId: string | undefined;
  try {
    for await (const chunk of reply) {
      const next = chunkArtifact(chunk, () => (streamId ??= newArtifactId()));
      if (held) {
        const sameArtifact = held.artifactId === next.artifactId;
        yield frame(taskId, 'working', undefined, held, !sameArtifact);
      }
      held = next;
    }
  } catch (err) {
    yield frame(taskId, 'failed', errorText(err), held, true);
    return;
  }
  yield frame(taskId, 'completed', undefined, held, true);
}

/**
 * The Task an HTTP agent answers the hub with (decisions.md §3). Its status message is a Message,
 * as in A2A; the hub dialect's own tasks carry only the text (Task).
 */
export interface AnswerTask extends Omit<Task, 'status'> {
  status: { state: TaskState; timestamp?: string; message?: Message };
}

/** A non-streamed reply as the Task an HTTP agent answers with (decisions.md §3). */
export async function replyTask(
  reply: AgentReply,
  ids: { id: string; contextId: string },
  now: () => Date = () => new Date()
): Promise<AnswerTask> {
  if (isTaskReply(reply)) {
    // A Task is returned as it is; only missing ids are filled in.
    return {
      ...reply,
      id: reply.id ?? ids.id,
      contextId: reply.contextId ?? ids.contextId,
    } as AnswerTask;
  }
  const settled = isAsyncIterable(reply) ? await collect(reply) : settle(reply);
  const state: TaskState = settled.state;
  return {
    id: ids.id,
    contextId: ids.contextId,
    status: {
      state,
      timestamp: now().toISOString(),
      ...(settled.text !== undefined ? { message: agentMessage(settled.text) } : {}),
    },
    artifacts: settled.artifacts,
  };
}

/** A failed Task carrying `err`'s message (what a throwing handler answers over HTTP). */
export function failedTask(err: unknown, ids: { id: string; contextId: string }): AnswerTask {
  return {
    id: ids.id,
    contextId: ids.contextId,
    status: {
      state: 'failed',
      timestamp: new Date().toISOString(),
      message: agentMessage(errorText(err)),
    },
    artifacts: [],
  };
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : 'the agent failed';
}

function settledFrames(taskId: string, s: Settled): TaskResponseFrame[] {
  if (s.artifacts.length === 0) return [frame(taskId, s.state, s.text, undefined, true)];
  return s.artifacts.map((a, i) =>
    i < s.artifacts.length - 1
      ? frame(taskId, 'working', undefined, a, true)
      : frame(taskId, s.state, s.text, a, true)
  );
}

function frame(
  taskId: string,
  state: ReplyState,
  text: string | undefined,
  artifact: Artifact | undefined,
  lastChunk: boolean
): TaskResponseFrame {
  return {
    type: 'task_response',
    taskId,
    status: text !== undefined ? { state, message: text } : { state },
    ...(artifact ? { artifact } : {}),
    lastChunk,
  };
}

function settle(reply: Exclude<AgentReply, AsyncIterable<StreamChunk>>): Settled {
  if (reply === undefined || reply === null) return { state: 'completed', artifacts: [] };
  if (typeof reply === 'string') {
    return {
      state: 'completed',
      artifacts: [{ artifactId: newArtifactId(), parts: [{ kind: 'text', text: reply }] }],
    };
  }
  if (Array.isArray(reply)) return { state: 'completed', artifacts: reply.map(withId) };
  if (isTaskReply(reply)) {
    const m = reply.status.message;
    const text = typeof m === 'string' ? m : m ? textOfParts(m.parts) : undefined;
    return {
      state: replyState(reply.status.state),
      ...(text ? { text } : {}),
      artifacts: (reply.artifacts ?? []).map(withId),
    };
  }
  if (typeof reply === 'object' && 'state' in reply) {
    return {
      state: replyState(reply.state),
      ...(reply.text !== undefined ? { text: reply.text } : {}),
      artifacts: (reply.artifacts ?? []).map(withId),
    };
  }
  throw new TypeError(
    'the handler returned something that is not a reply: return a string, artifacts, ' +
      '{ state, text?, artifacts? }, a Task, or an async iterable of chunks'
  );
}

async function collect(stream: AsyncIterable<StreamChunk>): Promise<Settled> {
  const artifacts: Artifact[] = [];
  let streamId: string | undefined;
  for await (const chunk of stream) {
    const a = chunkArtifact(chunk, () => (streamId ??= newArtifactId()));
    const last = artifacts.at(-1);
    if (last && last.artifactId === a.artifactId) last.parts.push(...a.parts);
    else artifacts.push({ ...a, parts: [...a.parts] });
  }
  return { state: 'completed', artifacts };
}

function chunkArtifact(chunk: StreamChunk, streamArtifactId: () => string): Artifact {
  if (typeof chunk === 'string') {
    return { artifactId: streamArtifactId(), parts: [{ kind: 'text', text: chunk }] };
  }
  if (isArtifact(chunk)) return withId(chunk);
  return { artifactId: streamArtifactId(), parts: [chunk] };
}

function isArtifact(v: unknown): v is Artifact {
  return typeof v === 'object' && v !== null && Array.isArray((v as Artifact).parts);
}

function isTaskReply(v: unknown): v is TaskReply {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const status = (v as { status?: unknown }).status;
  return typeof status === 'object' && status !== null && 'state' in status;
}

function withId(a: Artifact): Artifact {
  const artifactId = a.artifactId ?? a.id ?? newArtifactId();
  return { ...a, artifactId };
}

/** Task states an agent cannot answer with, mapped the way the hub maps them. */
function replyState(s: TaskState | ReplyState): ReplyState {
  if (s === 'submitted') return 'working';
  if (s === 'canceled') return 'failed';
  return s;
}

function agentMessage(text: string): Message {
  return { role: 'agent', parts: [{ kind: 'text', text }], messageId: `msg-${randomUUID()}` };
}
