// Several services share a partition's lifecycle (the actor host, the offline queues): activate in
// the order given, deactivate in reverse, so later handlers may rely on earlier ones while they run.
// The log is compacted only when every one of them holds its records (PartitionHandler.holdsLogRecords).
import type { PartitionLog } from './partition-log.js';
import type { HandoverReason, PartitionHandler } from './partition-manager.js';

export function composeHandlers(...handlers: PartitionHandler[]): PartitionHandler {
  return {
    holdsLogRecords: handlers.every((h) => h.holdsLogRecords === true),
    async activate(partition: number, label: string, log: PartitionLog): Promise<void> {
      for (const h of handlers) await h.activate(partition, label, log);
    },
    async deactivate(partition: number, label: string, reason: HandoverReason): Promise<void> {
      for (const h of [...handlers].reverse()) {
        await h.deactivate(partition, label, reason);
      }
    },
  };
}
