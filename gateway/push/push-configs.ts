// The push notification config methods (A2A Create/Get/List/DeleteTaskPushNotificationConfig and
// v0.3 tasks/pushNotificationConfig/*), the same on POST /a2a and /agents/:id/a2a: a config
// belongs to the task and to the caller who registered it; only a party of the task may register
// one, and only its owner sees or deletes it (the other party's configs stay invisible).
import { randomUUID } from 'node:crypto';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { registrationRefusal, type OutboundGuard } from '../../runtime/net/index.js';
import { RpcMethod, type Dialect, type Task } from '../../runtime/protocol/index.js';
import {
  deletePushConfig,
  getPushConfig,
  listPushConfigs,
  MAX_PUSH_CONFIGS_PER_TASK,
  putPushConfig,
  type PushConfigRecord,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';
import {
  encodePushConfig,
  encodePushConfigList,
  readCreateParams,
  readPushConfigBody,
  readRefParams,
  sendPushConfig,
  type PushConfigInput,
} from './push-codec.js';

export interface PushConfigsDeps {
  readonly sql: Queryable;
  /** The outbound guard: a URL naming a refused address is refused when it is registered. */
  readonly guard: OutboundGuard;
  /** Wakes the pusher (this node) after a config is stored. */
  readonly wake?: () => void;
}

export type PushMethod =
  | typeof RpcMethod.CreateTaskPushNotificationConfig
  | typeof RpcMethod.GetTaskPushNotificationConfig
  | typeof RpcMethod.ListTaskPushNotificationConfigs
  | typeof RpcMethod.DeleteTaskPushNotificationConfig;

export function isPushMethod(m: RpcMethod): m is PushMethod {
  return (
    m === RpcMethod.CreateTaskPushNotificationConfig ||
    m === RpcMethod.GetTaskPushNotificationConfig ||
    m === RpcMethod.ListTaskPushNotificationConfigs ||
    m === RpcMethod.DeleteTaskPushNotificationConfig
  );
}

/** The task the caller may read (its sender or recipient), checked by the endpoint. */
export type TaskCheck = (principal: Principal, taskId: string) => Promise<Task>;

export class PushConfigs {
  constructor(private readonly d: PushConfigsDeps) {}

  /** Runs one config method; `readTask` fails with TASK_NOT_FOUND for a task the caller may not read. */
  async call(
    method: PushMethod,
    params: unknown,
    principal: Principal,
    dialect: Dialect,
    readTask: TaskCheck
  ): Promise<unknown> {
    const owner = ownerOf(principal);
    switch (method) {
      case RpcMethod.CreateTaskPushNotificationConfig: {
        const input = readCreateParams(params);
        this.checkUrl(input.url, 'url');
        const task = await readTask(principal, input.taskId);
        // Updates from now on: what came before, the caller can read with GetTask.
        const stored = await this.store(principal, input, dialect, task.rev);
        return encodePushConfig(stored, dialect);
      }
      case RpcMethod.GetTaskPushNotificationConfig: {
        const ref = readRefParams(params);
        await readTask(principal, ref.taskId);
        if (ref.id === undefined) {
          // v0.3 allows asking without an id: the caller's first config of the task.
          const [first] = await listPushConfigs(this.d.sql, ref.taskId, owner);
          if (first === undefined) throw noConfig('id', ref.taskId);
          return encodePushConfig(first, dialect);
        }
        const found = await getPushConfig(this.d.sql, ref.taskId, owner, ref.id);
        if (found === undefined) throw noConfig('id', ref.taskId, ref.id);
        return encodePushConfig(found, dialect);
      }
      case RpcMethod.ListTaskPushNotificationConfigs: {
        const ref = readRefParams(params);
        await readTask(principal, ref.taskId);
        return encodePushConfigList(await listPushConfigs(this.d.sql, ref.taskId, owner), dialect);
      }
      case RpcMethod.DeleteTaskPushNotificationConfig: {
        const ref = readRefParams(params);
        if (ref.id === undefined) throw new InvalidParamsError('id', 'is required');
        await readTask(principal, ref.taskId);
        if (!(await deletePushConfig(this.d.sql, ref.taskId, owner, ref.id))) {
          throw noConfig('id', ref.taskId, ref.id);
        }
        // google.protobuf.Empty in v1.0; null in v0.3.
        return dialect === 'v1' ? {} : null;
      }
      default: {
        const never: never = method;
        return never;
      }
    }
  }

  /**
   * The push config of a SendMessage's configuration, validated before the message is sent (a
   * bad one changes nothing); undefined when there is none.
   */
  readFromSend(params: unknown): ((task: Task) => PushConfigInput) | undefined {
    const found = sendPushConfig(params);
    if (found === undefined) return undefined;
    const checked = readPushConfigBody(found.value, found.field, 'pending');
    this.checkUrl(checked.url, `${found.field}.url`);
    return (task) => ({ ...checked, taskId: task.id });
  }

  /**
   * Stores the config of a SendMessage once its task exists: every update of the task is pushed,
   * from its first (delivered rev 0), before the caller's answer leaves.
   */
  async storeFromSend(
    principal: Principal,
    input: PushConfigInput,
    dialect: Dialect
  ): Promise<void> {
    await this.store(principal, input, dialect, 0);
  }

  private async store(
    principal: Principal,
    input: PushConfigInput,
    dialect: Dialect,
    deliveredRev: number
  ): Promise<PushConfigRecord> {
    const record: PushConfigRecord = {
      taskId: input.taskId,
      id: input.id ?? randomUUID(),
      ownerAgentId: ownerOf(principal),
      ownerTenantId: principal.tenantId,
      dialect,
      url: input.url,
      token: input.token ?? null,
      authScheme: input.authentication?.scheme ?? null,
      authCredentials: input.authentication?.credentials ?? null,
    };
    if (!(await putPushConfig(this.d.sql, { ...record, deliveredRev }))) {
      throw new InvalidParamsError(
        'taskId',
        `has ${MAX_PUSH_CONFIGS_PER_TASK} push notification configs of yours already; delete one first`
      );
    }
    this.d.wake?.();
    return record;
  }

  private checkUrl(url: string, field: string): void {
    const refused = registrationRefusal(this.d.guard, url);
    if (refused !== undefined) throw new InvalidParamsError(field, `refused: ${refused.message}`);
  }
}

/** Configs belong to an agent; a tenant admin key has its own namespace per tenant. */
function ownerOf(p: Principal): string {
  return p.kind === 'agent' ? p.agentId : `admin:${p.tenantId}`;
}

function noConfig(field: string, taskId: string, id?: string): InvalidParamsError {
  return new InvalidParamsError(
    field,
    id === undefined
      ? `task ${taskId} has no push notification config of yours`
      : `no push notification config ${id} of yours for task ${taskId}`
  );
}
