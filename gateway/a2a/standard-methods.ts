// The per-agent endpoint's methods in standard A2A (decisions.md §1, §8): the path's agent is the
// target of SendMessage and one party of every task read here; results follow the negotiated dialect.
import { HubError, MethodNotFoundError } from '../../runtime/errors/index.js';
import { stripCallerEnvelope } from '../../runtime/envelope/index.js';
import {
  ListTasksParams,
  RpcMethod,
  decodeSendMessage,
  encodeListTasksV1,
  encodeSendResultV1,
  encodeTaskV03,
  encodeTaskV1,
  parseParams,
  readCancelTaskParams,
  readGetTaskParams,
  readSubscribeToTaskParams,
  type StandardDialect,
  type Task,
  type TaskPage,
  type TaskView,
} from '../../runtime/protocol/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { AgentRecord, Principal } from '../../infra/db/index.js';
import type { TaskService } from '../../actors/index.js';
import type { TaskLister } from '../../actors/index.js';
import {
  parseLastEventId,
  taskStream,
  v03StreamCodec,
  v1StreamCodec,
  type TaskStreamCodec,
} from '../sse/index.js';
import type { StreamingResult } from '../rpc/streaming.js';
import type { PushConfigs } from '../push/index.js';

export interface StandardMethodDeps {
  readonly tasks: Pick<TaskService, 'send' | 'getForCaller' | 'cancel' | 'subscribe'>;
  readonly lister: TaskLister;
  readonly log: Logger;
  /** Push notification configs (issue 27). */
  readonly push: PushConfigs;
  /** GetExtendedAgentCard: the path agent's extended card in the dialect, or -32007. */
  readonly extendedCard: (agent: AgentRecord, dialect: StandardDialect) => unknown;
}

/** One authenticated call on /agents/:agentId/a2a. */
export interface StandardCall {
  readonly principal: Principal;
  /** The path's agent, resolved (canonical id or alias) for the caller's tenant. */
  readonly agent: AgentRecord;
  readonly dialect: StandardDialect;
  readonly requestId: string;
  /** The Last-Event-ID request header (SubscribeToTask resumes after it). */
  readonly lastEventId: string | undefined;
}

interface DialectCodec {
  sendResult(task: Task, view: TaskView): unknown;
  task(task: Task, view: TaskView): unknown;
  list(tasks: readonly Task[], page: TaskPage, view: TaskView): unknown;
  readonly stream: TaskStreamCodec;
}

const CODECS: Readonly<Record<StandardDialect, DialectCodec>> = {
  v1: {
    sendResult: encodeSendResultV1,
    task: encodeTaskV1,
    list: encodeListTasksV1,
    stream: v1StreamCodec,
  },
  'v0.3': {
    // v0.3 message/send answers with the bare Task.
    sendResult: encodeTaskV03,
    task: encodeTaskV03,
    // v0.3 has no tasks/list; the v1.0 page fields around v0.3 tasks serve clients that send it.
    list: (tasks, page, view) => ({ tasks: tasks.map((t) => encodeTaskV03(t, view)), ...page }),
    stream: v03StreamCodec,
  },
};

/** Runs one standard method; a result, or a StreamingResult for the two streaming methods. */
export async function callStandard(
  method: RpcMethod,
  params: unknown,
  c: StandardCall,
  d: StandardMethodDeps
): Promise<unknown> {
  const codec = CODECS[c.dialect];
  switch (method) {
    case RpcMethod.SendMessage: {
      const req = sendRequest(params, c);
      // Checked before the send: a bad push config changes nothing.
      const pushFor = d.push.readFromSend(params);
      if (req.taskId !== undefined) await ownTask(c, d, req.taskId);
      const task = await d.tasks.send(c.principal, req);
      if (pushFor) await d.push.storeFromSend(c.principal, pushFor(task), c.dialect);
      return codec.sendResult(task, viewOf(req.historyLength));
    }
    case RpcMethod.SendStreamingMessage:
      return sendStreaming(params, c, d, codec);
    case RpcMethod.GetTask: {
      const p = readGetTaskParams(params);
      return codec.task(await ownTask(c, d, p.id), viewOf(p.historyLength));
    }
    case RpcMethod.CancelTask: {
      const p = readCancelTaskParams(params);
      // The path check first: a task of another agent must not even be canceled here.
      await ownTask(c, d, p.id);
      return codec.task(await d.tasks.cancel(c.principal, p.id), {});
    }
    case RpcMethod.ListTasks:
      return listTasks(params, c, d, codec);
    case RpcMethod.SubscribeToTask: {
      const { id } = readSubscribeToTaskParams(params);
      const after = parseLastEventId(c.lastEventId);
      // Checked before the stream starts, so a stranger gets a plain -32001 response.
      await ownTask(c, d, id);
      return taskStream({
        feed: d.tasks,
        principal: c.principal,
        taskId: id,
        codec: codec.stream,
        requestId: c.requestId,
        log: d.log,
        ...(after !== undefined ? { after } : {}),
      });
    }
    case RpcMethod.CreateTaskPushNotificationConfig:
    case RpcMethod.GetTaskPushNotificationConfig:
    case RpcMethod.ListTaskPushNotificationConfigs:
    case RpcMethod.DeleteTaskPushNotificationConfig:
      return d.push.call(method, params ?? {}, c.principal, c.dialect, (_p, taskId) =>
        ownTask(c, d, taskId)
      );
    case RpcMethod.GetExtendedAgentCard:
      return d.extendedCard(c.agent, c.dialect);
    case RpcMethod.TaskRespond:
      // Hub only (decisions.md §3): an HTTP agent finishes its tasks on POST /a2a.
      throw new MethodNotFoundError(method);
    default: {
      const never: never = method;
      throw new MethodNotFoundError(String(never));
    }
  }
}

/** The SendMessage request with the path's agent as the target, whatever configuration says. */
function sendRequest(params: unknown, c: StandardCall) {
  const req = decodeSendMessage(stripCallerEnvelope(params ?? {}), c.dialect);
  return { ...req, agentId: c.agent.id };
}

async function sendStreaming(
  params: unknown,
  c: StandardCall,
  d: StandardMethodDeps,
  codec: DialectCodec
): Promise<StreamingResult> {
  // Streaming never blocks: the stream is how the caller waits.
  const req = { ...sendRequest(params, c), blocking: false };
  const pushFor = d.push.readFromSend(params);
  if (req.taskId !== undefined) await ownTask(c, d, req.taskId);
  const first = await d.tasks.send(c.principal, req);
  if (pushFor) await d.push.storeFromSend(c.principal, pushFor(first), c.dialect);
  return taskStream({
    feed: d.tasks,
    principal: c.principal,
    taskId: first.id,
    codec: codec.stream,
    requestId: c.requestId,
    log: d.log,
    first,
    view: viewOf(req.historyLength),
  });
}

async function listTasks(
  params: unknown,
  c: StandardCall,
  d: StandardMethodDeps,
  codec: DialectCodec
): Promise<unknown> {
  const p = parseParams(ListTasksParams, params);
  const { tasks, page } = await d.lister.list(c.principal, p);
  // The caller's tasks with this path's agent. The page token still follows the unfiltered list,
  // so paging stays correct; a page may come back shorter than pageSize.
  const mine = isPathAgent(c) ? tasks : tasks.filter((t) => involves(t, c.agent.id));
  const view: TaskView = {
    ...(p.historyLength !== undefined ? { historyLength: p.historyLength } : {}),
    ...(p.includeArtifacts !== undefined ? { includeArtifacts: p.includeArtifacts } : {}),
  };
  return codec.list(mine, { ...page, pageSize: mine.length }, view);
}

/** The task, if the caller may see it and this path's agent is one of its two parties. */
async function ownTask(c: StandardCall, d: StandardMethodDeps, taskId: string): Promise<Task> {
  const task = await d.tasks.getForCaller(c.principal, taskId);
  if (!involves(task, c.agent.id)) {
    // Same answer as a task that does not exist (decisions.md §8).
    throw new HubError('TASK_NOT_FOUND', `no task ${taskId}`, { data: { taskId } });
  }
  return task;
}

function involves(task: Task, agentId: string): boolean {
  return task.senderId === agentId || task.recipientId === agentId;
}

function isPathAgent(c: StandardCall): boolean {
  return c.principal.kind === 'agent' && c.principal.agentId === c.agent.id;
}

function viewOf(historyLength: number | undefined): TaskView {
  return historyLength === undefined ? {} : { historyLength };
}
