// An agent's API keys (issue 28): named keys with scopes and an optional expiry, listed and revoked
// one by one; and rotation (a POST without a body), which revokes them all and issues one key.
// A tenant admin key manages any agent of its tenant; an agent's own key with the `manage` scope
// manages its own keys, never granting a scope it does not hold. Anyone else meets a 404.
import {
  getAgent,
  hasScope,
  issueNamedKey,
  KeyScopes,
  listAgentKeys,
  revokeAgentKey,
  rotateAgentKey,
  type AgentKey,
  type AgentRecord,
  type KeyScope,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';
import { subjects, type Bus } from '../../runtime/bus/index.js';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import type { Authenticator } from '../auth/index.js';
import {
  checkBody,
  decodeParam,
  jsonObjectBody,
  jsonReply,
  type RouteRequest,
} from '../http/index.js';
import type { AgentDirectory } from '../../actors/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { NamedKeyBody, teamsDocs as docs } from './teams-route-docs.js';

export interface KeysRoutesDeps {
  readonly sql: Queryable;
  /** Should demand the `manage` scope (scopedAuthenticator). */
  readonly auth: Pick<Authenticator, 'authenticate'>;
  readonly directory: Pick<AgentDirectory, 'announce'>;
  /** Tells every node to drop a revoked key at once (subjects.keyRevoked). */
  readonly bus: Pick<Bus, 'nc'>;
  readonly now?: () => number;
}

/** Ten years: a key meant to last longer should not expire at all. */
const MAX_LIFETIME_MS = 3650 * 86_400_000;

export function keyView(k: AgentKey) {
  return {
    keyId: k.keyId,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    createdAt: k.createdAt.toISOString(),
    expiresAt: k.expiresAt?.toISOString() ?? null,
  };
}

export function keysRoutes(d: KeysRoutesDeps): RouteRegistrar {
  const now = d.now ?? Date.now;

  const managed = async (req: RouteRequest): Promise<{ p: Principal; agent: AgentRecord }> => {
    const p = await d.auth.authenticate(req.headers.authorization, req.scope);
    const agentId = decodeParam(req.params.agentId ?? '');
    const agent = await getAgent(d.sql, agentId);
    const mine = p.kind === 'agent' ? p.agentId === agentId : p.tenantId === agent?.tenantId;
    if (agent === null || !mine) throw new HubError('NOT_FOUND', `No agent ${agentId}`);
    return { p, agent };
  };

  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/agents/:agentId/keys',
      doc: docs.listKeys,
      handler: async (req) => {
        const { agent } = await managed(req);
        const keys = await listAgentKeys(d.sql, agent.id);
        return jsonReply(200, { agentId: agent.id, keys: keys.map(keyView) });
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/agents/:agentId/keys',
      doc: docs.issueKey,
      body: true,
      handler: async (req) => {
        const { p, agent } = await managed(req);
        const raw = jsonObjectBody(await req.body);
        if (Object.keys(raw).length === 0) {
          // Rotation, as before named keys: only the tenant's administrator may do it.
          if (p.kind !== 'admin') {
            throw new HubError('FORBIDDEN', 'Rotating every key needs a tenant admin key', {
              data: { field: 'name' },
            });
          }
          const rotated = await rotateAgentKey(d.sql, agent.id);
          d.directory.announce(agent.id);
          return jsonReply(201, {
            agentId: agent.id,
            apiKey: rotated.key,
            keyId: rotated.keyId,
            revoked: rotated.revokedKeyHashes.length,
          });
        }
        // The body is the named-key branch of the documented union (the other is `{}`).
        const body = checkBody(NamedKeyBody, raw);
        const input = {
          name: body.name,
          scopes: readScopes(body.scopes, p),
          expiresAt: readExpiry(body.expiresAt, now()),
        };
        const issued = await issueNamedKey(
          d.sql,
          { tenantId: agent.tenantId, agentId: agent.id },
          input
        );
        return jsonReply(201, { agentId: agent.id, apiKey: issued.key, ...keyView(issued) });
      },
    });
    table.add({
      method: 'DELETE',
      pattern: '/api/agents/:agentId/keys/:keyId',
      doc: docs.revokeKey,
      handler: async (req) => {
        const { agent } = await managed(req);
        const keyId = decodeParam(req.params.keyId ?? '');
        const keyHash = await revokeAgentKey(d.sql, agent.id, keyId);
        if (keyHash === null) throw new HubError('NOT_FOUND', `No live key ${keyId}`);
        // Every node's cache and open sockets drop the key now, not at the cache's expiry.
        d.bus.nc.publish(subjects.keyRevoked, JSON.stringify({ keyHash }));
        return jsonReply(200, { agentId: agent.id, keyId, revoked: true });
      },
    });
  };
}

function readScopes(v: unknown, p: Principal): KeyScope[] {
  // No scopes given: what the caller holds (an admin: every scope).
  if (v === undefined) return KeyScopes.filter((s) => hasScope(p, s));
  if (!Array.isArray(v) || v.length === 0) {
    throw new InvalidParamsError('scopes', `must be a non-empty array of ${KeyScopes.join(', ')}`);
  }
  const out: KeyScope[] = [];
  for (const s of v) {
    const known = KeyScopes.find((k) => k === s);
    if (known === undefined) {
      throw new InvalidParamsError(
        'scopes',
        `unknown scope ${JSON.stringify(s)}; scopes are ${KeyScopes.join(', ')}`
      );
    }
    if (!hasScope(p, known)) {
      throw new InvalidParamsError('scopes', `a key cannot grant the "${known}" scope it lacks`);
    }
    if (!out.includes(known)) out.push(known);
  }
  return out;
}

function readExpiry(v: unknown, now: number): Date | null {
  if (v === undefined || v === null) return null;
  const at = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(at) || at <= now || at > now + MAX_LIFETIME_MS) {
    throw new InvalidParamsError(
      'expiresAt',
      'must be an ISO 8601 time in the future, at most 10 years ahead (or null: never)'
    );
  }
  return new Date(at);
}
