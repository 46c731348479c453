export { officialAgents } from './registry.js';
export {
  runAgentPool,
  agentWorkerMachine,
  type OfficialAgent,
  type AgentPool,
} from './kit/index.js';
