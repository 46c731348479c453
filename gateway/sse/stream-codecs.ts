// What one SSE event's JSON-RPC `result` is, per dialect (decisions.md §1, §11): A2A v1.0 {task}
// then {statusUpdate|artifactUpdate|message}; v0.3 the Task then kind-tagged events with `final`;
// and the hub dialect on POST /a2a, v1.0's wrappers around hub-dialect tasks and parts.
import type { HubError } from '../../runtime/errors/index.js';
import {
  encodeRpcError,
  encodeStreamEventHub,
  encodeStreamEventV03,
  encodeStreamEventV1,
  encodeStreamTaskHub,
  encodeStreamTaskV1,
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
 * Hub dialect stream (POST /a2a, decisions.md §11): A2A 1.0's wrappers {task} then
 * {statusUpdate|artifactUpdate|message}, since the hub clients read only those keys, around
 * hub-dialect contents (lowercase states, parts with kind, the status message as text). A status
 * update also says whether it is the stream's last event (`final`), input-required included.
 */
export const hubStreamCodec: TaskStreamCodec = {
  dialect: 'hub',
  task: (task, view) => encodeStreamTaskHub(task, view),
  event: (task, event, last) => encodeStreamEventHub(task, event, last),
  error: (err, requestId) => encodeRpcError(err, 'hub', requestId),
};
