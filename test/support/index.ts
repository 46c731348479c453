// Test support: real servers for integration and e2e tests. Each helper returns an object with
// close() (or drop()) that removes everything it started; call it from afterAll.
export { startNatsServer, type NatsServerHandle, type NatsServerOptions } from './nats-server.js';
export { startNatsCluster, type NatsClusterHandle, type NatsClusterNode } from './nats-cluster.js';
export { NATS_SERVER_BIN, freePorts } from './nats-process.js';
export { atExit, trackProcess, trackDir, removeDir } from './cleanup.js';
export { startHubProcess, type HubProcess, type HubProcessOptions } from './hub-process.js';
export {
  createTestDatabase,
  databaseExists,
  databaseUrl,
  TEST_DATABASE_BASE_URL,
  type TestDatabase,
} from './postgres.js';
