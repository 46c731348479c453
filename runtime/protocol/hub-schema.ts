// Zod schemas for JSON-RPC params as the hub accepts them (spec "Endpoints", decisions.md §1, §3,
// §8): tolerant of hub, A2A v1.0 and v0.3 shapes, normalized to the model. Output is never parsed
// with these; codecs write it.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Artifact, Message, Part, Role as ModelRole, TaskStateName } from './model.js';
import { Metadata, PartInput } from './part-input.js';

/** Ids end up in signed envelopes, whose canonical JSON (RFC 8785) refuses lone surrogates. */
const WELL_FORMED = { message: 'must be well-formed Unicode' };
const noLoneSurrogate = (s: string) => !/\p{Surrogate}/u.test(s);
/** Ids are stored and looked up as PostgreSQL text, which cannot hold a NUL character. */
const NO_NUL = { message: 'must not contain a NUL character' };
const noNul = (s: string) => !s.includes('\u0000');

/** Identifiers from callers: non-empty, bounded (the gateway's id parsers check the format). */
const Id = z.string().min(1).max(256).refine(noLoneSurrogate, WELL_FORMED).refine(noNul, NO_NUL);
/** Protobuf JSON writes an unset string as '' or leaves it out; both mean absent. */
const OptionalId = z
  .string()
  .max(256)
  .refine(noLoneSurrogate, WELL_FORMED)
  .refine(noNul, NO_NUL)
  .optional()
  .transform((v) => (v === '' ? undefined : v));
const Count = z.number().int().min(0);

export const Role = z
  .enum(['user', 'agent', 'ROLE_USER', 'ROLE_AGENT'])
  .transform((r): ModelRole => (r === 'ROLE_USER' ? 'user' : r === 'ROLE_AGENT' ? 'agent' : r));
/** The model Role; the schema above reads both spellings. */
export type Role = ModelRole;

export function newMessageId(): string {
  return `msg-${randomUUID()}`;
}

export function newArtifactId(): string {
  return `artifact-${randomUUID()}`;
}

/** A message from a caller. `role` defaults to user (spec: it may be omitted towards HTTP agents). */
export const MessageInput = z
  .object({
    role: Role.optional(),
    parts: z.array(PartInput).min(1),
    messageId: OptionalId,
    contextId: OptionalId,
    taskId: OptionalId,
    metadata: Metadata.optional(),
  })
  .transform((m): Message => ({
    role: m.role ?? 'user',
    parts: m.parts,
    messageId: m.messageId ?? newMessageId(),
    ...(m.contextId !== undefined ? { contextId: m.contextId } : {}),
    ...(m.taskId !== undefined ? { taskId: m.taskId } : {}),
    ...(m.metadata !== undefined ? callerMetadata(m.metadata) : {}),
  }));

/**
 * A caller's message metadata without any `x-hub` in it: only the hub writes envelopes
 * (decisions.md §4), and the recipient reads this metadata beside the hub's own.
 */
function callerMetadata(md: Record<string, unknown>): { metadata?: Record<string, unknown> } {
  if (!Object.hasOwn(md, 'x-hub')) return { metadata: md };
  const { 'x-hub': _forged, ...rest } = md;
  return Object.keys(rest).length > 0 ? { metadata: rest } : {};
}

/** `params.configuration` of SendMessage, all three dialects' fields (spec table, A2A 1.0, 0.3). */
export const SendMessageConfiguration = z.object({
  agentId: OptionalId,
  contextId: OptionalId,
  taskId: OptionalId,
  historyLength: Count.optional(),
  acceptedOutputModes: z.array(z.string()).optional(),
  /** hub and v0.3 */
  blocking: z.boolean().optional(),
  /** v1.0: false (the default) means wait, like blocking: true */
  returnImmediately: z.boolean().optional(),
  'x-ttl': Count.optional(),
});
export type SendMessageConfiguration = z.infer<typeof SendMessageConfiguration>;

export const SendMessageParams = z.object({
  message: MessageInput,
  configuration: SendMessageConfiguration.optional(),
  metadata: Metadata.optional(),
});
export type SendMessageParams = z.infer<typeof SendMessageParams>;

export const GetTaskParams = z.object({ id: Id, historyLength: Count.optional() });
export type GetTaskParams = z.infer<typeof GetTaskParams>;

export const CancelTaskParams = z.object({ id: Id, metadata: Metadata.optional() });
export type CancelTaskParams = z.infer<typeof CancelTaskParams>;

export const SubscribeToTaskParams = z.object({ id: Id });
export type SubscribeToTaskParams = z.infer<typeof SubscribeToTaskParams>;

const STATE_NAMES: Record<string, TaskStateName> = {
  submitted: 'submitted',
  working: 'working',
  'input-required': 'input-required',
  completed: 'completed',
  failed: 'failed',
  canceled: 'canceled',
  rejected: 'rejected',
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_REJECTED: 'rejected',
};

function stateName(s: string, ctx: z.RefinementCtx): TaskStateName {
  // Own keys only: `constructor` or `toString` must not read Object.prototype's functions.
  const state = Object.hasOwn(STATE_NAMES, s) ? STATE_NAMES[s] : undefined;
  if (state !== undefined) return state;
  ctx.addIssue({
    code: 'custom',
    message: `unknown task state "${s}"; one of ${Object.keys(STATE_NAMES).slice(0, 7).join(', ')}`,
  });
  return z.NEVER;
}

/** A task state in either spelling (`input-required`, `TASK_STATE_INPUT_REQUIRED`). */
export const TaskStateInput = z.string().transform(stateName);

export const ListTasksParams = z.object({
  contextId: OptionalId,
  /** Protobuf's unset enum value means no filter. */
  status: z
    .string()
    .transform((s, ctx) => (s === 'TASK_STATE_UNSPECIFIED' ? undefined : stateName(s, ctx)))
    .optional(),
  pageSize: z.number().int().min(1).max(100).default(50),
  pageToken: OptionalId,
  historyLength: Count.optional(),
  includeArtifacts: z.boolean().optional(),
  /** ISO 8601; parsed to epoch ms. */
  statusTimestampAfter: z
    .string()
    .transform((s, ctx) => {
      const ms = Date.parse(s);
      if (Number.isFinite(ms)) return ms;
      ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 timestamp' });
      return z.NEVER;
    })
    .optional(),
});
export type ListTasksParams = z.infer<typeof ListTasksParams>;

/** The states an agent may report (decisions.md §2 task_response, §3 task/respond). */
export const RespondStates = [
  'completed',
  'failed',
  'input-required',
  'rejected',
  'working',
] as const;
export type RespondState = (typeof RespondStates)[number];

const RespondStateInput = z.string().transform((s, ctx): RespondState => {
  const state = STATE_NAMES[s];
  if (state !== undefined && (RespondStates as readonly string[]).includes(state)) {
    return state as RespondState;
  }
  ctx.addIssue({ code: 'custom', message: `must be one of ${RespondStates.join(', ')}` });
  return z.NEVER;
});

const StatusText = z.object({ parts: z.array(PartInput) });

/** The status text: a string, or a message whose text parts are joined by spaces. */
const StatusMessage = z.unknown().transform((v, ctx): string => {
  if (typeof v === 'string') return v;
  const message = StatusText.safeParse(v, { reportInput: true });
  if (message.success) return textOf(message.data.parts);
  ctx.addIssue({ code: 'custom', message: 'must be a string (or a message with text parts)' });
  return z.NEVER;
});

export const ArtifactInput = z
  .object({
    artifactId: OptionalId,
    /** spec "Artifact" names the field `id` */
    id: OptionalId,
    name: z.string().optional(),
    mimeType: z.string().optional(),
    parts: z.array(PartInput).min(1),
  })
  .transform((a): Artifact => ({
    artifactId: a.artifactId ?? a.id ?? newArtifactId(),
    ...(a.name !== undefined ? { name: a.name } : {}),
    ...(a.mimeType !== undefined ? { mimeType: a.mimeType } : {}),
    parts: a.parts,
  }));
export type ArtifactInput = z.infer<typeof ArtifactInput>;

/** task/respond params, also the body of a WebSocket task_response frame (decisions.md §2, §3). */
export const TaskRespondParams = z.object({
  taskId: Id,
  status: z.object({ state: RespondStateInput, message: StatusMessage.optional() }),
  artifact: ArtifactInput.optional(),
  /** false: more chunks of this artifact follow */
  lastChunk: z.boolean().default(true),
});
export type TaskRespondParams = z.infer<typeof TaskRespondParams>;

/** The text parts of a message, joined by spaces (what HTTP agents' handlers receive, spec §3). */
export function textOf(parts: readonly Part[]): string {
  return parts
    .filter((p): p is Extract<Part, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join(' ');
}
