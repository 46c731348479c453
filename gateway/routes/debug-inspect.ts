// GET /debug/inspect (WebSocket): live XState inspection events for the actors a caller names,
// `?kind=task` (every task actor) and/or `?id=<actor id>`, in the Stately inspector's format (one
// JSON StatelyInspectionEvent per text frame; see runtime/inspect/inspection.ts). Admin only:
// `Authorization: Bearer <ADMIN_TOKEN>`, or `?token=` for clients that cannot set headers on a
// WebSocket (browsers). It shows the actors hosted by the node it is opened on.
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, us_socket_context_t } from 'uWebSockets.js';
import { HubError, InvalidParamsError, UnauthenticatedError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { DebugInspect } from '../deps.js';
import { writeReply } from '../http/exchange.js';
import { restErrorReply } from '../http/reply.js';
import type { RouteTable } from '../http/route-table.js';
import { parseQuery } from '../http/validate.js';
import { bearerTokenCheck } from './admin-auth.js';
import { builtInDocs } from './route-docs.js';

export interface InspectFilterQuery {
  kind?: string;
  id?: string;
}

interface SocketData {
  filter: InspectFilterQuery;
  stop?: () => void;
}

/** A closed socket's frames are dropped: more than this many bytes queued ends the watch. */
const MAX_BACKPRESSURE_BYTES = 4 * 1024 * 1024;

/**
 * The watch a query asks for, read with the route doc's schema; throws the catalog error that
 * names the bad parameter. The kinds are the node's own, so they are checked here, not in the doc.
 */
export function inspectFilterOf(query: string, kinds: readonly string[]): InspectFilterQuery {
  const { kind, id } = parseQuery(builtInDocs.inspect.query, query);
  if (kind !== undefined && !kinds.includes(kind)) {
    throw new InvalidParamsError('kind', `must be one of ${kinds.join(', ')}`);
  }
  return { ...(kind !== undefined ? { kind } : {}), ...(id !== undefined ? { id } : {}) };
}

export function registerDebugInspect(
  table: RouteTable,
  opts: { inspect: DebugInspect; adminToken: string; log: Logger }
): void {
  const authorized = bearerTokenCheck(opts.adminToken);
  table.describe({ method: 'GET', pattern: '/debug/inspect', doc: builtInDocs.inspect });
  table.app.ws<SocketData>('/debug/inspect', {
    maxPayloadLength: 4 * 1024,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    maxBackpressure: MAX_BACKPRESSURE_BYTES,
    closeOnBackpressureLimit: 1,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      // Everything is read and decided here, synchronously (the uWS upgrade handler is corked).
      const query = req.getQuery() ?? '';
      const token = new URLSearchParams(query).get('token');
      const header = req.getHeader('authorization') || (token ? `Bearer ${token}` : undefined);
      let filter: InspectFilterQuery;
      try {
        if (!authorized(header)) {
          throw new UnauthenticatedError(
            'Admin token required: Authorization: Bearer <ADMIN_TOKEN>'
          );
        }
        filter = inspectFilterOf(query, opts.inspect.kinds());
      } catch (err) {
        const challenge = err instanceof HubError && err.code === 'UNAUTHENTICATED';
        const headers: Record<string, string> = challenge
          ? { 'www-authenticate': 'Bearer realm="burrow-debug"' }
          : {};
        writeReply(res, restErrorReply(err, randomUUID(), opts.log, headers), true);
        return;
      }
      res.upgrade<SocketData>(
        { filter },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context
      );
    },
    open: (ws) => {
      const data = ws.getUserData();
      const send = (event: unknown) => {
        ws.send(JSON.stringify(event), false);
      };
      data.stop = opts.inspect.watch(data.filter, send);
    },
    close: (ws) => {
      ws.getUserData().stop?.();
    },
  });
}
