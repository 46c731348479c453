// The kit every official agent is built on: its definition, JSON actions, the services it is
// handed, the pool that runs it, the worker machine.
export {
  defineAgent,
  type OfficialAgent,
  type OfficialAgentCard,
  type SkillCard,
  type AgentRequest,
  type AgentContext,
  type AgentResult,
} from './types.js';
export {
  action,
  runAction,
  describeActions,
  describeIssues,
  fail,
  type Action,
  type Actions,
} from './actions.js';
export type {
  AgentServices,
  OfficialHub,
  VisibleAgent,
  ForwardOptions,
  ForwardResult,
} from './services.js';
export { runAgentPool, type AgentPool, type PoolOptions } from './pool.js';
export { agentWorkerMachine } from './worker.machine.js';
