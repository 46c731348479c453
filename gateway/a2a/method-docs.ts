// The hub dialect's JSON-RPC methods in GET /openrpc.json: params are the zod schemas the methods
// parse with (runtime/protocol/hub-schema.ts, discover/params.ts), results what codec-hub.ts and
// the vendor methods write. A method on POST /a2a without an entry here fails the document tests.
import { z } from 'zod';
import {
  CancelTaskParams,
  GetTaskParams,
  ListTasksParams,
  RpcMethod,
  SendMessageParams,
  SubscribeToTaskParams,
  TaskRespondParams,
  TaskStates,
} from '../../runtime/protocol/index.js';
import { NearbyQuery, SearchQuery } from '../discover/params.js';
import { DirectoryAgentSchema } from '../discover/route-docs.js';
import { VendorMethod } from '../discover/vendor-methods.js';
import {
  WORKSPACE_METHOD_PREFIX,
  WorkspaceMethods,
  workspaceOperationDocs,
} from '../workspaces/index.js';
import { ME_METHOD } from './me-method.js';
import { pushMethodDocs } from './push-method-docs.js';

export interface MethodDoc {
  readonly summary: string;
  readonly params: z.ZodType;
  readonly result: z.ZodType;
  /** Answered as an SSE stream on HTTP. */
  readonly streaming?: boolean;
}

const Part = z.looseObject({ kind: z.enum(['text', 'file', 'data']) });

const HubMessage = z.object({
  kind: z.literal('message'),
  role: z.enum(['user', 'agent']),
  parts: z.array(Part),
  messageId: z.string(),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const HubArtifact = z.object({
  artifactId: z.string(),
  id: z.string(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  parts: z.array(Part),
});

export const HubTaskSchema = z.object({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: z.object({
    state: z.enum(TaskStates),
    timestamp: z.iso.datetime({ offset: true }),
    message: z.string().optional(),
  }),
  messages: z.array(HubMessage),
  history: z.array(HubMessage),
  artifacts: z.array(HubArtifact),
  metadata: z.object({ agentId: z.string() }),
});

const TaskList = z.object({
  tasks: z.array(HubTaskSchema),
  nextPageToken: z.string(),
  pageSize: z.number().int(),
  totalSize: z.number().int(),
});

const StreamEvent = z
  .looseObject({})
  .describe('SSE events: {task}, {statusUpdate}, {artifactUpdate}');

const DirectoryPage = z.looseObject({
  agents: z.array(DirectoryAgentSchema),
  count: z.number().int().min(0),
});

/** Vendor methods take the REST query parameters, JSON numbers and booleans as their text. */
const asParams = (query: z.ZodObject) =>
  z.object(
    Object.fromEntries(
      Object.keys(query.shape).map((k) => [
        k,
        z.union([z.string(), z.number(), z.boolean()]).optional(),
      ])
    )
  );

export const hubMethodDocs: Readonly<Record<string, MethodDoc>> = {
  [RpcMethod.SendMessage]: {
    summary: 'Send a message to an agent; answers the task',
    params: SendMessageParams,
    result: HubTaskSchema,
  },
  [RpcMethod.SendStreamingMessage]: {
    summary: "Send a message and stream the task's changes",
    params: SendMessageParams,
    result: StreamEvent,
    streaming: true,
  },
  [RpcMethod.GetTask]: { summary: 'A task', params: GetTaskParams, result: HubTaskSchema },
  [RpcMethod.CancelTask]: {
    summary: 'Cancel a task',
    params: CancelTaskParams,
    result: HubTaskSchema,
  },
  [RpcMethod.ListTasks]: {
    summary: "The caller's tasks, newest first, a page at a time",
    params: ListTasksParams,
    result: TaskList,
  },
  [RpcMethod.SubscribeToTask]: {
    summary: "Stream a task's changes",
    params: SubscribeToTaskParams,
    result: StreamEvent,
    streaming: true,
  },
  [RpcMethod.TaskRespond]: {
    summary: 'An HTTP agent finishes (or updates) an open task',
    params: TaskRespondParams,
    result: HubTaskSchema,
  },
  [ME_METHOD]: {
    summary: "Who the caller's key speaks for",
    params: z.object({}),
    result: z.object({
      kind: z.enum(['agent', 'admin']),
      tenantId: z.string(),
      agentId: z.string().optional(),
      name: z.string().optional(),
      description: z.string().optional(),
      alias: z.string().nullable().optional(),
      visibility: z.string().optional(),
      category: z.string().nullable().optional(),
      tags: z.array(z.string()).optional(),
      transport: z.string().optional(),
    }),
  },
  [VendorMethod.Discover]: {
    summary: 'GET /api/discover/agents as a method',
    params: asParams(SearchQuery),
    result: DirectoryPage,
  },
  [VendorMethod.DiscoverNearby]: {
    summary: 'GET /api/discover/agents/nearby as a method',
    params: asParams(NearbyQuery),
    result: DirectoryPage,
  },
  [VendorMethod.Available]: {
    summary: "The caller's tenant's agents (with q or public: true, the plain search)",
    params: asParams(SearchQuery).extend({ public: z.boolean().optional() }),
    result: DirectoryPage,
  },
  ...pushMethodDocs,
  ...Object.fromEntries(
    WorkspaceMethods.map((name) => {
      const d = workspaceOperationDocs[name];
      return [
        `${WORKSPACE_METHOD_PREFIX}${name}`,
        { summary: d.summary, params: d.params, result: d.result },
      ];
    })
  ),
};
