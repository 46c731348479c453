// The agent WebSocket endpoint.
export { wsRoutes, type WsDeps } from './ws-route.js';
export { UwsAgentConnection, type BackpressureLimits } from './agent-connection.js';
export { SocketRevoker } from './socket-revoker.js';
export { wsRouteDoc } from './route-doc.js';
