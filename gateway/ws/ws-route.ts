// The agent WebSocket at /ws (decisions.md §2): Bearer auth on the upgrade, or a first
// `{"type":"auth","token"}` frame within 5 s; `welcome` first; then message/task_update frames
// from the hub, task_response/received/ping/update_card/JSON-RPC frames from the agent.
import { VERIFIED_SIGNATURES_FIELD } from '../a2a/card-signatures.js';
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, us_socket_context_t, WebSocket } from 'uWebSockets.js';
import { z } from 'zod';
import { HubError, ensureHubError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import {
  AgentCardInput,
  parseParams,
  readTaskRespondParams,
} from '../../runtime/protocol/index.js';
import {
  hashApiKey,
  updateAgentCard,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';
import { bearerToken, type Authenticator } from '../auth/index.js';
import { RequestScope } from '../http/index.js';
import { nestsDeeperThan, tooDeepError, tooDeepPath } from '../http/json-depth.js';
import type { RouteRegistrar } from '../routes/index.js';
import { toRpcError } from '../rpc/index.js';
import { invoke, lookupMethod, type HubMethod } from '../a2a/hub-methods.js';
import type { AgentDirectory } from '../../actors/index.js';
import type { ConnectionRegistry } from '../../actors/index.js';
import type { Presence } from '../../actors/index.js';
import type { TaskService } from '../../actors/index.js';
import {
  UwsAgentConnection,
  type BackpressureLimits,
  type SocketData,
} from './agent-connection.js';
import type { SocketRevoker } from './socket-revoker.js';
import { frameLimit } from './frame-limit.js';
import { wsRouteDoc } from './route-doc.js';

export interface WsDeps {
  auth: Authenticator;
  tasks: TaskService;
  methods: ReadonlyMap<string, HubMethod>;
  conns: ConnectionRegistry;
  presence: Presence;
  directory: AgentDirectory;
  sql: Queryable;
  log: Logger;
  limits?: Partial<BackpressureLimits>;
  /** Closes sockets whose key is revoked; also told about sockets admitted during a revocation. */
  revoker?: SocketRevoker;
  /** Called after `welcome` (the offline queue drains from here). */
  onOnline?: (agentId: string) => void;
  authTimeoutMs?: number;
  /** Checks the signatures of a card an agent sends (update_card) and records the outcome. */
  verifyCard?: (card: unknown) => Promise<unknown>;
}

/** The update_card frame: errors name the card's fields as `agentCard.<field>`. */
const UpdateCardFrame = z.object({ agentCard: AgentCardInput });

/**
 * The `id` a client put on a custom frame, echoed on the answer, so a client that waits on that id
 * sees its error instead of waiting for ever (decisions.md §11).
 */
function echoId(frame: Record<string, unknown>): { id?: string | number } {
  const id = frame.id;
  return typeof id === 'string' || typeof id === 'number' ? { id } : {};
}

/** An `error` frame for a refused custom frame, naming the bad field when there is one. */
function errorFrame(e: HubError): Record<string, unknown> {
  const field = (e.data as { field?: unknown } | undefined)?.field;
  return {
    type: 'error',
    error: e.code,
    message: e.code === 'INTERNAL' ? 'Internal error' : e.message,
    ...(typeof field === 'string' ? { field } : {}),
  };
}

const DEFAULT_LIMITS: BackpressureLimits = { highWaterBytes: 256 * 1024, outboxFrames: 1000 };
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_REPLACED = 4409;

export function wsRoutes(d: WsDeps): RouteRegistrar {
  const limits = { ...DEFAULT_LIMITS, ...d.limits };
  const send = (ws: WebSocket<SocketData>, frame: unknown) => {
    if (!ws.getUserData().closed) ws.send(JSON.stringify(frame), false);
  };

  const admit = (
    ws: WebSocket<SocketData>,
    principal: { agentId: string; tenantId: string },
    keyHash: string
  ): UwsAgentConnection => {
    const data = ws.getUserData();
    const conn = new UwsAgentConnection(
      ws,
      data.connId,
      principal.agentId,
      principal.tenantId,
      keyHash,
      limits
    );
    data.conn = conn;
    const replaced = d.conns.add(conn);
    replaced?.close(CLOSE_REPLACED, 'replaced by a newer connection');
    send(ws, { type: 'welcome', agentId: principal.agentId });
    d.presence.connected(principal.agentId, data.connId).then(
      () => d.onOnline?.(principal.agentId),
      (err: unknown) =>
        d.log.warn({ err, agentId: principal.agentId }, 'presence update failed; retrying')
    );
    return conn;
  };

  const refuse = (ws: WebSocket<SocketData>, error: string) => {
    send(ws, { type: 'auth_error', error });
    const data = ws.getUserData();
    if (!data.closed) {
      data.closed = true;
      ws.end(CLOSE_UNAUTHORIZED, 'unauthorized');
    }
  };

  const asAgent = (p: Principal) => {
    if (p.kind !== 'agent')
      throw new HubError('UNAUTHENTICATED', 'a WebSocket needs an agent key, not an admin key');
    return p;
  };

  /** Authenticates the socket by its key (header or `auth` frame), then welcomes or refuses it. */
  const login = async (ws: WebSocket<SocketData>, header: string): Promise<void> => {
    const data = ws.getUserData();
    const mark = d.revoker?.mark();
    try {
      // In a scope carrying the peer's address: wrong keys count as failed logins.
      const p = asAgent(await d.auth.authenticate(header, new RequestScope(data.client)));
      clearTimeout(data.authTimer);
      if (data.closed) return;
      const conn = admit(ws, p, hashApiKey(bearerToken(header) ?? ''));
      if (mark !== undefined) d.revoker?.checkedSince(mark, conn);
    } catch (err) {
      refuse(ws, ensureHubError(err).message);
    } finally {
      data.authenticating = undefined;
    }
  };

  const onFrame = async (ws: WebSocket<SocketData>, text: string): Promise<void> => {
    const data = ws.getUserData();
    // Frames sent right after connecting wait for the key check, in the order they came.
    if (data.authenticating) await data.authenticating;
    if (data.closed) return;
    let frame: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('not an object');
      frame = parsed as Record<string, unknown>;
    } catch {
      send(ws, { type: 'error', error: 'PARSE_ERROR', message: 'frames are JSON objects' });
      return;
    }
    // What handles a frame recurses; see gateway/http/json-depth.ts.
    if (nestsDeeperThan(frame)) {
      const message = tooDeepError(tooDeepPath(frame) ?? []).message;
      send(ws, { type: 'error', error: 'INVALID_PARAMS', message, ...echoId(frame) });
      return;
    }
    const conn = data.conn;
    if (!conn) {
      if (frame.type !== 'auth' || typeof frame.token !== 'string') {
        refuse(
          ws,
          'authenticate first: {"type":"auth","token":"<API_KEY>"} or an Authorization header'
        );
        return;
      }
      data.authenticating = login(ws, `Bearer ${frame.token}`);
      return;
    }
    const principal: Principal = { kind: 'agent', agentId: conn.agentId, tenantId: conn.tenantId };
    if ('jsonrpc' in frame) {
      const id = typeof frame.id === 'string' || typeof frame.id === 'number' ? frame.id : null;
      // A well-formed request without an `id` is a notification: run, never answered (JSON-RPC 2.0 §4.1).
      const notification =
        !('id' in frame) && frame.jsonrpc === '2.0' && typeof frame.method === 'string';
      const requestId = randomUUID();
      try {
        if (typeof frame.method !== 'string')
          throw new HubError('INVALID_REQUEST', 'method must be a string');
        const m = lookupMethod(d.methods, frame.method);
        const result = await invoke(m, frame.params, { principal, requestId });
        if (!notification) send(ws, { jsonrpc: '2.0', id, result });
      } catch (err) {
        const error = toRpcError(err, requestId, d.log);
        if (!notification) send(ws, { jsonrpc: '2.0', id, error });
      }
      return;
    }
    switch (frame.type) {
      case 'ping':
        send(ws, { type: 'pong' });
        return;
      case 'task_response': {
        const taskId = typeof frame.taskId === 'string' ? frame.taskId : undefined;
        try {
          await d.tasks.respond(principal, readTaskRespondParams(frame));
          if (taskId) d.tasks.settledOnSocket(conn, taskId);
        } catch (err) {
          const e = ensureHubError(err);
          if (e.code === 'INTERNAL') d.log.error({ err, taskId }, 'task_response failed');
          send(ws, {
            ...errorFrame(e),
            ...(taskId ? { taskId } : {}),
            ...echoId(frame),
          });
        }
        return;
      }
      case 'received': {
        // Optional (issue 30): the agent has the message frame of this task. Never answered.
        if (typeof frame.taskId !== 'string' || frame.taskId === '') {
          send(ws, {
            type: 'error',
            error: 'INVALID_PARAMS',
            message: 'taskId: required (the task of the message received)',
            field: 'taskId',
            ...echoId(frame),
          });
          return;
        }
        try {
          d.tasks.received(principal, frame.taskId);
          d.tasks.settledOnSocket(conn, frame.taskId);
        } catch {
          // Not a task id of this hub: nothing was pushed, nothing to record.
        }
        return;
      }
      case 'update_card': {
        try {
          const parsed = parseParams(UpdateCardFrame, frame).agentCard;
          // Signatures cover the card as the agent sent it, before defaults are filled in.
          const checked = d.verifyCard
            ? ((await d.verifyCard(frame.agentCard)) as Record<string, unknown>)
            : undefined;
          const verified = checked?.[VERIFIED_SIGNATURES_FIELD];
          const agentCard =
            verified !== undefined ? { ...parsed, [VERIFIED_SIGNATURES_FIELD]: verified } : parsed;
          await updateAgentCard(d.sql, conn.agentId, agentCard);
          d.directory.announce(conn.agentId);
          send(ws, { type: 'card_updated', agentCard, ...echoId(frame) });
        } catch (err) {
          const e = ensureHubError(err);
          if (e.code === 'INTERNAL') d.log.error({ err }, 'update_card failed');
          send(ws, { ...errorFrame(e), ...echoId(frame) });
        }
        return;
      }
      case 'auth':
        return; // already authenticated
      default:
        send(ws, {
          type: 'error',
          error: 'INVALID_REQUEST',
          message: `unknown frame type ${JSON.stringify(frame.type)}`,
          field: 'type',
          ...echoId(frame),
        });
    }
  };

  return (table, gateway) => {
    const frames = frameLimit({
      bodyLimitBytes: gateway.config.bodyLimitBytes,
      ...(gateway.largeRequests ? { large: gateway.largeRequests } : {}),
    });
    table.describe({ method: 'GET', pattern: '/ws', doc: wsRouteDoc });
    table.app.ws<SocketData>('/ws', {
      maxPayloadLength: frames.maxPayloadLength,
      idleTimeout: 120,
      // Backpressure is handled by UwsAgentConnection; never let uWS drop or close on it.
      maxBackpressure: 64 * 1024 * 1024,
      closeOnBackpressureLimit: 0,
      sendPingsAutomatically: true,
      upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
        // Upgrade at once, in the handler uWS corks for us, and check the key in open(). Finishing
        // the upgrade after an await (res.cork(() => res.upgrade(…))) hits a uWS bug (fixed
        // upstream in uWebSockets PR #1929): when the socket's memory is resized in place, cork()
        // reads the new WebSocket as HTTP response state and may shut it down right after open,
        // without a close frame (1006) — up to 5 header-authenticated connects in 6.
        const authorization = req.getHeader('authorization');
        const data: SocketData = {
          connId: randomUUID(),
          client: Buffer.from(res.getRemoteAddressAsText()).toString(),
          closed: false,
          ...(authorization ? { authorization } : {}),
        };
        res.upgrade(
          data,
          req.getHeader('sec-websocket-key'),
          req.getHeader('sec-websocket-protocol'),
          req.getHeader('sec-websocket-extensions'),
          context
        );
      },
      open: (ws) => {
        const data = ws.getUserData();
        const header = data.authorization;
        if (header !== undefined) {
          data.authorization = undefined;
          data.authenticating = login(ws, header);
          return;
        }
        data.authTimer = setTimeout(() => {
          if (!data.conn && !data.authenticating) refuse(ws, 'no auth frame within 5 seconds');
        }, d.authTimeoutMs ?? 5000);
      },
      message: (ws, message) => {
        // uWS reuses the buffer after this callback returns: everything is read now.
        const bytes = Buffer.from(message);
        const conn = ws.getUserData().conn;
        const refusal = frames.refusal(bytes, conn !== undefined);
        if (refusal !== undefined) {
          send(ws, refusal.answer);
          // An over-limit reply can never be stored: its task fails rather than wait for ever.
          if (conn && refusal.reply) {
            const { taskId, reason } = refusal.reply;
            const principal: Principal = {
              kind: 'agent',
              agentId: conn.agentId,
              tenantId: conn.tenantId,
            };
            d.tasks
              .replyRefused(principal, taskId, reason)
              .catch((err: unknown) =>
                d.log.debug({ err }, 'refused reply left its task as it was')
              );
          }
          return;
        }
        const text = bytes.toString('utf8');
        void onFrame(ws, text).catch((err: unknown) =>
          d.log.error({ err }, 'frame handling failed')
        );
      },
      drain: (ws) => ws.getUserData().conn?.flush(),
      close: (ws, code, message) => {
        const data = ws.getUserData();
        d.log.debug(
          {
            code,
            // uWS's own reason when it drops a socket, e.g. "Received too big message".
            reason: Buffer.from(message).toString(),
            agentId: data.conn?.agentId,
            connId: data.connId,
          },
          'agent socket closed'
        );
        data.closed = true;
        clearTimeout(data.authTimer);
        const conn = data.conn;
        if (!conn) return;
        conn.closed = true;
        if (d.conns.remove(conn)) {
          void d.presence.disconnected(conn.agentId, conn.connId);
        }
        if (!d.conns.shuttingDown) d.tasks.socketClosed(conn);
      },
    });
  };
}
