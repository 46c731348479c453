// Messaging: where agents are, how frames and messages reach them, and the task operations.
export { AgentDirectory, type AgentRecord } from './directory.js';
export { Presence, type PresenceEntry } from './presence.js';
export {
  ConnectionRegistry,
  FrameRouter,
  type AgentConnection,
  type PushOutcome,
} from './frames.js';
export { TaskService, type TaskServiceOptions } from './task-service.js';
export { TaskIndexWriter, createTaskLister, type TaskLister } from './task-index.js';
export {
  QueueService,
  type QueueServiceOptions,
  type QueueDelegate,
  type EnqueueRequest,
  type EnqueueResult,
  type QueueInspection,
} from './queue-service.js';
export { createOfficialHub, type ForwardRequest } from './official-hub.js';
