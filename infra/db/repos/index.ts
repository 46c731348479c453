// The identity repos' public surface: tenants, agents, API keys, official agents, and the
// Principal an API key stands for. Every function takes a postgres.js Sql (or transaction) first.
export {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_PREFIX_LENGTH,
  hashApiKey,
  newAgentId,
  newApiKey,
  newKeyId,
  newTenantId,
  newWebhookSecret,
  type NewApiKey,
} from './keys.js';
export { inTransaction, jsonText, refusedForContent, storableJson, type Queryable } from './sql.js';
export { createTenant, getTenant, listTenants, slugify, type Tenant } from './tenants.repo.js';
export {
  AgentLimits,
  createAgent,
  getAgent,
  listAgents,
  resolveAgent,
  softDeleteAgent,
  Transports,
  updateAgentCard,
  updateAgentSettings,
  validateAlias,
  validateLink,
  validateTags,
  Visibilities,
  type AgentRecord,
  type AgentSettingsPatch,
  type CreateAgentInput,
  type CreatedAgent,
  type Transport,
  type Visibility,
} from './agents.repo.js';
export {
  findPrincipalByKeyHash,
  hasScope,
  issueNamedKey,
  KeyScopes,
  listAgentKeys,
  revokeAgentKey,
  type AgentKey,
  type KeyScope,
  type NamedKeyInput,
  issueAdminKey,
  revokeAgentKeys,
  revokeKey,
  rotateAgentKey,
  activeAgentKeyHashes,
  type IssuedKey,
  type Principal,
  type RotatedKey,
} from './api-keys.repo.js';
export {
  OFFICIAL_ALIASES,
  OFFICIAL_SEED_LOCK_KEY,
  upsertOfficialAgents,
  type OfficialAgentDef,
  type OfficialAlias,
} from './official.repo.js';
export { OFFICIAL_TENANT } from './official-tenant.js';
export {
  leaseRateLimit,
  recordRateLimitUsage,
  setTenantRateLimit,
  sweepRateLimitWindows,
  type RateLimitLease,
  type RateLimitUsage,
} from './rate-limits.repo.js';
export {
  creditAmount,
  debitCredits,
  getCreditAccount,
  listLedger,
  MAX_CREDIT_AMOUNT,
  purchaseCredits,
  relayOutbox,
  setLowBalanceThreshold,
  type CreditAccount,
  type CreditChange,
  type LedgerEntry,
  type OutboxEvent,
} from './credits.repo.js';
export {
  claimDueDeliveries,
  type ClaimDeliveriesOptions,
  createWebhook,
  deleteWebhook,
  enqueueDeliveries,
  getWebhook,
  listWebhooks,
  noteWebhookResult,
  recordAttempt,
  subscribedEvents,
  webhookEvents,
  type CreatedWebhook,
  type DueDelivery,
  type Webhook,
  type WebhookStatus,
} from './webhooks.repo.js';
export {
  messageStats,
  usageByDay,
  type MessageStats,
  type StatsDay,
  type TopAgent,
  type UsageDay,
  type UsageScope,
} from './usage.repo.js';
export { rateLimitedKeys, tenantTraffic, type TenantTraffic } from './alerts.repo.js';
export { listVisibleAgents, type VisibleAgentRow } from './visible-agents.repo.js';
export {
  directoryGeneration,
  listCategoriesAt,
  QueryExpansions,
  searchAgentsAt,
  type AtGeneration,
} from './discover-search.repo.js';
export { nearbyAgentsAt, replaceAgentLocations } from './locations.repo.js';
export { listFeaturedAt, MAX_FEATURED, setAgentFeatured } from './featured.repo.js';
export {
  expandQuery,
  foldValues,
  pruneDirectoryChanges,
  BYTE_ORDER_COLLATIONS,
  readDirectory,
  readDirectoryChunks,
  type DirectoryChunk,
  type DirectoryModelAgentRow,
  type DirectoryModelLocationRow,
  type DirectoryModelTenantRow,
  type DirectoryRead,
} from './directory-model.repo.js';
export {
  listWebhookDeliveries,
  setWebhookEvents,
  type WebhookDelivery,
} from './webhook-admin.repo.js';
export { getTenantTask, listTenantTasks, type TenantTaskQuery } from './tenant-tasks.repo.js';
export { agentRatings, type AgentRating } from './tenant-agents.repo.js';
export * from './access-grants.repo.js';
export * from './workspaces.repo.js';
export * from './workspace-memories.repo.js';
export * from './workspace-secrets.repo.js';
export {
  BudgetPeriods,
  listBudgets,
  recordSpend,
  setBudget,
  SPENDING_LEVELS,
  spendingLimitError,
  type Budget,
  type BudgetPeriod,
} from './spending.repo.js';
