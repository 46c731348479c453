// Tenant management API (decisions.md §5): agents, webhooks and credits under an admin key.
export {
  agentsAdminRoutes,
  agentView,
  requireAdmin,
  type AgentsAdminRoutesDeps,
} from './agents-admin-routes.js';
export { creditsRoutes, creditsView, type CreditsRoutesDeps } from './credits-routes.js';
export { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
export { webhooksRoutes, webhookView, type WebhooksRoutesDeps } from './webhooks-routes.js';
export { DAYS, usageRoutes, type UsageRoutesDeps } from './usage-routes.js';
export { ALERT_RULES, alertsRoutes, tenantAlerts, type Alert, type AlertsDeps } from './alerts.js';
export { tasksRoutes, TASKS_LIMIT, type TasksRoutesDeps } from './tasks-routes.js';
export { keysRoutes, keyView, type KeysRoutesDeps } from './keys-routes.js';
export { tenantsRoutes, tenantView, type TenantsRoutesDeps } from './tenants-routes.js';
export { whoamiRoute, type WhoamiDeps } from './whoami-route.js';
export { budgetsRoutes, budgetView, type BudgetsRoutesDeps } from './budgets-routes.js';
