// Task states and message parts as the hub's own dialect carries them (decisions.md §1): the hub's
// internal model and the SDK's wire types are both built on these.

export const TaskStates = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
] as const;
export type TaskState = (typeof TaskStates)[number];

/** States a task never leaves. */
export const TerminalStates: ReadonlySet<TaskState> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
]);

export type Part =
  | { kind: 'text'; text: string; metadata?: Record<string, unknown> }
  | {
      kind: 'file';
      mimeType: string;
      name?: string;
      /** base64 */
      data?: string;
      uri?: string;
      metadata?: Record<string, unknown>;
    }
  | { kind: 'data'; mimeType: string; data: string; metadata?: Record<string, unknown> };
