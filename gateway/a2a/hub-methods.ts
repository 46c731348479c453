// The hub dialect's JSON-RPC methods (decisions.md §1: exactly the shapes of interface-spec.md),
// served on POST /a2a and as JSON-RPC frames on the agent WebSocket. Both method-name families
// are accepted; the caller is authenticated before any method runs.
import { HubError } from '../../runtime/errors/index.js';
import { stripCallerEnvelope } from '../../runtime/envelope/index.js';
import {
  ListTasksParams,
  RpcMethod,
  decodeSendMessage,
  encodeListTasksHub,
  encodeTaskHub,
  normalizeMethod,
  parseParams,
  readCancelTaskParams,
  readGetTaskParams,
  readTaskRespondParams,
} from '../../runtime/protocol/index.js';
import type { Principal } from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import type { RpcContext, RpcHandler } from '../deps.js';
import type { TaskService } from '../../actors/index.js';
import type { TaskLister } from '../../actors/index.js';
import { isPushMethod, type PushConfigs } from '../push/index.js';

export interface Caller {
  readonly principal: Principal;
  readonly requestId: string;
}

export type HubMethod = (params: unknown, caller: Caller) => Promise<unknown>;

export function hubMethods(
  tasks: TaskService,
  lister: TaskLister,
  push?: PushConfigs
): Map<RpcMethod, HubMethod> {
  const methods = new Map<RpcMethod, HubMethod>([
    [
      RpcMethod.SendMessage,
      async (params, c) => {
        const req = decodeSendMessage(params, 'hub');
        // Checked before the send: a bad push config changes nothing.
        const pushFor = push?.readFromSend(params);
        const task = await tasks.send(c.principal, req);
        if (pushFor) await push?.storeFromSend(c.principal, pushFor(task), 'hub');
        return encodeTaskHub(task, viewOf(req.historyLength));
      },
    ],
    [
      RpcMethod.GetTask,
      async (params, c) => {
        const p = readGetTaskParams(params);
        return encodeTaskHub(await tasks.getForCaller(c.principal, p.id), viewOf(p.historyLength));
      },
    ],
    [
      RpcMethod.CancelTask,
      async (params, c) => {
        const p = readCancelTaskParams(params);
        return encodeTaskHub(await tasks.cancel(c.principal, p.id));
      },
    ],
    [
      RpcMethod.ListTasks,
      async (params, c) => {
        const p = parseParams(ListTasksParams, params);
        const { tasks: list, page } = await lister.list(c.principal, p);
        return encodeListTasksHub(list, page, viewOf(p.historyLength));
      },
    ],
    [
      RpcMethod.TaskRespond,
      async (params, c) => {
        const p = readTaskRespondParams(params);
        return encodeTaskHub(await tasks.respond(c.principal, p));
      },
    ],
  ]);
  if (push) {
    // The same methods as on /agents/:id/a2a (issue 27), answered in v0.3's shapes, which the
    // hub dialect's clients speak; the caller must be a party of the task.
    const readTask = (p: Principal, taskId: string) => tasks.getForCaller(p, taskId);
    for (const m of Object.values(RpcMethod)) {
      if (!isPushMethod(m)) continue;
      methods.set(m, (params, c) => push.call(m, params ?? {}, c.principal, 'hub', readTask));
    }
  }
  return methods;
}

function viewOf(historyLength: number | undefined) {
  return historyLength === undefined ? {} : { historyLength };
}

/**
 * Resolve a method name of either family (or a vendor method's own name, decisions.md §11) to its
 * implementation, or METHOD_NOT_FOUND.
 */
export function lookupMethod(methods: ReadonlyMap<string, HubMethod>, name: string): HubMethod {
  const m = methods.get(normalizeMethod(name) ?? name);
  if (!m) throw new HubError('METHOD_NOT_FOUND', 'Method not found', { data: { method: name } });
  return m;
}

/** Run a method for an already authenticated caller, with any caller-supplied x-hub removed. */
export function invoke(m: HubMethod, params: unknown, caller: Caller): Promise<unknown> {
  return m(stripCallerEnvelope(params ?? {}), caller);
}

/**
 * The gateway's handler table for POST /a2a: every accepted name of every method, each
 * authenticating the Authorization header first.
 */
export function httpHandlers(
  methods: ReadonlyMap<string, HubMethod>,
  auth: Authenticator
): Map<string, RpcHandler> {
  const out = new Map<string, RpcHandler>();
  const names = [
    ...methods.keys(),
    'message/send',
    'message/stream',
    'tasks/get',
    'tasks/cancel',
    'tasks/list',
    'tasks/resubscribe',
    'tasks/pushNotificationConfig/set',
    'tasks/pushNotificationConfig/get',
    'tasks/pushNotificationConfig/list',
    'tasks/pushNotificationConfig/delete',
    'ListTaskPushNotificationConfig',
  ];
  for (const name of names) {
    const m = methods.get(normalizeMethod(name) ?? name);
    if (!m) continue;
    out.set(name, async (params: unknown, ctx: RpcContext) => {
      const principal = await auth.authenticate(ctx.headers.authorization, ctx.scope);
      return invoke(m, params, { principal, requestId: ctx.requestId });
    });
  }
  return out;
}
