// An HTTP (webhook) agent (interface-spec "Endpoints an HTTP (webhook) agent exposes", decisions.md
// §3): the card at /.well-known/agent.json (and agent-card.json), a landing page at GET /, and
// JSON-RPC SendMessage at POST /a2a and POST /. One framework-free `handle`, with adapters for
// node:http and for fetch-style Request/Response servers.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentCard, HubEnvelope, Message } from '../protocol.js';
import { EnvelopeVerifier, type EnvelopeRejection, type HubJwks } from '../envelope/index.js';
import { failedTask, replyTask, textOfParts, type AgentReply } from './handler-result.js';
import { agentLandingPage } from './landing-page.js';

/** What the handler receives for each SendMessage. */
export interface HttpIncomingMessage {
  /** The message's text parts joined by spaces. */
  text: string;
  /** The message as sent. */
  message: Message;
  /** The hub's task for this message (from configuration or the message), or fresh ids. */
  task: { id: string; contextId: string };
  /** A skill id, when the caller named one (params.metadata, message.metadata or configuration). */
  skillId?: string;
  /** The full JSON-RPC params: message, configuration, x-hub, … */
  params: Record<string, unknown>;
  configuration: Record<string, unknown>;
  /** The x-hub envelope: verified when hubUrl, jwks or a verifier was given, as sent otherwise. */
  envelope: HubEnvelope | undefined;
  /** True when `envelope` was verified against the hub's keys. */
  envelopeVerified: boolean;
}

export type HttpAgentEvent =
  | { type: 'unauthorized'; path: string }
  | { type: 'envelope_rejected'; reason: EnvelopeRejection; detail?: string }
  | { type: 'handler_failed'; taskId: string; error: unknown };

export interface HttpAgentOptions {
  /** Served at /.well-known/agent.json and agent-card.json, and on the landing page. */
  card: AgentCard;
  onMessage: (m: HttpIncomingMessage) => AgentReply | Promise<AgentReply>;
  /** The secret the hub sends as `Authorization: Bearer <secret>`; POSTs without it get 401. */
  webhookSecret?: string;
  /** Verify x-hub envelopes against `{hubUrl}/.well-known/hub-keys.json`; refuse what fails. */
  hubUrl?: string;
  /** Verify against these keys (with hubUrl: the keys to start from). */
  jwks?: HubJwks;
  verifier?: EnvelopeVerifier;
  /** Request bodies larger than this are refused with 413; default 16 MiB. */
  maxBodyBytes?: number;
  onEvent?: (e: HttpAgentEvent) => void;
}

/** A request as the handler needs it, whatever server delivered it. */
export interface AgentHttpRequest {
  method: string;
  /** The path, without the query string. */
  path: string;
  authorization?: string | undefined;
  body: string;
}

export interface AgentHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HttpAgentHandler {
  /** For `http.createServer(handler.node)`. */
  node: (req: IncomingMessage, res: ServerResponse) => void;
  /** For fetch-style servers (Deno, Bun, Hono, workers): Request in, Response out. */
  fetch: (request: Request) => Promise<Response>;
  /** The framework-free core both adapters call. */
  handle: (req: AgentHttpRequest) => Promise<AgentHttpResponse>;
}

export const DEFAULT_AGENT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const SEND_METHODS = new Set(['SendMessage', 'message/send']);
/** The card at the root, and under the registered URL's path (`burrow agents create --url …/a2a`). */
const CARD_PATH = /^(\/a2a)?\/\.well-known\/agent(-card)?\.json$/;
const RPC_PATHS = new Set(['/', '/a2a', '/a2a/']);

type RpcId = string | number | null;

export function httpAgentHandler(opts: HttpAgentOptions): HttpAgentHandler {
  const verifier =
    opts.verifier ??
    (opts.hubUrl || opts.jwks
      ? new EnvelopeVerifier({
          ...(opts.hubUrl ? { hubUrl: opts.hubUrl } : {}),
          ...(opts.jwks ? { jwks: opts.jwks } : {}),
        })
      : undefined);
  const maxBody = opts.maxBodyBytes ?? DEFAULT_AGENT_MAX_BODY_BYTES;
  const secret = opts.webhookSecret ? Buffer.from(opts.webhookSecret, 'utf8') : undefined;
  const emit = (e: HttpAgentEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      // A throwing event hook must not change the answer.
    }
  };

  const authorized = (header: string | undefined): boolean => {
    if (!secret) return true;
    const m = /^Bearer (.+)$/.exec(header ?? '');
    if (!m) return false;
    const given = Buffer.from(m[1]!, 'utf8');
    // timingSafeEqual needs equal lengths; the length check leaks only the length.
    return given.length === secret.length && timingSafeEqual(given, secret);
  };

  const handle = async (req: AgentHttpRequest): Promise<AgentHttpResponse> => {
    const method = req.method.toUpperCase();
    if (method === 'GET' || method === 'HEAD') {
      if (isCardPath(req.path)) return json(200, opts.card);
      if (req.path === '/') {
        return {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: agentLandingPage(opts.card),
        };
      }
      return notFound(req.path);
    }
    if (method !== 'POST') {
      return {
        ...json(405, restError('METHOD_NOT_ALLOWED', `${method} is not served`)),
        headers: { 'content-type': 'application/json', allow: 'GET, POST' },
      };
    }
    if (!RPC_PATHS.has(req.path)) return notFound(req.path);
    if (!authorized(req.authorization)) {
      emit({ type: 'unauthorized', path: req.path });
      return json(401, rpcError(null, -32010, 'Unauthenticated: wrong or missing webhook secret'));
    }
    if (Buffer.byteLength(req.body, 'utf8') > maxBody) return tooLarge(maxBody);
    let body: unknown;
    try {
      body = JSON.parse(req.body);
    } catch {
      return json(200, rpcError(null, -32700, 'Parse error'));
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return json(200, rpcError(null, -32600, 'Invalid Request'));
    }
    const rpc = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    const id: RpcId = typeof rpc.id === 'string' || typeof rpc.id === 'number' ? rpc.id : null;
    if (rpc.jsonrpc !== '2.0' || typeof rpc.method !== 'string') {
      return json(200, rpcError(id, -32600, 'Invalid Request'));
    }
    if (!SEND_METHODS.has(rpc.method)) return json(200, rpcError(id, -32601, 'Method not found'));
    return json(200, await sendMessage(id, rpc.params));
  };

  const sendMessage = async (id: RpcId, rawParams: unknown): Promise<unknown> => {
    const params = record(rawParams);
    const message = params.message as Message | undefined;
    if (!message || typeof message !== 'object' || !Array.isArray(message.parts)) {
      return rpcError(id, -32602, 'Invalid params: message.parts must be an array', {
        field: 'message.parts',
      });
    }
    const configuration = record(params.configuration);
    // The hub dialect carries x-hub in params; a standard A2A 1.0 call in params.metadata.
    const rawEnvelope = params['x-hub'] ?? record(params.metadata)['x-hub'];
    let envelope: HubEnvelope | undefined;
    if (verifier) {
      const check = await verifier.verify(rawEnvelope);
      if (!check.ok) {
        emit({
          type: 'envelope_rejected',
          reason: check.reason,
          ...(check.detail ? { detail: check.detail } : {}),
        });
        return rpcError(
          id,
          -32602,
          `Invalid params: envelope verification failed: ${check.reason}`,
          {
            field: 'x-hub',
            reason: check.reason,
          }
        );
      }
      envelope = check.envelope;
    } else if (rawEnvelope && typeof rawEnvelope === 'object') {
      envelope = rawEnvelope as HubEnvelope;
    }
    const ids = {
      id:
        str(configuration.taskId) ??
        str(message.taskId) ??
        envelope?.taskId ??
        `task-${randomUUID()}`,
      contextId:
        str(configuration.contextId) ??
        str(message.contextId) ??
        envelope?.contextId ??
        `ctx-${randomUUID()}`,
    };
    const skillId =
      str(record(params.metadata).skillId) ??
      str(record(message.metadata).skillId) ??
      str(configuration.skillId);
    const incoming: HttpIncomingMessage = {
      text: textOfParts(message.parts),
      message,
      task: ids,
      ...(skillId ? { skillId } : {}),
      params,
      configuration,
      envelope,
      envelopeVerified: verifier !== undefined,
    };
    try {
      const reply = await opts.onMessage(incoming);
      return { jsonrpc: '2.0', id, result: await replyTask(reply, ids) };
    } catch (error) {
      emit({ type: 'handler_failed', taskId: ids.id, error });
      return { jsonrpc: '2.0', id, result: failedTask(error, ids) };
    }
  };

  const node = (req: IncomingMessage, res: ServerResponse): void => {
    const write = (r: AgentHttpResponse) => {
      res.writeHead(r.status, r.headers);
      res.end(req.method === 'HEAD' ? undefined : r.body);
    };
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) {
      write(tooLarge(maxBody));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (c: Buffer) => {
      if (refused) return;
      size += c.length;
      if (size > maxBody) {
        refused = true;
        write(tooLarge(maxBody));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (refused) return;
      const path = new URL(req.url ?? '/', 'http://agent').pathname;
      handle({
        method: req.method ?? 'GET',
        path,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      }).then(write, (err: unknown) => write(json(500, restError('INTERNAL', errorMessage(err)))));
    });
  };

  const fetchHandler = async (request: Request): Promise<Response> => {
    const declared = Number(request.headers.get('content-length') ?? 0);
    const r =
      declared > maxBody
        ? tooLarge(maxBody)
        : await handle({
            method: request.method,
            path: new URL(request.url).pathname,
            authorization: request.headers.get('authorization') ?? undefined,
            body: request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text(),
          });
    return new Response(request.method === 'HEAD' ? null : r.body, {
      status: r.status,
      headers: r.headers,
    });
  };

  return { node, fetch: fetchHandler, handle };
}

function isCardPath(path: string): boolean {
  return CARD_PATH.test(path);
}

function json(status: number, body: unknown): AgentHttpResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function rpcError(id: RpcId, code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

function restError(code: string, message: string) {
  return { error: { code, message } };
}

function notFound(path: string): AgentHttpResponse {
  return json(404, restError('NOT_FOUND', `nothing is served at ${path}`));
}

function tooLarge(max: number): AgentHttpResponse {
  return json(413, rpcError(null, -32018, `Payload too large: the limit is ${max} bytes`));
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : {};
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : 'internal error';
}
