// Tenants over HTTP for the hub's operator (issue 28): POST /api/tenants creates one with its first
// admin key (shown once), GET /api/tenants lists them, GET /api/tenants/:id shows one. Only the
// operator token (ADMIN_TOKEN) opens them; API keys never do, whatever their tenant or scopes.
import {
  createTenant,
  getTenant,
  inTransaction,
  issueAdminKey,
  listTenants,
  type Queryable,
  type Tenant,
} from '../../infra/db/index.js';
import { HubError, UnauthenticatedError } from '../../runtime/errors/index.js';
import { decodeParam, jsonReply, parseBody, type RouteRequest } from '../http/index.js';
import { bearerTokenCheck } from '../routes/admin-auth.js';
import type { RouteRegistrar } from '../routes/index.js';
import { teamsDocs as docs } from './teams-route-docs.js';

export interface TenantsRoutesDeps {
  readonly sql: Queryable;
  /** ADMIN_TOKEN; unset or empty: these routes refuse every caller. */
  readonly adminToken: string | undefined;
}

export function tenantView(t: Tenant) {
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    verified: t.verified,
    createdAt: t.createdAt.toISOString(),
  };
}

export function tenantsRoutes(d: TenantsRoutesDeps): RouteRegistrar {
  const token = d.adminToken;
  const check = token ? bearerTokenCheck(token) : undefined;
  const operator = (req: RouteRequest): void => {
    if (check === undefined) {
      throw new HubError(
        'FORBIDDEN',
        'Tenant management over HTTP needs ADMIN_TOKEN set on the hub'
      );
    }
    if (!check(req.headers.authorization)) {
      throw new UnauthenticatedError('this needs the operator token (ADMIN_TOKEN)');
    }
  };

  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/tenants',
      doc: docs.listTenants,
      handler: async (req) => {
        operator(req);
        const all = await listTenants(d.sql);
        return jsonReply(200, { tenants: all.map(tenantView), count: all.length });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/tenants/:tenantId',
      doc: docs.getTenant,
      handler: async (req) => {
        operator(req);
        const id = decodeParam(req.params.tenantId ?? '');
        const t = await getTenant(d.sql, id);
        if (t === null) throw new HubError('NOT_FOUND', `No tenant ${id}`);
        return jsonReply(200, tenantView(t));
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/tenants',
      doc: docs.createTenant,
      body: true,
      handler: async (req) => {
        operator(req);
        const { name, verified } = parseBody(docs.createTenant.body, await req.body);
        // The tenant is useless over HTTP without a key to manage it: one comes with it, once,
        // in the same transaction (no tenant is left behind without its key).
        const { tenant, key } = await inTransaction(d.sql, async (tx) => {
          const t = await createTenant(tx, {
            name,
            ...(verified !== undefined ? { verified } : {}),
          });
          return { tenant: t, key: (await issueAdminKey(tx, t.id)).key };
        });
        return jsonReply(201, { tenant: tenantView(tenant), adminKey: key });
      },
    });
  };
}
