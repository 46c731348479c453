// The directory in each node's memory: searches and nearby answered without a SQL statement each,
// kept current with PostgreSQL on every request (live-directory.ts).
export { LiveDirectory, type LiveDirectoryOptions } from './live-directory.js';
export { GenerationReader } from './generation-reader.js';
