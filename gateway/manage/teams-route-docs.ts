// The team routes of issue 28 in GET /openapi.json: an agent's named keys and rotation
// (keys-routes.ts), GET /api/whoami, the operator's tenants (ADMIN_TOKEN) and the tenant's spending
// budgets. Bodies state what the handlers accept (unknown fields are 400: the routes check with these schemas); the
// answers are the views the handlers write (keyView, tenantView, budgetView).
import { z } from 'zod';
import { BudgetPeriods, KeyScopes, Visibilities } from '../../infra/db/index.js';
import type { RouteDoc } from '../http/index.js';

const manage = { tags: ['Management'], auth: 'key' } as const;
const admin = { tags: ['Management'], auth: 'adminKey' } as const;
const operator = { tags: ['Tenants'], auth: 'adminToken' } as const;
const iso = z.iso.datetime({ offset: true });
const Scope = z.enum(KeyScopes);

const KeyView = z.object({
  keyId: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  scopes: z.array(Scope),
  createdAt: iso,
  expiresAt: iso.nullable(),
});

/** POST /api/agents/:agentId/keys with a body (keys-routes.ts checks with it). */
export const NamedKeyBody = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, {
      error:
        "must be 1-64 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
    })
    .describe("1-64 letters, digits, spaces, '.', '_' or '-'"),
  scopes: z
    .array(Scope)
    .min(1)
    .optional()
    .describe('Only scopes the caller holds; absent: all of them'),
  expiresAt: iso.nullish().describe('At most 10 years ahead; absent or null: never'),
});

const TenantView = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  verified: z.boolean(),
  createdAt: iso,
});

const BudgetView = z.object({
  scope: z.enum(['tenant', 'agent']),
  agentId: z.string().nullable(),
  period: z.enum(BudgetPeriods),
  limit: z.number().int(),
  spent: z.number().int(),
  periodStart: z.iso.date(),
  resetsAt: iso,
});

const Budgets = z.object({ budgets: z.array(BudgetView) });

export const teamsDocs = {
  listKeys: {
    ...manage,
    summary: "An agent's live keys (its own key with the manage scope, or an admin key)",
    responses: { 200: z.object({ agentId: z.string(), keys: z.array(KeyView) }) },
    errors: [403, 404],
  },
  issueKey: {
    ...manage,
    summary: 'Issue a named key, or with an empty body rotate: revoke every key, issue one',
    description:
      'With `name` (and optionally `scopes`, `expiresAt`): a new named key next to the others; ' +
      'a key never grants a scope its issuer lacks. Without a body (or `{}`): rotation, for a ' +
      'tenant admin key only (403 otherwise). Either way the key is shown once.',
    body: z.union([z.strictObject({}), NamedKeyBody]),
    responses: {
      201: z.union([
        z.object({
          agentId: z.string(),
          apiKey: z.string(),
          keyId: z.string(),
          revoked: z.number().int().min(0),
        }),
        KeyView.extend({ agentId: z.string(), apiKey: z.string() }),
      ]),
    },
    errors: [403, 404],
  },
  revokeKey: {
    ...manage,
    summary: "Revoke one of an agent's keys (every node drops it at once)",
    responses: {
      200: z.object({ agentId: z.string(), keyId: z.string(), revoked: z.literal(true) }),
    },
    errors: [403, 404],
  },
  whoami: {
    ...manage,
    summary: 'What the presented key stands for: tenant, agent, and the key itself',
    responses: {
      200: z.object({
        kind: z.enum(['agent', 'admin']),
        tenant: z
          .object({ id: z.string(), name: z.string(), slug: z.string(), verified: z.boolean() })
          .nullable(),
        agent: z
          .object({
            id: z.string(),
            name: z.string(),
            alias: z.string().nullable(),
            visibility: z.enum(Visibilities),
          })
          .nullable(),
        key: z.object({
          id: z.string().nullable(),
          name: z.string().nullable(),
          scopes: z.array(Scope),
          expiresAt: iso.nullable(),
        }),
      }),
    },
  },
  listTenants: {
    ...operator,
    summary: "The hub's tenants (403 while ADMIN_TOKEN is unset)",
    responses: { 200: z.object({ tenants: z.array(TenantView), count: z.number().int() }) },
    errors: [403],
  },
  getTenant: {
    ...operator,
    summary: 'One tenant, by id or slug',
    responses: { 200: TenantView },
    errors: [403, 404],
  },
  createTenant: {
    ...operator,
    summary: 'Create a tenant with its first admin key (shown once)',
    body: z.strictObject({
      name: z.string().min(1).max(200),
      verified: z.boolean().optional(),
    }),
    responses: { 201: z.object({ tenant: TenantView, adminKey: z.string() }) },
    errors: [403, 409],
  },
  listBudgets: {
    ...admin,
    summary: "The tenant's spending budgets with what their current period spent",
    responses: { 200: Budgets },
  },
  setBudget: {
    ...admin,
    summary: 'Set a daily or monthly budget of the tenant or one agent (limit null removes it)',
    body: z.strictObject({
      agentId: z.string().nullish().describe('Absent or null: the tenant-wide budget'),
      period: z.enum(BudgetPeriods),
      limit: z.number().int().min(1).max(1e12).nullable().describe('Credits (minor units)'),
    }),
    responses: { 200: Budgets },
    errors: [404],
  },
} satisfies Record<string, RouteDoc>;
