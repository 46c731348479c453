// The hub's protocol package: the internal model, tolerant input schemas, method names, the three
// wire codecs (hub, A2A v1.0, A2A v0.3), JSON-RPC errors per dialect, version negotiation, cards.
export * from './model.js';
export { Dialects, type Dialect, type StandardDialect } from './dialect.js';
export { applyHistoryLength } from './history.js';
export {
  PartInput,
  Metadata,
  JSON_MIME,
  DATA_PART_COMPAT_FLAG,
  dataPartFromJson,
  isJsonMime,
} from './part-input.js';
export {
  Role,
  MessageInput,
  SendMessageConfiguration,
  SendMessageParams,
  GetTaskParams,
  CancelTaskParams,
  SubscribeToTaskParams,
  ListTasksParams,
  TaskStateInput,
  RespondStates,
  type RespondState,
  ArtifactInput,
  TaskRespondParams,
  newMessageId,
  newArtifactId,
  textOf,
} from './hub-schema.js';
export { parseParams, describeIssue } from './parse-params.js';
export { decodeSendMessage, type SendRequest } from './send-request.js';
export { readSendMessageParams, readMessage, readParts } from './send-check.js';
export { readTaskRespondParams, readArtifact } from './respond-check.js';
export { readPart } from './part-check.js';
export {
  readGetTaskParams,
  readCancelTaskParams,
  readSubscribeToTaskParams,
} from './task-id-check.js';
export {
  RpcMethod,
  normalizeMethod,
  isHubOnlyMethod,
  isStreamingMethod,
  methodNames,
} from './methods.js';
export {
  isoTime,
  statusMessage,
  isStreamFinal,
  type TaskView,
  type TaskPage,
} from './codec-common.js';
export * from './codec-hub.js';
export * from './codec-v1.js';
export * from './codec-v03.js';
export {
  encodeRpcError,
  ERROR_INFO_TYPE,
  A2A_ERROR_DOMAIN,
  type ErrorInfo,
  type DialectRpcError,
} from './rpc-errors.js';
export { negotiateVersion, A2A_VERSION_HEADER, SUPPORTED_VERSIONS } from './version.js';
export {
  AgentCardInput,
  AgentSkillInput,
  defaultCard,
  v1Interface,
  type AgentInterfaceInput,
} from './card-input.js';
export {
  cardV1,
  cardV03,
  registeredCard,
  agentEndpoint,
  etagOf,
  hasExtendedCard,
  HUB_CAPABILITIES,
  type CardScope,
  type CardSignature,
  type CardTarget,
  type CardSkill,
  type V1AgentCard,
  type V1AgentInterface,
  type V03AgentCard,
  type RegisteredAgentCard,
} from './cards.js';
export {
  acceptsOutputModes,
  assertAcceptsOutputModes,
  outputModesOf,
  mediaRangesMatch,
  DEFAULT_OUTPUT_MODES,
  type DeclaresOutputModes,
} from './output-modes.js';
export type { InvokeRequest, InvokeReply, AgentAnswer } from './agent-invoke.js';
