// The shared entity graph's write side (migration 0020): agents build an EntityBatch from what an
// upstream answered and call recordEntities; agent-research reads the graph.
export {
  EntityBatch,
  KINDS,
  type Kind,
  type NodeOptions,
  type Origin,
  type RecordScope,
} from './batch.js';
export { normIdentifier, normName, plainName, SCHEMES } from './names.js';
export { recordEntities } from './record.js';
export { GRAPH_LOCK_KEY, writeBatch, type WriteResult } from './store.js';
