export { fnv1a32, partitionOf, ownerOf, assignment } from './hash.js';
export { Membership, type NodeRecord, type MembershipOptions } from './membership.js';
export { PartitionLock, type AcquireResult } from './partition-lock.js';
export {
  PartitionLog,
  FencedError,
  WriteRefusedError,
  type AppendOptions,
} from './partition-log.js';
export {
  PartitionManager,
  type PartitionHandler,
  type PartitionManagerOptions,
  type HandoverReason,
} from './partition-manager.js';
export { composeHandlers } from './handlers.js';
