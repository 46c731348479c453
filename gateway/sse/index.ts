// Server-Sent Events: the uWS stream writer, task streams per dialect, and the hub endpoint's
// streaming methods.
export { SseWriter, type SseOptions } from './sse-writer.js';
export {
  hubStreamCodec,
  v03StreamCodec,
  v1StreamCodec,
  type TaskStreamCodec,
} from './stream-codecs.js';
export {
  endsStream,
  parseLastEventId,
  taskStream,
  type TaskFeed,
  type TaskStreamOptions,
} from './task-stream.js';
export { hubStreamHandlers, type HubStreamDeps } from './hub-stream.js';
