// Spending budgets of the admin key's tenant (issue 28): GET /api/budgets lists them with what the
// current period spent; PUT /api/budgets sets one ({agentId?, period, limit}; limit null removes
// it). Every node's send check drops the tenant's cached budgets at once (SpendingGate.announce).
import { listBudgets, setBudget, type Budget, type Queryable } from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import { jsonReply, parseBody } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { requireAdmin } from './agents-admin-routes.js';
import { teamsDocs as docs } from './teams-route-docs.js';

export interface BudgetsRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  readonly announce: (tenantId: string) => void;
}

export function budgetView(b: Budget) {
  return {
    scope: b.agentId === null ? 'tenant' : 'agent',
    agentId: b.agentId,
    period: b.period,
    limit: b.limit,
    spent: b.spent,
    periodStart: b.periodStart,
    resetsAt: b.resetsAt.toISOString(),
  };
}

export function budgetsRoutes(d: BudgetsRoutesDeps): RouteRegistrar {
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/budgets',
      doc: docs.listBudgets,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        return jsonReply(200, { budgets: (await listBudgets(d.sql, tenantId)).map(budgetView) });
      },
    });
    table.add({
      method: 'PUT',
      pattern: '/api/budgets',
      doc: docs.setBudget,
      body: true,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const body = parseBody(docs.setBudget.body, await req.body);
        const agentId = body.agentId ?? null;
        await setBudget(d.sql, tenantId, { agentId, period: body.period, limit: body.limit });
        d.announce(tenantId);
        return jsonReply(200, { budgets: (await listBudgets(d.sql, tenantId)).map(budgetView) });
      },
    });
  };
}
