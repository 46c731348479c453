// The hub's own XState machines and their event types: the only import surface of actors/.
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
