// The bus protocol with the hub, as the kit sees it.
export type {
  InvokeRequest as InvokeRequestWire,
  InvokeReply as AgentAnswerWire,
} from '../../runtime/protocol/index.js';
