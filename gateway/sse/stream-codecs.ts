// What one SSE event's JSON-RPC `result` is, per dialect (decisions.md §1): A2A v1.0 {task} then
// {statusUpdate|artifactUpdate|message}; v0.3 the Task then kind-tagged events with `final`; and the
// hub dialect on POST /a2a, which borrows v0.3's event envelope around hub-dialect tasks and parts.
import type { HubError } from '../../runtime/errors/index.js';
import {
  encodeArtifactHub,
  encodeMessageHub,
  encodeRpcError,
  encodeStatusHub,
  encodeStreamEventV03,
  encodeStreamEventV1,
  encodeStreamTaskV1,
  encodeTaskHub,
  encodeTaskV03,
  type Dialect,
  type Task,
  type TaskEventRecord,
  type TaskView,
} from '../../runtime/protocol/index.js';

export interface TaskStreamCodec {
  readonly dialect: Dialect;
  /** The first event: the task as it stands. */
  task(task: Task, view?: TaskView): unknown;
  /** One recorded change of `task`; `last` marks the event after which the stream ends. */
  event(task: Task, event: TaskEventRecord, last: boolean): unknown;
  /** The `error` member of an error event (the stream ends after it). */
  error(err: HubError, requestId: string): unknown;
}

export const v1StreamCodec: TaskStreamCodec = {
  dialect: 'v1',
  task: (task, view) => encodeStreamTaskV1(task, view),
  // v1.0 has no `final` flag: the stream simply closes after the last event.
  event: (task, event) => encodeStreamEventV1(task, event),
  error: (err, requestId) => encodeRpcError(err, 'v1', requestId),
};

export const v03StreamCodec: TaskStreamCodec = {
  dialect: 'v0.3',
  task: (task, view) => encodeTaskV03(task, view),
  event: (task, event, last) => {
    const out = encodeStreamEventV03(task, event);
    // `final` marks this stream's last event, which also covers input-required (see task-stream).
    return out.kind === 'status-update' && out.final !== last ? { ...out, final: last } : out;
  },
  error: (err, requestId) => encodeRpcError(err, 'v0.3', requestId),
};

/**
 * Hub dialect stream (POST /a2a). The first event is the hub Task (as SendMessage returns it); then
 * - status:   {kind:'status-update', taskId, contextId, status: <hub status>, final}
 * - artifact: {kind:'artifact-update', taskId, contextId, artifact: <hub artifact: artifactId, id,
 *              name?, mimeType?, parts with kind/mimeType>, append, lastChunk}
 * - message:  the hub Message (kind 'message', role user|agent).
 * v0.3's envelope because existing hub clients already speak `kind`; the contents are hub-dialect.
 */
export const hubStreamCodec: TaskStreamCodec = {
  dialect: 'hub',
  task: (task, view) => encodeTaskHub(task, view),
  event: (task, event, last) => {
    const ids = { taskId: task.id, contextId: task.contextId };
    switch (event.type) {
      case 'status':
        return {
          kind: 'status-update',
          ...ids,
          status: encodeStatusHub(task, event.status),
          final: last,
        };
      case 'artifact': {
        const known = task.artifacts.find((a) => a.artifactId === event.artifactId);
        const artifact = encodeArtifactHub({
          artifactId: event.artifactId,
          ...(known?.name !== undefined ? { name: known.name } : {}),
          ...(known?.mimeType !== undefined ? { mimeType: known.mimeType } : {}),
          parts: event.parts,
        });
        return {
          kind: 'artifact-update',
          ...ids,
          artifact,
          append: event.append,
          lastChunk: event.lastChunk,
        };
      }
      case 'message':
        return encodeMessageHub(event.message);
      default: {
        const never: never = event;
        return never;
      }
    }
  },
  error: (err, requestId) => encodeRpcError(err, 'hub', requestId),
};
