// The tenant's tasks under its admin key in GET /openapi.json (gateway/manage/tasks-routes.ts):
// the hub dialect's task plus both parties and its times.
import { z } from 'zod';
import { TaskStates } from '../../runtime/protocol/index.js';
import { HubTaskSchema } from '../a2a/method-docs.js';
import { queryInteger, type RouteDoc } from '../http/index.js';

export const TASKS_LIMIT = { default: 50, max: 200 } as const;

const admin = { tags: ['Tasks'], auth: 'adminKey' } as const;
const iso = z.iso.datetime({ offset: true });

const TenantTask = HubTaskSchema.extend({
  senderId: z.string(),
  recipientId: z.string(),
  createdAt: iso,
  updatedAt: iso,
});

const Filter = {
  agentId: z.string().min(1).max(200).optional(),
  contextId: z.string().min(1).max(200).optional(),
  state: z.enum(TaskStates).optional(),
};

/** GET /api/tasks: the filters and how many tasks at most. */
export const TasksQuery = z.strictObject({
  ...Filter,
  limit: queryInteger(1, TASKS_LIMIT.max)
    .default(TASKS_LIMIT.default)
    .describe(`How many tasks at most (default ${TASKS_LIMIT.default})`),
});

/** The feed takes the filters only: it sends every change, so a limit would mean nothing. */
export const TaskFeedQuery = z.strictObject(Filter);

export const tasksDocs = {
  listTenantTasks: {
    ...admin,
    summary: "The tenant's tasks (sent or received by its agents), newest change first",
    query: TasksQuery,
    responses: { 200: z.object({ tasks: z.array(TenantTask), count: z.number().int() }) },
  },
  tenantTaskFeed: {
    ...admin,
    summary: "A live feed of the tenant's task changes (Server-Sent Events, one `task` event each)",
    query: TaskFeedQuery,
    responses: { 200: { description: 'An event stream', contentType: 'text/event-stream' } },
  },
  tenantTask: {
    ...admin,
    summary: 'One of the tenant\u2019s tasks with its messages and artifacts',
    responses: { 200: z.object({ task: TenantTask }) },
    errors: [404],
  },
  cancelTenantTask: {
    ...admin,
    summary: "Cancel a task one of the tenant's agents sent",
    responses: { 200: z.object({ task: TenantTask }) },
    errors: [404, 409],
  },
} satisfies Record<string, RouteDoc>;
