// Building agents for a Burrow hub: a WebSocket agent, an HTTP (webhook) agent handler, and the
// reply shapes both accept.
export {
  WsAgent,
  WsAgentAuthError,
  hubSocketUrl,
  type WsAgentOptions,
  type WsAgentEvent,
  type WsIncomingMessage,
} from './ws-agent.js';
export {
  httpAgentHandler,
  DEFAULT_AGENT_MAX_BODY_BYTES,
  type HttpAgentOptions,
  type HttpAgentHandler,
  type HttpAgentEvent,
  type HttpIncomingMessage,
  type AgentHttpRequest,
  type AgentHttpResponse,
} from './http-handler.js';
export {
  responseFrames,
  replyTask,
  textOfParts,
  type AgentReply,
  type StatusReply,
  type TaskReply,
  type StreamChunk,
  type ReplyState,
  type TaskResponseFrame,
  type AnswerTask,
} from './handler-result.js';
export {
  reconnectDelay,
  DEFAULT_RECONNECT_BACKOFF,
  type ReconnectBackoffOptions,
} from './reconnect-backoff.js';
export { agentLandingPage } from './landing-page.js';
