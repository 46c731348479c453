// Streaming on the hub endpoint POST /a2a (decisions.md §1, hub dialect): SendStreamingMessage
// (message/stream) and SubscribeToTask (tasks/resubscribe) answer with SSE; the event shapes are
// hubStreamCodec's. Failures before the stream starts are ordinary JSON-RPC error responses.
import { stripCallerEnvelope } from '../../runtime/envelope/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { decodeSendMessage, readSubscribeToTaskParams } from '../../runtime/protocol/index.js';
import type { Authenticator } from '../auth/index.js';
import type { RpcContext, RpcHandler } from '../deps.js';
import type { TaskService } from '../../actors/index.js';
import { hubStreamCodec } from './stream-codecs.js';
import { parseLastEventId, taskStream } from './task-stream.js';

export interface HubStreamDeps {
  readonly tasks: Pick<TaskService, 'send' | 'subscribe' | 'getForCaller'>;
  readonly auth: Authenticator;
  readonly log: Logger;
}

/** Handlers to merge into the POST /a2a table, under both method-name families. */
export function hubStreamHandlers(d: HubStreamDeps): Map<string, RpcHandler> {
  const send: RpcHandler = async (params, ctx) => {
    const principal = await d.auth.authenticate(ctx.headers.authorization, ctx.scope);
    // Streaming never blocks: the stream is how the caller waits.
    const req = { ...decodeSendMessage(stripCallerEnvelope(params ?? {}), 'hub'), blocking: false };
    const first = await d.tasks.send(principal, req);
    return taskStream({
      ...common(d, ctx),
      principal,
      taskId: first.id,
      first,
      ...(req.historyLength !== undefined ? { view: { historyLength: req.historyLength } } : {}),
    });
  };

  const subscribe: RpcHandler = async (params, ctx) => {
    const principal = await d.auth.authenticate(ctx.headers.authorization, ctx.scope);
    const { id } = readSubscribeToTaskParams(params);
    const after = parseLastEventId(ctx.headers['last-event-id']);
    // Checked here so that a stranger gets a plain -32001 response, not a stream.
    await d.tasks.getForCaller(principal, id);
    return taskStream({
      ...common(d, ctx),
      principal,
      taskId: id,
      ...(after !== undefined ? { after } : {}),
    });
  };

  return new Map([
    ['SendStreamingMessage', send],
    ['message/stream', send],
    ['SubscribeToTask', subscribe],
    ['tasks/resubscribe', subscribe],
  ]);
}

function common(d: HubStreamDeps, ctx: RpcContext) {
  return { feed: d.tasks, codec: hubStreamCodec, requestId: ctx.requestId, log: d.log };
}
