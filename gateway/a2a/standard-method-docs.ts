// The standard A2A methods of POST /agents/:agentId/a2a in GET /openrpc.json?dialect=1.0 and
// ?dialect=0.3 (decisions.md §1): the params are the schemas the methods read with (tolerant of
// both dialects' shapes, as on the hub endpoint), the results the shapes the negotiated dialect
// writes (runtime/protocol/codec-v1.ts, codec-v03.ts, gateway/push/push-codec.ts).
import { z } from 'zod';
import {
  CancelTaskParams,
  GetTaskParams,
  ListTasksParams,
  RpcMethod,
  SendMessageParams,
  SubscribeToTaskParams,
  TaskStates,
  V1TaskStates,
  type StandardDialect,
} from '../../runtime/protocol/index.js';
import type { MethodDoc } from './method-docs.js';
import { Config as V03PushConfig, CreateParams, RefParams } from './push-method-docs.js';

const Metadata = z.record(z.string(), z.unknown());
const Page = { nextPageToken: z.string(), pageSize: z.number().int(), totalSize: z.number().int() };

// A2A v1.0, ProtoJSON: a part holds exactly one of text, raw (base64), url, data.
const V1PartCommon = {
  mediaType: z.string().optional(),
  filename: z.string().optional(),
  metadata: Metadata.optional(),
};
const V1Part = z.union([
  z.object({ text: z.string(), ...V1PartCommon }),
  z.object({ raw: z.string().describe('base64'), ...V1PartCommon }),
  z.object({ url: z.string(), ...V1PartCommon }),
  z.object({ data: z.unknown(), ...V1PartCommon }),
]);
const V1Message = z.object({
  messageId: z.string(),
  role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
  parts: z.array(V1Part),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  metadata: Metadata.optional(),
});
const V1Status = z.object({
  state: z.enum(Object.values(V1TaskStates) as [string, ...string[]]),
  timestamp: z.string(),
  message: V1Message.optional(),
});
const V1Artifact = z.object({
  artifactId: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(V1Part),
});
const V1Task = z.object({
  id: z.string(),
  contextId: z.string(),
  status: V1Status,
  artifacts: z.array(V1Artifact),
  history: z.array(V1Message),
  metadata: Metadata.optional(),
});
const V1StreamEvent = z.union([
  z.object({ task: V1Task }),
  z.object({ message: V1Message }),
  z.object({
    statusUpdate: z.object({ taskId: z.string(), contextId: z.string(), status: V1Status }),
  }),
  z.object({
    artifactUpdate: z.object({
      taskId: z.string(),
      contextId: z.string(),
      artifact: V1Artifact,
      append: z.boolean(),
      lastChunk: z.boolean(),
    }),
  }),
]);
const V1PushConfig = z.object({
  taskId: z.string(),
  id: z.string(),
  url: z.string(),
  token: z.string().optional(),
  authentication: z.object({ scheme: z.string(), credentials: z.string().optional() }).optional(),
});

// A2A v0.3: parts and objects carry `kind`, lowercase states and roles.
const V03Part = z.union([
  z.object({ kind: z.literal('text'), text: z.string(), metadata: Metadata.optional() }),
  z.object({
    kind: z.literal('file'),
    file: z.union([
      z.object({ bytes: z.string(), mimeType: z.string().optional(), name: z.string().optional() }),
      z.object({ uri: z.string(), mimeType: z.string().optional(), name: z.string().optional() }),
    ]),
    metadata: Metadata.optional(),
  }),
  z.object({ kind: z.literal('data'), data: Metadata, metadata: Metadata.optional() }),
]);
const V03Message = z.object({
  kind: z.literal('message'),
  messageId: z.string(),
  role: z.enum(['user', 'agent']),
  parts: z.array(V03Part),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  metadata: Metadata.optional(),
});
const V03Status = z.object({
  state: z.enum(TaskStates),
  timestamp: z.string(),
  message: V03Message.optional(),
});
const V03Artifact = z.object({
  artifactId: z.string(),
  name: z.string().optional(),
  parts: z.array(V03Part),
});
const V03Task = z.object({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: V03Status,
  artifacts: z.array(V03Artifact),
  history: z.array(V03Message),
});
const V03StreamEvent = z.union([
  V03Task,
  V03Message,
  z.object({
    kind: z.literal('status-update'),
    taskId: z.string(),
    contextId: z.string(),
    status: V03Status,
    final: z.boolean(),
  }),
  z.object({
    kind: z.literal('artifact-update'),
    taskId: z.string(),
    contextId: z.string(),
    artifact: V03Artifact,
    append: z.boolean(),
    lastChunk: z.boolean(),
  }),
]);

const Card = z
  .looseObject({ name: z.string() })
  .describe("The path agent's extended card in the dialect's card shape (-32007 without one)");

interface DialectShapes {
  readonly sendResult: z.ZodType;
  readonly task: z.ZodType;
  readonly list: z.ZodType;
  readonly event: z.ZodType;
  readonly pushConfig: z.ZodType;
  readonly pushList: z.ZodType;
}

function docs(s: DialectShapes): Readonly<Record<string, MethodDoc>> {
  return {
    [RpcMethod.SendMessage]: {
      summary: 'Send a message to the path agent',
      params: SendMessageParams,
      result: s.sendResult,
    },
    [RpcMethod.SendStreamingMessage]: {
      summary: "Send a message to the path agent and stream the task's changes",
      params: SendMessageParams,
      result: s.event,
      streaming: true,
    },
    [RpcMethod.GetTask]: {
      summary: 'A task between the caller and the path agent',
      params: GetTaskParams,
      result: s.task,
    },
    [RpcMethod.CancelTask]: { summary: 'Cancel a task', params: CancelTaskParams, result: s.task },
    [RpcMethod.ListTasks]: {
      summary: "The caller's tasks with the path agent, newest first",
      params: ListTasksParams,
      result: s.list,
    },
    [RpcMethod.SubscribeToTask]: {
      summary: "Stream a task's changes (Last-Event-ID resumes)",
      params: SubscribeToTaskParams,
      result: s.event,
      streaming: true,
    },
    [RpcMethod.CreateTaskPushNotificationConfig]: {
      summary: "Register a URL to be sent the task's updates",
      params: CreateParams,
      result: s.pushConfig,
    },
    [RpcMethod.GetTaskPushNotificationConfig]: {
      summary: "One of the caller's push configs of a task",
      params: RefParams,
      result: s.pushConfig,
    },
    [RpcMethod.ListTaskPushNotificationConfigs]: {
      summary: "The caller's push configs of a task",
      params: RefParams,
      result: s.pushList,
    },
    [RpcMethod.DeleteTaskPushNotificationConfig]: {
      summary: "Delete one of the caller's push configs of a task",
      params: RefParams,
      result: z.null(),
    },
    [RpcMethod.GetExtendedAgentCard]: {
      summary: "The path agent's extended card",
      params: z.object({}),
      result: Card,
    },
  };
}

/** The standard endpoint's method docs by negotiated dialect. */
export const standardMethodDocs: Readonly<
  Record<StandardDialect, Readonly<Record<string, MethodDoc>>>
> = {
  v1: docs({
    sendResult: z.union([z.object({ task: V1Task }), z.object({ message: V1Message })]),
    task: V1Task,
    list: z.object({ tasks: z.array(V1Task), ...Page }),
    event: V1StreamEvent,
    pushConfig: V1PushConfig,
    pushList: z.object({ configs: z.array(V1PushConfig), nextPageToken: z.string() }),
  }),
  'v0.3': docs({
    // v0.3 message/send answers with the bare Task.
    sendResult: V03Task,
    task: V03Task,
    list: z.object({ tasks: z.array(V03Task), ...Page }),
    event: V03StreamEvent,
    pushConfig: V03PushConfig,
    pushList: z.array(V03PushConfig),
  }),
};
