// The three ways a message reaches its recipient (spec "What the service does" 2, decisions.md
// §2–§3): a `message` frame to its WebSocket (the reply comes later as task_response), a JSON-RPC
// POST to an HTTP agent (the answer is the reply), or a request to an official agent's pool on the
// bus. Each returns what happened; the task service turns that into task events.
import { randomUUID } from 'node:crypto';
import { RequestError, TimeoutError } from '@nats-io/nats-core';
import { z } from 'zod';
import { decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';
import {
  allowableKind,
  OutboundRefusedError,
  outboundRequest,
  type OutboundGuard,
  type OutboundResponse,
} from '../../runtime/net/index.js';
import {
  ArtifactInput,
  PartInput,
  encodeMessageV1,
  type AgentAnswer,
  type InvokeReply,
  type InvokeRequest,
  type Message,
  type RespondState,
  type Task,
} from '../../runtime/protocol/index.js';
import type { AgentRecord } from './directory.js';
import type { FrameRouter } from './frames.js';

/** The reply an agent gave in one go (HTTP and official agents). */
export type { AgentAnswer };

export type DeliveryOutcome =
  | { kind: 'pushed' }
  | { kind: 'answered'; answer: AgentAnswer }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'busy' };

export interface Delivery {
  task: Task;
  /** The message being delivered (the first one, or a continuation). */
  message: Message;
  recipient: AgentRecord;
  /** The signed x-hub envelope for this delivery. */
  envelope: unknown;
  configuration: Record<string, unknown>;
}

export const NO_ENDPOINT =
  'no WebSocket connection or HTTP endpoint is available for the recipient';

/**
 * The `message` frame (decisions.md §2). The sender's message metadata rides both in `payload` and
 * in the frame's `metadata` (where the hub clients read it, §11), beside the hub's own `x-hub`,
 * which no sender can overwrite.
 */
export function messageFrame(d: Delivery) {
  const { role, parts, messageId, metadata } = d.message;
  return {
    type: 'message',
    from: d.task.senderId,
    taskId: d.task.id,
    contextId: d.task.contextId,
    payload: { role, parts, messageId, ...(metadata !== undefined ? { metadata } : {}) },
    timestamp: Date.now(),
    configuration: d.configuration,
    metadata: { ...metadata, 'x-hub': d.envelope },
  };
}

export async function deliverWebSocket(frames: FrameRouter, d: Delivery): Promise<DeliveryOutcome> {
  // Keyed by the message: a socket already given it (by a push that outlived its timeout, or by
  // a stale owner woken from a pause) is not given it twice.
  const outcome = await frames.push(d.recipient.id, messageFrame(d), {
    taskId: d.task.id,
    messageId: d.message.messageId,
  });
  if (outcome === 'sent') return { kind: 'pushed' };
  if (outcome === 'busy') return { kind: 'busy' };
  return { kind: 'unreachable', reason: NO_ENDPOINT };
}

export async function deliverOfficial(
  bus: Bus,
  d: Delivery,
  timeoutMs: number
): Promise<DeliveryOutcome> {
  const req: InvokeRequest = {
    taskId: d.task.id,
    contextId: d.task.contextId,
    message: d.message,
    configuration: d.configuration,
    'x-hub': d.envelope,
    at: Date.now(),
  };
  try {
    const msg = await bus.nc.request(subjects.agentInvoke(d.recipient.id), encodeJson(req), {
      timeout: timeoutMs,
    });
    const reply = decodeJson<InvokeReply>(msg.data);
    return reply.ok
      ? { kind: 'answered', answer: reply.answer }
      : { kind: 'answered', answer: { state: 'failed', statusText: reply.error, artifacts: [] } };
  } catch (err) {
    if (err instanceof RequestError && err.isNoResponders()) {
      return { kind: 'unreachable', reason: `official agent ${d.recipient.id} is not running` };
    }
    if (err instanceof TimeoutError) {
      return {
        kind: 'answered',
        answer: { state: 'failed', statusText: 'agent timed out', artifacts: [] },
      };
    }
    throw err;
  }
}

// ---- HTTP agents ------------------------------------------------------------------------------

/** Does the agent's card declare an A2A 1.0 JSON-RPC interface? Then it is called in standard v1.0. */
export function speaksA2aV1(card: unknown): boolean {
  const ifaces = (card as { supportedInterfaces?: unknown })?.supportedInterfaces;
  return (
    Array.isArray(ifaces) &&
    ifaces.some(
      (i: { protocolBinding?: unknown; protocolVersion?: unknown }) =>
        (i?.protocolBinding === undefined || i.protocolBinding === 'JSONRPC') &&
        typeof i?.protocolVersion === 'string' &&
        i.protocolVersion.startsWith('1.')
    )
  );
}

const State = z.string().transform((s, ctx) => {
  const n = s
    .toLowerCase()
    .replace(/^task_state_/, '')
    .replace(/_/g, '-');
  const map: Record<string, RespondState> = {
    completed: 'completed',
    failed: 'failed',
    rejected: 'rejected',
    'input-required': 'input-required',
    working: 'working',
    submitted: 'working',
    canceled: 'failed',
    'auth-required': 'input-required',
  };
  const state = map[n];
  if (!state) {
    ctx.addIssue({ code: 'custom', message: `unknown task state ${s}` });
    return z.NEVER;
  }
  return state;
});

const AnswerMessage = z.object({ role: z.string().optional(), parts: z.array(PartInput) });
const AnswerTask = z.object({
  id: z.string().optional(),
  status: z
    .object({ state: State, message: z.union([z.string(), AnswerMessage]).optional() })
    .optional(),
  artifacts: z.array(ArtifactInput).optional(),
  messages: z.array(AnswerMessage).optional(),
  history: z.array(AnswerMessage).optional(),
});

function textParts(parts: Array<{ kind: string; text?: string }>): string {
  return parts
    .filter((p) => p.kind === 'text')
    .map((p) => p.text)
    .join(' ');
}

/** An HTTP agent's JSON-RPC `result` in any accepted shape → one answer. */
export function parseAnswer(result: unknown): AgentAnswer {
  if (typeof result === 'string') {
    return {
      state: 'completed',
      artifacts: [{ artifactId: `art-${randomUUID()}`, parts: [{ kind: 'text', text: result }] }],
    };
  }
  const r = result as { task?: unknown; message?: unknown };
  if (r && typeof r === 'object' && 'message' in r && !('status' in r) && !('task' in r)) {
    const m = AnswerMessage.parse(r.message);
    return {
      state: 'completed',
      message: { role: 'agent', parts: m.parts, messageId: `msg-${randomUUID()}` },
      artifacts: [],
    };
  }
  const t = AnswerTask.parse(r && typeof r === 'object' && 'task' in r ? r.task : r);
  const agentMessages = (t.messages ?? t.history ?? []).filter(
    (m) => m.role === undefined || /agent/i.test(m.role)
  );
  const last = agentMessages.at(-1);
  const statusMsg = t.status?.message;
  const statusText =
    typeof statusMsg === 'string' ? statusMsg : statusMsg ? textParts(statusMsg.parts) : undefined;
  return {
    state: t.status?.state ?? 'completed',
    ...(last
      ? { message: { role: 'agent', parts: last.parts, messageId: `msg-${randomUUID()}` } }
      : {}),
    ...(statusText ? { statusText } : {}),
    ...(t.id !== undefined ? { remoteTaskId: t.id } : {}),
    artifacts: t.artifacts ?? [],
  };
}

/** JSON-RPC "method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * HTTP agents that answered -32601 to `SendMessage` and took `message/send` (decisions.md §11),
 * so their later deliveries go straight to `message/send`. Kept per node, in memory: another node
 * (or this one after a restart) learns it again at the cost of one extra -32601. An entry holds for
 * the agent's record as it was (URL and update time): a new card, a new URL, any change of the
 * record asks `SendMessage` first again.
 */
export class MessageSendAgents {
  private readonly known = new Map<string, string>();

  has(agent: AgentRecord): boolean {
    return this.known.get(agent.id) === recordVersion(agent);
  }

  remember(agent: AgentRecord): void {
    this.known.set(agent.id, recordVersion(agent));
  }

  forget(agent: AgentRecord): void {
    this.known.delete(agent.id);
  }
}

function recordVersion(agent: AgentRecord): string {
  return `${agent.updatedAt.getTime()} ${agent.url ?? ''}`;
}

export interface HttpCallOptions {
  timeoutMs: number;
  /** OUTBOUND_ALLOW_PRIVATE's guard: the agent's URL must resolve to addresses it accepts. */
  guard: OutboundGuard;
  /** Agents known to take only `message/send`. */
  messageSend?: MessageSendAgents;
}

/**
 * POST the message to the agent's URL; connection failures, 5xx and time-outs are "unreachable".
 * A URL the outbound guard refuses fails the task at once: retrying cannot make it public.
 */
export async function deliverHttp(d: Delivery, opts: HttpCallOptions): Promise<DeliveryOutcome> {
  const url = d.recipient.url;
  if (!url) return { kind: 'unreachable', reason: NO_ENDPOINT };
  const v1 = speaksA2aV1(d.recipient.card);
  const params = v1
    ? {
        // A standard server owns its task ids: the hub's id would name a task it never saw ("task
        // not found"). A continuation carries the server's own id from its earlier reply.
        message: encodeMessageV1(
          withTaskId({ ...d.message, contextId: d.task.contextId }, d.task.remoteTaskId)
        ),
        configuration: { ...pickV1Config(d.configuration), returnImmediately: false },
        metadata: { 'x-hub': d.envelope },
      }
    : {
        message: { ...d.message, contextId: d.task.contextId, taskId: d.task.id },
        configuration: {
          contextId: d.task.contextId,
          taskId: d.task.id,
          ...d.configuration,
        },
        'x-hub': d.envelope,
      };
  // A v1 agent is called as its card declares; an agent of the hub dialect that answers -32601 to
  // SendMessage gets the same params as `message/send`, the v0.3 name (decisions.md §11).
  const memory = v1 ? undefined : opts.messageSend;
  const [firstMethod, thenMethod] = memory?.has(d.recipient)
    ? (['message/send', 'SendMessage'] as const)
    : (['SendMessage', 'message/send'] as const);
  const first = await postHttp(d, url, firstMethod, params, opts);
  if (first.kind !== 'method-not-found' || !memory) return outcomeOf(first);
  // Neither attempt counts as a failure: only the answer to the other name decides.
  const second = await postHttp(d, url, thenMethod, params, opts);
  if (second.kind === 'answered') {
    if (thenMethod === 'message/send') memory.remember(d.recipient);
    else memory.forget(d.recipient);
  }
  return outcomeOf(second);
}

type HttpCallResult = DeliveryOutcome | { kind: 'method-not-found'; message: string };

function outcomeOf(r: HttpCallResult): DeliveryOutcome {
  return r.kind === 'method-not-found' ? failed(r.message) : r;
}

async function postHttp(
  d: Delivery,
  url: string,
  method: 'SendMessage' | 'message/send',
  params: unknown,
  opts: HttpCallOptions
): Promise<HttpCallResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'a2a-version': method === 'SendMessage' ? '1.0' : '0.3',
  };
  if (d.recipient.webhookSecret) headers.authorization = `Bearer ${d.recipient.webhookSecret}`;
  let res: OutboundResponse;
  try {
    res = await outboundRequest(opts.guard, new URL(url), {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
      timeoutMs: opts.timeoutMs,
    });
  } catch (err) {
    if (err instanceof OutboundRefusedError) return failed(agentUrlRefused(err));
    const reason = (err as Error).name === 'TimeoutError' ? 'agent timed out' : 'agent unreachable';
    return { kind: 'unreachable', reason: `${reason}: ${url}` };
  }
  if (res.status >= 500)
    return { kind: 'unreachable', reason: `agent answered HTTP ${res.status}` };
  let body: { result?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    body = JSON.parse(res.body.toString('utf8')) as typeof body;
  } catch {
    return failed(`agent answered HTTP ${res.status} with a body that is not JSON`);
  }
  if (body?.error) {
    const m = body.error.message;
    const message = typeof m === 'string' ? m : 'agent returned an error';
    return body.error.code === METHOD_NOT_FOUND
      ? { kind: 'method-not-found', message }
      : failed(message);
  }
  if (res.status < 200 || res.status > 299) return failed(`agent answered HTTP ${res.status}`);
  try {
    return { kind: 'answered', answer: parseAnswer(body.result) };
  } catch {
    return failed('agent returned a result that is neither a task nor a string');
  }
}

/** The task's failure reason when the guard refuses the agent's URL. */
export function agentUrlRefused(err: OutboundRefusedError): string {
  const what = allowableKind(err.why.kind) ? 'private' : 'forbidden';
  return `agent URL resolves to a ${what} address: ${err.message}`;
}

function withTaskId(m: Message, taskId: string | undefined): Message {
  const { taskId: _hubs, ...rest } = m;
  return taskId === undefined ? rest : { ...rest, taskId };
}

function failed(statusText: string): DeliveryOutcome {
  return { kind: 'answered', answer: { state: 'failed', statusText, artifacts: [] } };
}

function pickV1Config(c: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  if (c.acceptedOutputModes !== undefined) out.acceptedOutputModes = c.acceptedOutputModes;
  if (c.historyLength !== undefined) out.historyLength = c.historyLength;
  return out;
}

/** Best effort: tell an HTTP agent its task was canceled (decisions.md §8). */
export async function cancelAtHttpAgent(
  recipient: AgentRecord,
  taskId: string,
  guard: OutboundGuard,
  messageSend?: MessageSendAgents
): Promise<void> {
  if (!recipient.url) return;
  const v03 = messageSend?.has(recipient) === true;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'a2a-version': v03 ? '0.3' : '1.0',
  };
  if (recipient.webhookSecret) headers.authorization = `Bearer ${recipient.webhookSecret}`;
  await outboundRequest(guard, new URL(recipient.url), {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: randomUUID(),
      method: v03 ? 'tasks/cancel' : 'CancelTask',
      params: { id: taskId },
    }),
    timeoutMs: 5000,
  }).catch(() => undefined);
}
