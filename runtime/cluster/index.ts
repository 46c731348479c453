export { fnv1a32, partitionOf, ownerOf, assignment } from './hash.js';
export { Membership, type NodeRecord, type MembershipOptions } from './membership.js';
export { PartitionLock, type AcquireResult } from './partition-lock.js';
export {
  PartitionLog,
  FencedError,
  WriteRefusedError,
  type AppendOptions,
  type PartitionLogOptions,
  purgeToSequenceIsSafe,
} from './partition-log.js';
export {
  PartitionManager,
  type PartitionHandler,
  type PartitionManagerOptions,
  type HandoverReason,
} from './partition-manager.js';
export { composeHandlers } from './handlers.js';
export type { LogHolder } from './log-holder.js';
export { LogCompactor, type CompactionOptions, type CompactableLog } from './log-compactor.js';
