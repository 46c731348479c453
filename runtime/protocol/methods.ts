// JSON-RPC method names (decisions.md §1): both families are accepted on every endpoint, A2A v1.0
// PascalCase and v0.3 slash names, and normalized to the v1.0 name; `task/respond` is the hub's own.

export const RpcMethod = {
  SendMessage: 'SendMessage',
  SendStreamingMessage: 'SendStreamingMessage',
  GetTask: 'GetTask',
  CancelTask: 'CancelTask',
  ListTasks: 'ListTasks',
  SubscribeToTask: 'SubscribeToTask',
  CreateTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
  GetTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
  ListTaskPushNotificationConfigs: 'ListTaskPushNotificationConfigs',
  DeleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
  GetExtendedAgentCard: 'GetExtendedAgentCard',
  /** Hub only (decisions.md §3): an HTTP agent finishes an open task. */
  TaskRespond: 'task/respond',
} as const;
export type RpcMethod = (typeof RpcMethod)[keyof typeof RpcMethod];

const ALIASES: Readonly<Record<string, RpcMethod>> = {
  'message/send': RpcMethod.SendMessage,
  'message/stream': RpcMethod.SendStreamingMessage,
  'tasks/get': RpcMethod.GetTask,
  'tasks/cancel': RpcMethod.CancelTask,
  'tasks/list': RpcMethod.ListTasks,
  'tasks/resubscribe': RpcMethod.SubscribeToTask,
  'tasks/pushNotificationConfig/set': RpcMethod.CreateTaskPushNotificationConfig,
  'tasks/pushNotificationConfig/get': RpcMethod.GetTaskPushNotificationConfig,
  'tasks/pushNotificationConfig/list': RpcMethod.ListTaskPushNotificationConfigs,
  'tasks/pushNotificationConfig/delete': RpcMethod.DeleteTaskPushNotificationConfig,
  // v0.3's gRPC spelling, singular; some clients send it over JSON-RPC too.
  ListTaskPushNotificationConfig: RpcMethod.ListTaskPushNotificationConfigs,
  'agent/getAuthenticatedExtendedCard': RpcMethod.GetExtendedAgentCard,
};

const CANONICAL: ReadonlySet<string> = new Set(Object.values(RpcMethod));

/** The canonical name of a method in either family, or undefined when it is unknown. */
export function normalizeMethod(name: string): RpcMethod | undefined {
  if (CANONICAL.has(name)) return name as RpcMethod;
  return Object.prototype.hasOwnProperty.call(ALIASES, name) ? ALIASES[name] : undefined;
}

/** Every name normalizeMethod accepts, canonical names and aliases (for the method documents). */
export function methodNames(): string[] {
  return [...CANONICAL, ...Object.keys(ALIASES)];
}

/** Methods served only on the hub endpoint (POST /a2a and the agent WebSocket). */
export function isHubOnlyMethod(method: RpcMethod): boolean {
  return method === RpcMethod.TaskRespond;
}

/** Methods whose answer is an SSE stream on HTTP. */
export function isStreamingMethod(method: RpcMethod): boolean {
  return method === RpcMethod.SendStreamingMessage || method === RpcMethod.SubscribeToTask;
}
