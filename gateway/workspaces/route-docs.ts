// Workspaces in the API documents: one params and one result schema per operation (service.ts,
// params.ts), used for the x-gopherhole/workspace.* methods in GET /openrpc.json and, with the
// path segments taken out of the params, for the REST routes in GET /openapi.json.
import { z } from 'zod';
import { WORKSPACE_ID, WORKSPACE_MEMORY_ID } from '../../infra/db/index.js';
import { queryInteger, type RouteDoc } from '../http/index.js';
import {
  MAX_CONTENT_BYTES,
  MAX_SECRET_BYTES,
  MAX_TAGS,
  MEMORY_TYPE,
  SECRET_NAME,
} from './params.js';
import { LIST_LIMIT, QUERY_LIMIT } from './service.js';

const iso = z.iso.datetime({ offset: true });
const WorkspaceId = z.string().regex(WORKSPACE_ID);
const MemoryId = z.string().regex(WORKSPACE_MEMORY_ID);
const AgentRef = z.string().min(1).max(200).describe('An agent id or alias');
const MemoryType = z.string().regex(MEMORY_TYPE);
const Tags = z.array(z.string().min(1).max(50)).max(MAX_TAGS);
const Content = z.string().min(1).describe(`At most ${MAX_CONTENT_BYTES} bytes (UTF-8)`);
const SecretName = z.string().regex(SECRET_NAME);
const Role = z.enum(['owner', 'member']);
const MemberStatus = z.enum(['active', 'invited']);

const Workspace = z.object({
  workspaceId: z.string(),
  tenantId: z.string(),
  name: z.string(),
  description: z.string(),
  createdBy: z.string(),
  createdAt: iso,
});
/** With an agent key, the caller's own seat; a tenant admin key has none. */
const SeatFields = {
  role: Role.optional(),
  status: MemberStatus.optional(),
  memberCount: z.number().int().min(0).optional(),
};
const Member = z.object({
  agentId: z.string(),
  name: z.string(),
  tenantId: z.string(),
  role: Role,
  status: MemberStatus,
  addedBy: z.string(),
  addedAt: iso,
});
const Memory = z.object({
  memoryId: z.string(),
  type: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  author: z.string(),
  createdAt: iso,
  updatedAt: iso,
});
const Secret = z.object({ name: z.string(), updatedBy: z.string(), updatedAt: iso });

const inWs = { workspaceId: WorkspaceId };

interface Operation {
  readonly summary: string;
  readonly params: z.ZodObject;
  readonly result: z.ZodType;
  /** REST errors beyond the implied ones (WORKSPACE_NOT_FOUND 404, FORBIDDEN 403, ...). */
  readonly errors: readonly number[];
}

/** Memories and secrets: only an active member agent; else 403, or 404 for no seat. */
const memberOnly = [403, 404] as const;

export const workspaceOperationDocs = {
  create: {
    summary: 'Create a workspace; the calling agent is its owner',
    params: z.strictObject({
      name: z.string().min(1).max(100),
      description: z.string().max(1000).nullish(),
    }),
    result: z.object({
      workspace: Workspace.extend({ role: Role, status: MemberStatus, memberCount: z.number() }),
    }),
    errors: [403],
  },
  list: {
    summary:
      "The caller agent's workspaces (invitations included), or all of a tenant admin's tenant",
    params: z.strictObject({}),
    result: z.object({
      workspaces: z.array(Workspace.extend(SeatFields)),
      count: z.number().int().min(0),
    }),
    errors: [],
  },
  get: {
    summary: 'A workspace and its members',
    params: z.strictObject(inWs),
    result: z.object({ workspace: Workspace.extend(SeatFields), members: z.array(Member) }),
    errors: [404],
  },
  delete: {
    summary: 'Delete a workspace with its memories and secrets (its owner or tenant admin)',
    params: z.strictObject(inWs),
    result: z.object({ workspaceId: z.string(), deleted: z.literal(true) }),
    errors: [403, 404],
  },
  'members.list': {
    summary: "A workspace's members",
    params: z.strictObject(inWs),
    result: z.object({ members: z.array(Member), count: z.number().int().min(0) }),
    errors: [404],
  },
  'members.add': {
    summary: "Add an agent (another tenant's is invited); an invited agent adding itself joins",
    params: z.strictObject({ ...inWs, agentId: AgentRef }),
    result: z.object({ member: Member }),
    errors: [403, 404],
  },
  'members.remove': {
    summary: 'Remove a member (owner or tenant admin), or leave (the member itself)',
    params: z.strictObject({ ...inWs, agentId: AgentRef }),
    result: z.object({ workspaceId: z.string(), agentId: z.string(), removed: z.literal(true) }),
    errors: [403, 404],
  },
  memories: {
    summary: "A page of the workspace's memories, newest first",
    params: z.strictObject({
      ...inWs,
      type: MemoryType.nullish(),
      limit: z.number().int().min(1).max(LIST_LIMIT.max).nullish(),
      offset: z.number().int().min(0).max(1_000_000).nullish(),
    }),
    result: z.object({ memories: z.array(Memory), total: z.number().int().min(0) }),
    errors: memberOnly,
  },
  store: {
    summary: 'Store a memory (embedded for search)',
    params: z.strictObject({
      ...inWs,
      content: Content,
      type: MemoryType.nullish().describe('note when absent'),
      tags: Tags.nullish(),
    }),
    result: z.object({ memory: Memory }),
    errors: memberOnly,
  },
  query: {
    summary: 'The memories closest in meaning to a text, best first',
    params: z.strictObject({
      ...inWs,
      query: Content,
      type: MemoryType.nullish(),
      limit: z.number().int().min(1).max(QUERY_LIMIT.max).nullish(),
      minScore: z.number().min(-1).max(1).nullish(),
    }),
    result: z.object({
      memories: z.array(Memory.extend({ score: z.number() })),
      count: z.number().int().min(0),
      minScore: z.number(),
    }),
    errors: memberOnly,
  },
  update: {
    summary: "Change a memory's content, type or tags (at least one)",
    params: z.strictObject({
      ...inWs,
      memoryId: MemoryId,
      content: Content.nullish(),
      type: MemoryType.nullish(),
      tags: Tags.nullish(),
    }),
    result: z.object({ memory: Memory }),
    errors: memberOnly,
  },
  forget: {
    summary: 'Delete a memory',
    params: z.strictObject({ ...inWs, memoryId: MemoryId }),
    result: z.object({ memory: Memory, forgotten: z.literal(true) }),
    errors: memberOnly,
  },
  types: {
    summary: "The workspace's memory types with their counts, most used first",
    params: z.strictObject(inWs),
    result: z.object({
      types: z.array(z.object({ type: z.string(), count: z.number().int().min(0) })),
    }),
    errors: memberOnly,
  },
  'secrets.set': {
    summary: 'Store a secret (encrypted at rest), replacing one of the same name',
    params: z.strictObject({
      ...inWs,
      name: SecretName,
      value: z.string().describe(`At most ${MAX_SECRET_BYTES} bytes (UTF-8)`),
    }),
    result: z.object({ secret: Secret }),
    errors: memberOnly,
  },
  'secrets.get': {
    summary: 'A secret with its value',
    params: z.strictObject({ ...inWs, name: SecretName }),
    result: Secret.extend({ value: z.string() }),
    errors: memberOnly,
  },
  'secrets.delete': {
    summary: 'Delete a secret',
    params: z.strictObject({ ...inWs, name: SecretName }),
    result: z.object({ name: z.string(), deleted: z.literal(true) }),
    errors: memberOnly,
  },
  'secrets.list': {
    summary: "The workspace's secret names (never their values)",
    params: z.strictObject(inWs),
    result: z.object({ secrets: z.array(Secret), count: z.number().int().min(0) }),
    errors: memberOnly,
  },
} satisfies Record<string, Operation>;

export type WorkspaceOperationName = keyof typeof workspaceOperationDocs;

/** Path segments and how REST reads the rest of the params (JSON body, or query for reads). */
export function workspaceRouteDoc(
  op: WorkspaceOperationName,
  input: { status: number; body?: readonly string[]; query?: readonly string[] }
): RouteDoc {
  const d: Operation = workspaceOperationDocs[op];
  const pick = (keys: readonly string[]) =>
    z.strictObject(Object.fromEntries(keys.map((k) => [k, d.params.shape[k]!])));
  return {
    summary: d.summary,
    description: `The REST form of x-gopherhole/workspace.${op}.`,
    tags: ['Workspaces'],
    auth: 'key',
    ...(input.body ? { body: pick(input.body) } : {}),
    ...(input.query ? { query: queryOf(pick(input.query)) } : {}),
    responses: { [input.status]: d.result },
    // A malformed id or name in the path is 400 naming it, as in the method's params.
    errors: 'workspaceId' in d.params.shape ? [400, ...d.errors] : d.errors,
  };
}

/**
 * A query string holds text: a number of the method's params is read from its digits, with the
 * params' own range (so /openapi.json publishes it as an integer with that range).
 */
function queryOf(params: z.ZodObject): z.ZodObject {
  return z.strictObject(
    Object.fromEntries(
      Object.entries(params.shape as Record<string, z.ZodType>).map(([k, schema]) => {
        let inner: z.ZodType = schema;
        while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) {
          inner = (inner as z.ZodOptional<z.ZodType> | z.ZodNullable<z.ZodType>).unwrap();
        }
        const read =
          inner instanceof z.ZodNumber
            ? queryInteger(inner.minValue ?? 0, inner.maxValue ?? Number.MAX_SAFE_INTEGER)
            : inner;
        return [k, read.optional()];
      })
    )
  );
}
