// How large a message a task may be sent with. A task's record (its durable snapshot, one NATS
// message) holds the first message once, and every later message and artifact twice: in
// `messages` or `artifacts`, and again in `events`, the history SSE replays. A message may
// therefore use a third of the room, so that a reply as large as the message fits beside it.

/** Bytes of a task's record besides its messages and artifacts: ids, statuses, configuration. */
export const TASK_RECORD_OVERHEAD = 8 * 1024;

/** The largest encoded message a new task accepts, given the largest record of an active task. */
export function taskMessageLimit(activeRecordBytes: number): number {
  return Math.max(0, Math.floor((activeRecordBytes - TASK_RECORD_OVERHEAD) / 3));
}
