// GET /api/whoami (issue 28): what the presented key stands for — tenant, agent (for an agent key)
// and the key itself (name, scopes, expiry) — so a script or dashboard can check a key before use.
// Any live key may ask, whatever its scopes.
import { getAgent, getTenant, KeyScopes, type Queryable } from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import { jsonReply } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { teamsDocs as docs } from './teams-route-docs.js';

export interface WhoamiDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
}

export function whoamiRoute(d: WhoamiDeps): RouteRegistrar {
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/whoami',
      doc: docs.whoami,
      handler: async (req) => {
        const p = await d.auth.authenticate(req.headers.authorization, req.scope);
        const [tenant, agent] = await Promise.all([
          getTenant(d.sql, p.tenantId),
          p.kind === 'agent' ? getAgent(d.sql, p.agentId) : Promise.resolve(null),
        ]);
        return jsonReply(200, {
          kind: p.kind,
          tenant: tenant && {
            id: tenant.id,
            name: tenant.name,
            slug: tenant.slug,
            verified: tenant.verified,
          },
          agent: agent && {
            id: agent.id,
            name: agent.name,
            alias: agent.alias,
            visibility: agent.visibility,
          },
          key: {
            id: p.keyId ?? null,
            name: p.keyName ?? null,
            scopes: p.scopes ?? [...KeyScopes],
            expiresAt: p.expiresAt ? new Date(p.expiresAt).toISOString() : null,
          },
        });
      },
    });
  };
}
