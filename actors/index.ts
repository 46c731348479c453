// The hub's domain: the XState machines that define each lifecycle (task, queue, cleanup) and the
// services that run them on the runtime's host: accepting, delivering and watching tasks (task/),
// recipient queues (queue/), where agents are and how work reaches them (agent/), and each node's
// in-memory directory (directory/). The only import surface of actors/.
import { taskMachine } from './task/task.machine.js';
import { queueMachine } from './queue/queue.machine.js';
import { cleanupMachine } from './queue/cleanup.machine.js';

export { taskMachine, queueMachine, cleanupMachine };
export { msUntilNextRun, type CleanupContext } from './queue/cleanup.machine.js';
export type { TaskEvent, TaskInput, RespondState } from './task/task.events.js';
export { TASK_RECORD_OVERHEAD, taskMessageLimit } from './task/task.limits.js';
export type { QueueContext } from './queue/queue.machine.js';
export {
  QueueEvent,
  QueueTransport,
  type DeliverHeadInput,
  type DeliverHeadOutput,
  type DeliverOutcome,
  type QueueInput,
} from './queue/queue.events.js';
export {
  QueueIndex,
  QUEUE_DEFAULTS,
  isExpired,
  type Admission,
  type AdmitLimits,
  type AdmitRequest,
  type QueueEntry,
  type QueueIndexOptions,
} from './queue/queue-index.js';

/** Every machine the hub runs, for the host, /debug and machines:export. */
export const allMachines = [taskMachine, queueMachine, cleanupMachine] as const;

export { AgentDirectory, isVisibleTo, type AgentRecord } from './agent/directory.js';
export { Presence, type PresenceEntry } from './agent/presence.js';
export {
  ConnectionRegistry,
  FrameRouter,
  type AgentConnection,
  type PushOutcome,
} from './agent/frames.js';
export { createOfficialHub, type ForwardRequest } from './agent/official-hub.js';
export { TaskService, type TaskServiceOptions } from './task/task-service.js';
export { SpendingGate } from './task/spending-gate.js';
export {
  TaskIndexWriter,
  TASK_INDEX_LAG_MS,
  createTaskLister,
  type TaskLister,
} from './task/task-index.js';
export {
  QueueService,
  type QueueServiceOptions,
  type QueueDelegate,
  type EnqueueRequest,
  type EnqueueResult,
  type QueueInspection,
} from './queue/queue-service.js';
export { GenerationReader, LiveDirectory, type LiveDirectoryOptions } from './directory/index.js';
