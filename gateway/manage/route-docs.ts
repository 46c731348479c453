// The management routes in GET /openapi.json (decisions.md §5): a tenant admin key's agents,
// webhooks, credits, alerts, and any key's usage. The body schemas state what the handlers and
// repos accept, and the routes check with them (gateway/http/validate.ts; unknown fields are 400); the answers are the views they write.
import { z } from 'zod';
import { AgentLimits, MAX_CREDIT_AMOUNT, Visibilities } from '../../infra/db/index.js';
import { HUB_EVENT_NAMES } from '../../runtime/bus/index.js';
import { AgentCardInput } from '../../runtime/protocol/index.js';
import type { RouteDoc } from '../http/index.js';
import { tasksDocs } from './tasks-route-docs.js';

const admin = { tags: ['Management'], auth: 'adminKey' } as const;
const iso = z.iso.datetime({ offset: true });

const Visibility = z.enum(Visibilities);

export const AgentViewSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  description: z.string(),
  alias: z.string().nullable(),
  transport: z.string(),
  url: z.string().nullable(),
  visibility: Visibility,
  category: z.string().nullable(),
  tags: z.array(z.string()),
  queue_max_pending: z.number().int(),
  queue_ttl_seconds: z.number().int(),
  createdAt: iso,
});

const CreateAgentBody = z.strictObject({
  name: z.string().max(AgentLimits.maxName),
  description: z.string().max(AgentLimits.maxDescription).nullish(),
  url: z.url().nullish(),
  category: z.string().max(AgentLimits.maxCategory).nullish(),
  // Also a string holding a JSON array (the spec's PATCH form); location: tags only with PATCH.
  tags: z
    .union([z.array(z.string().max(AgentLimits.maxTagLength)).max(AgentLimits.maxTags), z.string()])
    .optional(),
  visibility: Visibility.nullish(),
  alias: z.string().nullish(),
  card: AgentCardInput.optional(),
});

export const SettingsViewSchema = z.object({
  agentId: z.string(),
  alias: z.string().nullable(),
  emailEnabled: z.boolean(),
  queue_max_pending: z.number().int(),
  queue_ttl_seconds: z.number().int(),
  visibility: Visibility,
  category: z.string().nullable(),
  tags: z.array(z.string()),
  websiteUrl: z.string().nullable(),
  docsUrl: z.string().nullable(),
});

const SettingsPatch = z.strictObject({
  card: AgentCardInput.optional(),
  alias: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/)
    .nullable()
    .optional()
    .describe(
      "Not starting with 'agent-'; null removes it (mail to the old one bounces in 30 days)"
    ),
  emailEnabled: z.boolean().optional(),
  queue_max_pending: z
    .number()
    .int()
    .min(AgentLimits.queueMaxPending.min)
    .max(AgentLimits.queueMaxPending.max)
    .optional(),
  queue_ttl_seconds: z
    .number()
    .int()
    .min(AgentLimits.queueTtlSeconds.min)
    .max(AgentLimits.queueTtlSeconds.max)
    .optional(),
  tags: z
    .union([z.array(z.string().max(AgentLimits.maxTagLength)).max(AgentLimits.maxTags), z.string()])
    .optional(),
  visibility: Visibility.optional(),
  category: z.string().max(AgentLimits.maxCategory).nullable().optional(),
  description: z.string().max(AgentLimits.maxDescription).optional(),
  websiteUrl: z.url().max(AgentLimits.maxLink).nullable().optional(),
  docsUrl: z.url().max(AgentLimits.maxLink).nullable().optional(),
});

const WebhookView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(HUB_EVENT_NAMES)),
  status: z.enum(['active', 'failing']),
  lastError: z.string().nullable(),
  createdAt: iso,
});

const CreditsView = z.object({
  tenantId: z.string(),
  balance: z.number().int(),
  currency: z.string(),
  lowBalanceThreshold: z.number().int().nullable(),
  belowThreshold: z.boolean(),
});

const Amount = z.number().int().min(1).max(MAX_CREDIT_AMOUNT);

const Alert = z.object({
  type: z.enum([
    'error_rate',
    'agent_offline',
    'rate_limit_exceeded',
    'unusual_traffic',
    'spending',
  ]),
  severity: z.enum(['warning', 'critical']),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});

export const manageDocs = {
  createAgent: {
    ...admin,
    summary: "Create an agent in the admin key's tenant (its key is shown once)",
    body: CreateAgentBody,
    responses: {
      201: z.object({
        agent: AgentViewSchema,
        apiKey: z.string(),
        webhookSecret: z.string().optional(),
      }),
    },
    errors: [409],
  },
  listAgents: {
    ...admin,
    summary: "The tenant's agents, with their status, queue depth and rating",
    responses: {
      200: z.object({
        agents: z.array(
          AgentViewSchema.extend({
            status: z.enum(['online', 'http', 'offline']),
            queueDepth: z.number().int().min(0).nullable(),
            rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
          })
        ),
        count: z.number().int(),
      }),
    },
  },
  deleteAgent: {
    ...admin,
    summary: 'Delete an agent (its keys stop working on every node)',
    responses: { 200: z.object({ agentId: z.string(), deleted: z.literal(true) }) },
    errors: [404],
  },
  getSettings: {
    tags: ['Management'],
    auth: 'key',
    summary: "An agent's settings (its own key, or an admin key of its tenant)",
    responses: { 200: SettingsViewSchema },
    errors: [403, 404],
  },
  patchSettings: {
    tags: ['Management'],
    auth: 'key',
    summary: "Change an agent's settings; one bad field and nothing changes",
    body: SettingsPatch,
    responses: { 200: SettingsViewSchema },
    errors: [403, 404, 502],
  },
  listWebhooks: {
    ...admin,
    summary: "The tenant's webhooks",
    responses: { 200: z.object({ webhooks: z.array(WebhookView) }) },
  },
  createWebhook: {
    ...admin,
    summary: 'Create a webhook (a generated secret is shown once)',
    body: z.strictObject({
      url: z.url(),
      events: z.array(z.enum(HUB_EVENT_NAMES)).min(1),
      secret: z.string().min(16).max(256).nullish(),
    }),
    responses: { 201: z.object({ webhook: WebhookView, secret: z.string().optional() }) },
  },
  patchWebhook: {
    ...admin,
    summary: "Change a webhook's events",
    body: z.strictObject({ events: z.array(z.enum(HUB_EVENT_NAMES)).min(1) }),
    responses: { 200: z.object({ webhook: WebhookView }) },
    errors: [404],
  },
  webhookDeliveries: {
    ...admin,
    summary: "A webhook's latest 50 deliveries, newest first",
    query: z.strictObject({}),
    responses: {
      200: z.object({
        deliveries: z.array(
          z.object({
            id: z.string(),
            event: z.string(),
            status: z.enum(['pending', 'delivered', 'failed']),
            attempts: z.number().int(),
            maxAttempts: z.number().int(),
            lastError: z.string().nullable(),
            nextAt: iso,
            createdAt: iso,
            updatedAt: iso,
          })
        ),
      }),
    },
    errors: [404],
  },
  ...tasksDocs,
  deleteWebhook: {
    ...admin,
    summary: 'Delete a webhook',
    responses: { 200: z.object({ id: z.string(), deleted: z.literal(true) }) },
    errors: [404],
  },
  testWebhook: {
    ...admin,
    summary: 'Send one webhook.test event now and say how it went',
    responses: {
      200: z.object({
        delivered: z.boolean(),
        deliveryId: z.string(),
        error: z.string().optional(),
        status: z.enum(['active', 'failing']),
      }),
    },
    errors: [404],
  },
  credits: {
    ...admin,
    summary: 'Balance, threshold and recent ledger (minor units of `currency`)',
    responses: {
      200: CreditsView.extend({
        ledger: z.array(
          z.object({
            id: z.number().int(),
            amount: z.number().int(),
            balanceAfter: z.number().int(),
            kind: z.enum(['purchase', 'debit']),
            reason: z.string(),
            createdAt: iso,
          })
        ),
      }),
    },
  },
  purchase: {
    ...admin,
    summary: 'Add credits',
    body: z.strictObject({ amount: Amount, reason: z.string().max(500).optional() }),
    responses: { 200: CreditsView },
  },
  threshold: {
    ...admin,
    summary: 'Set (or with null clear) the low-balance threshold',
    body: z.strictObject({ threshold: z.number().int().min(0).max(MAX_CREDIT_AMOUNT).nullable() }),
    responses: { 200: CreditsView },
  },
  alerts: {
    ...admin,
    summary: "The tenant's current alerts",
    responses: { 200: z.object({ alerts: z.array(Alert) }) },
  },
} satisfies Record<string, RouteDoc>;
