// The workspace operations (issue 28 item 1), one function per JSON-RPC method, shared by
// POST /a2a, the agent WebSocket and the REST routes under /api/workspaces. Each takes the
// authenticated principal and the method's params and answers the method's result.
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import {
  addWorkspaceMember,
  createWorkspace,
  deleteWorkspace,
  deleteWorkspaceMemory,
  deleteWorkspaceSecret,
  getWorkspaceSecret,
  insertWorkspaceMemory,
  listAgentWorkspaces,
  listTenantWorkspaces,
  listWorkspaceMembers,
  listWorkspaceMemories,
  listWorkspaceSecrets,
  putWorkspaceSecret,
  removeWorkspaceMember,
  searchWorkspaceMemories,
  setWorkspaceMemoryVector,
  staleWorkspaceMemories,
  updateWorkspaceMemory,
  workspaceMemoryTypes,
  type Principal,
  type Queryable,
  type Workspace,
  type WorkspaceMember,
  type WorkspaceMemory,
  type ScoredWorkspaceMemory,
  type SecretEntry,
} from '../../infra/db/index.js';
import { isVisibleTo, type AgentDirectory, type AgentRecord } from '../../actors/index.js';
import {
  accessTo,
  requireActiveMember,
  requireManager,
  workspaceOf,
  type Access,
} from './access.js';
import {
  MAX_CONTENT_BYTES,
  MAX_SECRET_BYTES,
  agentIdParam,
  memoryId,
  memoryType,
  readParams,
  score,
  secretName,
  tags,
  text,
  wholeNumber,
  workspaceId,
} from './params.js';
import type { SecretBox } from './secret-box.js';

/** The hub's embedder (infra/embed), which the gateway receives rather than imports. */
export interface WorkspaceEmbedder {
  readonly id: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface WorkspaceDeps {
  readonly sql: Queryable;
  readonly directory: Pick<AgentDirectory, 'resolve'>;
  readonly embedder: WorkspaceEmbedder;
  readonly box: SecretBox;
  /** Do these two agents hold an access grant (gateway/access)? Lets one invite the other. */
  readonly granted: (a: string, b: string) => Promise<boolean>;
}

export type WorkspaceOperation = (principal: Principal, params: unknown) => Promise<unknown>;

export const DEFAULT_MEMORY_TYPE = 'note';
/** As the memory agent recalls (agents/memory): below this a match is noise. */
export const MIN_QUERY_SCORE = 0.25;
export const QUERY_LIMIT = { default: 10, max: 50 } as const;
export const LIST_LIMIT = { default: 20, max: 100 } as const;
/** At most this many vectors are recomputed per query when the embedder changed. */
const REEMBED_BATCH = 100;

export function workspaceView(w: Workspace, extra: Record<string, unknown> = {}) {
  return {
    workspaceId: w.id,
    tenantId: w.tenantId,
    name: w.name,
    description: w.description,
    createdBy: w.createdBy,
    createdAt: w.createdAt.toISOString(),
    ...extra,
  };
}

export function memberView(m: WorkspaceMember) {
  return {
    agentId: m.agentId,
    name: m.name,
    tenantId: m.tenantId,
    role: m.role,
    status: m.status,
    addedBy: m.addedBy,
    addedAt: m.addedAt.toISOString(),
  };
}

export function memoryView(m: WorkspaceMemory | ScoredWorkspaceMemory) {
  return {
    memoryId: m.id,
    type: m.type,
    content: m.content,
    tags: m.tags,
    author: m.authorAgentId,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    ...('score' in m ? { score: Math.round(m.score * 1000) / 1000 } : {}),
  };
}

function secretView(s: SecretEntry) {
  return { name: s.name, updatedBy: s.updatedBy, updatedAt: s.updatedAt.toISOString() };
}

export function workspaceOperations(d: WorkspaceDeps): Record<string, WorkspaceOperation> {
  const embedOne = async (content: string) => {
    const [vector] = await d.embedder.embed([content]);
    return { embedderId: d.embedder.id, vector: vector! };
  };

  /** Vectors of another embedder cannot be compared: refresh them before ranking. */
  const reembedStale = async (wsId: string) => {
    const stale = await staleWorkspaceMemories(d.sql, wsId, d.embedder.id, REEMBED_BATCH);
    if (stale.length === 0) return;
    const vectors = await d.embedder.embed(stale.map((s) => s.content));
    for (const [i, s] of stale.entries()) {
      await setWorkspaceMemoryVector(d.sql, wsId, s.id, {
        embedderId: d.embedder.id,
        vector: vectors[i]!,
      });
    }
  };

  /** The agent `agentId` names, if the caller may see it (or holds a grant with it). */
  const invitee = async (p: Principal, ref: string): Promise<AgentRecord> => {
    const agent = await d.directory.resolve(ref, p.tenantId);
    const visible =
      agent !== null &&
      (isVisibleTo(agent, p.tenantId) ||
        (p.kind === 'agent' && (await d.granted(p.agentId, agent.id))));
    if (!agent || !visible) {
      throw new HubError('AGENT_NOT_FOUND', `no agent ${ref}`, { data: { agentId: ref } });
    }
    return agent;
  };

  const member = async (p: Principal, params: unknown, allowed: readonly string[]) => {
    const q = readParams(params, ['workspaceId', ...allowed]);
    const access = await accessTo(d.sql, p, workspaceId(q));
    return { q, access, ...requireActiveMember(access) };
  };

  const seatExtra = (a: Access) =>
    a.kind === 'agent'
      ? { role: a.seat.role, status: a.seat.status, memberCount: a.seat.memberCount }
      : {};

  return {
    create: async (p, params) => {
      const q = readParams(params, ['name', 'description']);
      if (p.kind !== 'agent') {
        throw new HubError(
          'FORBIDDEN',
          'A workspace is created by an agent, its first owner: use an agent key'
        );
      }
      const name = text(q, 'name', 100, true).trim();
      const description = text(q, 'description', 1000, false) ?? '';
      const w = await createWorkspace(d.sql, {
        creator: { agentId: p.agentId, tenantId: p.tenantId },
        name,
        description,
      });
      return {
        workspace: workspaceView(w, { role: 'owner', status: 'active', memberCount: 1 }),
      };
    },

    get: async (p, params) => {
      const q = readParams(params, ['workspaceId']);
      const a = await accessTo(d.sql, p, workspaceId(q));
      const members = await listWorkspaceMembers(d.sql, workspaceOf(a).id);
      return {
        workspace: workspaceView(workspaceOf(a), seatExtra(a)),
        members: members.map(memberView),
      };
    },

    delete: async (p, params) => {
      const q = readParams(params, ['workspaceId']);
      const a = await accessTo(d.sql, p, workspaceId(q));
      requireManager(a);
      await deleteWorkspace(d.sql, workspaceOf(a).id);
      return { workspaceId: workspaceOf(a).id, deleted: true };
    },

    list: async (p, params) => {
      readParams(params, []);
      if (p.kind === 'admin') {
        const all = await listTenantWorkspaces(d.sql, p.tenantId);
        return {
          workspaces: all.map((w) => workspaceView(w, { memberCount: w.memberCount })),
          count: all.length,
        };
      }
      const seats = await listAgentWorkspaces(d.sql, p.agentId);
      return {
        workspaces: seats.map((s) =>
          workspaceView(s, { role: s.role, status: s.status, memberCount: s.memberCount })
        ),
        count: seats.length,
      };
    },

    'members.add': async (p, params) => {
      const q = readParams(params, ['workspaceId', 'agentId']);
      const a = await accessTo(d.sql, p, workspaceId(q));
      const w = workspaceOf(a);
      const ref = agentIdParam(q);
      // An invited agent joins by adding itself; nothing else is open to it until then.
      if (a.kind === 'agent' && ref === a.agentId) {
        const joined = await addWorkspaceMember(d.sql, {
          workspaceId: w.id,
          agent: { agentId: a.agentId, tenantId: p.tenantId },
          status: 'active',
          addedBy: a.agentId,
        });
        return { member: memberView(joined) };
      }
      if (a.kind === 'agent') requireActiveMember(a);
      const agent = await invitee(p, ref);
      if (agent.transport === 'official') {
        throw new InvalidParamsError('agentId', 'an official agent cannot join a workspace');
      }
      const added = await addWorkspaceMember(d.sql, {
        workspaceId: w.id,
        agent: { agentId: agent.id, tenantId: agent.tenantId },
        // Another tenant's agent is only invited: it joins (or not) with its own key.
        status: agent.tenantId === w.tenantId ? 'active' : 'invited',
        addedBy: a.kind === 'agent' ? a.agentId : w.createdBy,
      });
      return { member: memberView(added) };
    },

    'members.remove': async (p, params) => {
      const q = readParams(params, ['workspaceId', 'agentId']);
      const a = await accessTo(d.sql, p, workspaceId(q));
      const w = workspaceOf(a);
      const ref = agentIdParam(q);
      const self = a.kind === 'agent' && ref === a.agentId;
      if (!self) requireManager(a);
      const seats = await listWorkspaceMembers(d.sql, w.id);
      const seat = seats.find((s) => s.agentId === ref);
      if (seat === undefined) {
        throw new HubError('AGENT_NOT_FOUND', `agent ${ref} is not in workspace ${w.id}`, {
          data: { agentId: ref },
        });
      }
      if (seat.role === 'owner') {
        throw new InvalidParamsError(
          'agentId',
          'the owner cannot leave or be removed; delete the workspace instead'
        );
      }
      await removeWorkspaceMember(d.sql, w.id, seat.agentId);
      return { workspaceId: w.id, agentId: seat.agentId, removed: true };
    },

    'members.list': async (p, params) => {
      const q = readParams(params, ['workspaceId']);
      const a = await accessTo(d.sql, p, workspaceId(q));
      const members = await listWorkspaceMembers(d.sql, workspaceOf(a).id);
      return { members: members.map(memberView), count: members.length };
    },

    store: async (p, params) => {
      const { q, seat, agentId } = await member(p, params, ['content', 'type', 'tags']);
      const content = text(q, 'content', MAX_CONTENT_BYTES, true);
      const type = memoryType(q, DEFAULT_MEMORY_TYPE)!;
      const m = await insertWorkspaceMemory(d.sql, seat.id, {
        type,
        content,
        tags: tags(q) ?? [],
        author: agentId,
        ...(await embedOne(content)),
      });
      return { memory: memoryView(m) };
    },

    query: async (p, params) => {
      const { q, seat } = await member(p, params, ['query', 'type', 'limit', 'minScore']);
      const query = text(q, 'query', MAX_CONTENT_BYTES, true);
      const type = memoryType(q);
      const limit = wholeNumber(q, 'limit', 1, QUERY_LIMIT.max, QUERY_LIMIT.default);
      const minScore = score(q, 'minScore', MIN_QUERY_SCORE);
      await reembedStale(seat.id);
      const found = await searchWorkspaceMemories(d.sql, seat.id, {
        ...(await embedOne(query)),
        minScore,
        limit,
        ...(type === undefined ? {} : { type }),
      });
      return { memories: found.map(memoryView), count: found.length, minScore };
    },

    update: async (p, params) => {
      const { q, seat } = await member(p, params, ['memoryId', 'content', 'type', 'tags']);
      const id = memoryId(q);
      const content = text(q, 'content', MAX_CONTENT_BYTES, false);
      if (content !== undefined && content.trim() === '') {
        throw new InvalidParamsError('content', 'must be a non-empty string');
      }
      const type = memoryType(q);
      const newTags = tags(q);
      if (content === undefined && type === undefined && newTags === undefined) {
        throw new InvalidParamsError('content', 'give at least one of content, type, tags');
      }
      const m = await updateWorkspaceMemory(d.sql, seat.id, id, {
        ...(type === undefined ? {} : { type }),
        ...(newTags === undefined ? {} : { tags: newTags }),
        ...(content === undefined
          ? {}
          : { content: { text: content, ...(await embedOne(content)) } }),
      });
      if (m === null) throw memoryNotFound(id);
      return { memory: memoryView(m) };
    },

    forget: async (p, params) => {
      const { q, seat } = await member(p, params, ['memoryId']);
      const id = memoryId(q);
      const m = await deleteWorkspaceMemory(d.sql, seat.id, id);
      if (m === null) throw memoryNotFound(id);
      return { memory: memoryView(m), forgotten: true };
    },

    memories: async (p, params) => {
      const { q, seat } = await member(p, params, ['type', 'limit', 'offset']);
      const type = memoryType(q);
      const page = await listWorkspaceMemories(d.sql, seat.id, {
        limit: wholeNumber(q, 'limit', 1, LIST_LIMIT.max, LIST_LIMIT.default),
        offset: wholeNumber(q, 'offset', 0, 1_000_000, 0),
        ...(type === undefined ? {} : { type }),
      });
      return { memories: page.memories.map(memoryView), total: page.total };
    },

    types: async (p, params) => {
      const { seat } = await member(p, params, []);
      return { types: await workspaceMemoryTypes(d.sql, seat.id) };
    },

    'secrets.set': async (p, params) => {
      const { q, seat, agentId } = await member(p, params, ['name', 'value']);
      const name = secretName(q);
      const value = q.value;
      // The message never quotes the value: errors are logged and answered.
      if (typeof value !== 'string' || Buffer.byteLength(value, 'utf8') > MAX_SECRET_BYTES) {
        throw new InvalidParamsError(
          'value',
          `required: a string of at most ${MAX_SECRET_BYTES} bytes`
        );
      }
      const entry = await putWorkspaceSecret(
        d.sql,
        seat.id,
        name,
        d.box.seal(seat.id, name, value),
        agentId
      );
      return { secret: secretView(entry) };
    },

    'secrets.get': async (p, params) => {
      const { q, seat } = await member(p, params, ['name']);
      const name = secretName(q);
      const stored = await getWorkspaceSecret(d.sql, seat.id, name);
      if (stored === null) throw secretNotFound(name);
      return { ...secretView(stored), value: d.box.open(seat.id, name, stored) };
    },

    'secrets.delete': async (p, params) => {
      const { q, seat } = await member(p, params, ['name']);
      const name = secretName(q);
      if (!(await deleteWorkspaceSecret(d.sql, seat.id, name))) throw secretNotFound(name);
      return { name, deleted: true };
    },

    'secrets.list': async (p, params) => {
      const { seat } = await member(p, params, []);
      const all = await listWorkspaceSecrets(d.sql, seat.id);
      return { secrets: all.map(secretView), count: all.length };
    },
  };
}

function memoryNotFound(id: string): HubError {
  return new HubError('NOT_FOUND', `No memory ${id} in this workspace`, {
    data: { field: 'memoryId' },
  });
}

function secretNotFound(name: string): HubError {
  return new HubError('NOT_FOUND', `No secret ${name} in this workspace`, {
    data: { field: 'name' },
  });
}
