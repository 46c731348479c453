// The database package's public surface: the client, first-start database creation, migrations.
export { createDb, ensureDatabase, isPgError, type Db, type DbOptions } from './client.js';
export {
  migrate,
  readMigrations,
  MigrationError,
  MIGRATIONS_DIR,
  MIGRATION_LOCK_KEY,
  type MigrateOptions,
  type MigrationFile,
} from './migrate.js';
export * from './repos/index.js';
export {
  upsertTasks,
  updateTasks,
  taskRow,
  type TaskRow,
  listTasksFor,
  contextPeer,
  type TaskListQuery,
} from './repos/tasks.repo.js';
export { loadSigningKeys } from './repos/signing-keys.repo.js';
export {
  DirectorySorts,
  listCategories,
  refreshAgentUsage,
  searchAgents,
  USAGE_REFRESH_LOCK_KEY,
  type DirectoryCategory,
  type DirectoryPage,
  type DirectorySearch,
  type DirectorySort,
} from './repos/discover-search.repo.js';
export {
  DETAIL_REVIEWS,
  getAgentDetail,
  getDirectoryAgent,
  type AgentDetail,
  type AgentStats,
  type Review,
} from './repos/discover-detail.repo.js';
export { PRICING } from './repos/discover-view.js';
export type { DirectoryAgent, Viewer } from './repos/discover-view.js';
export {
  EARTH_RADIUS_KM,
  listAgentLocations,
  nearbyAgents,
  type AgentLocation,
  type AgentLocationInput,
  type NearbyAgent,
  type NearbySearch,
} from './repos/locations.repo.js';
export {
  rateAgent,
  RatingLimits,
  type RatingInput,
  type RatingResult,
} from './repos/ratings.repo.js';
export {
  claimDuePushes,
  deletePushConfig,
  getPushConfig,
  listPushConfigs,
  MAX_PUSH_CONFIGS_PER_TASK,
  putPushConfig,
  recordPushed,
  recordPushFailure,
  releasePush,
  type DuePush,
  type NewPushConfig,
  type PushConfigRecord,
  type PushDialect,
} from './repos/push-configs.repo.js';
