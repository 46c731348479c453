// The push notification config methods on POST /a2a in GET /openrpc.json (gateway/push): params
// are read tolerantly in either A2A shape (push-codec.ts), results are written in v0.3's shapes,
// which the hub dialect answers in.
import { z } from 'zod';
import { RpcMethod } from '../../runtime/protocol/index.js';
import type { MethodDoc } from './method-docs.js';

const Id = z.string().min(1).max(128);
const Auth = z.object({
  scheme: z.string().optional().describe('v1.0'),
  schemes: z.array(z.string()).optional().describe('v0.3: the first is used'),
  credentials: z.string().max(4096).optional(),
});
const ConfigBody = z.object({
  id: Id.optional(),
  url: z.url().max(2048),
  token: z.string().max(1024).optional(),
  authentication: Auth.nullish(),
});

/** v1.0 flat {taskId, url, ...} or v0.3 {taskId, pushNotificationConfig: {...}}. */
export const CreateParams = z.union([
  ConfigBody.extend({ taskId: Id }),
  z.object({ taskId: Id, pushNotificationConfig: ConfigBody }),
]);
/** v1.0 {taskId, id} or v0.3 {id: <task id>, pushNotificationConfigId}. */
export const RefParams = z.union([
  z.object({ taskId: Id, id: Id.optional() }),
  z.object({ id: Id, pushNotificationConfigId: Id.optional() }),
]);

export const Config = z.object({
  taskId: z.string(),
  pushNotificationConfig: z.object({
    id: z.string(),
    url: z.string(),
    token: z.string().optional(),
    authentication: z
      .object({ schemes: z.array(z.string()), credentials: z.string().optional() })
      .optional(),
  }),
});

export const pushMethodDocs: Readonly<Record<string, MethodDoc>> = {
  [RpcMethod.CreateTaskPushNotificationConfig]: {
    summary: "Register a URL to be sent the task's updates (a party of the task)",
    params: CreateParams,
    result: Config,
  },
  [RpcMethod.GetTaskPushNotificationConfig]: {
    summary: "One of the caller's push configs of a task (without an id: its first)",
    params: RefParams,
    result: Config,
  },
  [RpcMethod.ListTaskPushNotificationConfigs]: {
    summary: "The caller's push configs of a task",
    params: RefParams,
    result: z.array(Config),
  },
  [RpcMethod.DeleteTaskPushNotificationConfig]: {
    summary: "Delete one of the caller's push configs of a task",
    params: RefParams,
    result: z.null(),
  },
};
