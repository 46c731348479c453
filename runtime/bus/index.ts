export {
  connectBus,
  subjectCasIsSafe,
  type Bus,
  type BusOptions,
  type PublishOptions,
} from './connection.js';
export { provision } from './provision.js';
export * from './subjects.js';
export {
  partitionStream,
  locksStream,
  nodesBucket,
  presenceBucket,
  allPartitionLabels,
  type Topology,
} from './streams.js';
export { encodeJson, decodeJson } from './codec.js';
