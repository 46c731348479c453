export {
  connectBus,
  subjectCasIsSafe,
  syncAlwaysSupported,
  type Bus,
  type BusOptions,
  type PublishOptions,
} from './connection.js';
export { provision } from './provision.js';
export * from './subjects.js';
export {
  partitionStream,
  locksStream,
  eventsStream,
  archiveStream,
  nodesBucket,
  presenceBucket,
  allPartitionLabels,
  type Topology,
} from './streams.js';
export { encodeJson, encodeText, decodeJson, encodedSizeOver, isNoMessage } from './codec.js';
export {
  publishEvent,
  decodeHubEvent,
  HUB_EVENT_NAMES,
  EVENT_ID_HEADER,
  type HubEvent,
  type HubEventData,
  type HubEventName,
  type PublishEventInput,
  type SpendingThresholdData,
  type PublishedEvent,
} from './events.js';
export { JetStreamPublisher, PublishError, type PubAck } from './publisher.js';
export { assertReplayComplete, idleGuard, type IdleGuard } from './idle-guard.js';
export { storedCount } from './stored-count.js';
export {
  FINAL_RESERVE,
  RECORD_HEADROOM,
  headerBytes,
  isPublishableSubject,
  recordLimits,
  type RecordLimits,
} from './payload-limits.js';
