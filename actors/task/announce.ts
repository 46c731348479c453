// Owner side: tells the parties of a task about its state changes (task_update frames to the
// sender, and to the recipient on cancel), and carries a cancel to an HTTP or official agent.
import { encodeJson, subjects } from '../../runtime/bus/index.js';
import { TerminalStates, encodeTaskHub, type Task } from '../../runtime/protocol/index.js';
import { cancelAtHttpAgent, type MessageSendAgents } from '../agent/delivery.js';
import type { TaskCore } from './task-core.js';

export class TaskAnnouncer {
  /** Last state announced per live task, to send task_update only on changes. */
  private readonly announced = new Map<string, string>();

  constructor(
    private readonly core: TaskCore,
    private readonly messageSend: MessageSendAgents
  ) {}

  /** After a durable change: a task_update frame when the state changed. */
  announce(task: Task): void {
    const { o } = this.core;
    const state = task.status.state;
    if (this.announced.get(task.id) === state) return;
    if (TerminalStates.has(state)) this.announced.delete(task.id);
    else this.announced.set(task.id, state);
    // Most senders (HTTP callers) have no socket: the frame is built only for one that has.
    const toSender = o.frames.reaches(task.senderId);
    const toRecipient = state === 'canceled' && o.frames.reaches(task.recipientId);
    if (toSender || toRecipient) {
      const frame = { type: 'task_update', task: encodeTaskHub(task) };
      if (toSender) void o.frames.push(task.senderId, frame);
      if (toRecipient) void o.frames.push(task.recipientId, frame);
    }
    if (state !== 'canceled') return;
    void o.directory.get(task.recipientId).then((r) => {
      if (r?.url && r.transport !== 'official') {
        return cancelAtHttpAgent(r, task.id, o.outbound, this.messageSend);
      }
      // The official agent's pool member holding the task aborts its handler.
      if (r?.transport === 'official') {
        o.bus.nc.publish(subjects.agentCancel(r.id), encodeJson({ taskId: task.id }));
      }
    });
  }
}
