// The uWS adapter's public surface: routes, replies, request snapshots and the body reader.
export {
  RouteTable,
  UNMATCHED_ROUTE,
  type RouteHandler,
  type RouteSpec,
  type RouteTableOptions,
  type DescribedPath,
  type DocumentedPath,
} from './route-table.js';
export { jsonReply, textReply, restErrorReply, NO_CONTENT, type Reply } from './reply.js';
export { decodeParam, HTTP_METHODS, type HttpMethod, type RouteRequest } from './request.js';
export { normalizeError, fromZodError, type IssueSummary } from './normalize-error.js';
export { InFlight } from './in-flight.js';
export { readBody } from './body.js';
export { parseJsonObject, rejectNul } from './json-body.js';
export { parseBody, parseQuery, jsonObjectBody, checkBody } from './validate.js';
export { queryInteger } from './query-schemas.js';
export { Exchange, writeReply } from './exchange.js';
export { addReplyHeaders, currentClientAddress, RequestScope } from './reply-headers.js';
export {
  RestErrorSchema,
  errorStatuses,
  type ResponseDoc,
  type RouteAuth,
  type RouteDoc,
  type WebSocketDoc,
  type WebSocketFrameDoc,
} from './route-doc.js';
