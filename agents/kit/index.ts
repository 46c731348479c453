// The kit every official agent is built on: its definition, the pool that runs it, the worker machine.
export {
  defineAgent,
  type OfficialAgent,
  type OfficialAgentCard,
  type SkillCard,
  type AgentRequest,
  type AgentContext,
  type AgentResult,
} from './types.js';
export { runAgentPool, type AgentPool, type PoolOptions } from './pool.js';
export { agentWorkerMachine } from './worker.machine.js';
