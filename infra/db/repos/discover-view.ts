// What the directory shows of an agent (interface-spec "Agent (discovery record)") and who may
// see it: public agents to everyone, private ones only to their own tenant (decisions.md §5).

/** The caller of a directory read: anonymous, or the tenant its API key belongs to. */
export interface Viewer {
  readonly tenantId?: string;
}

export interface DirectoryAgent {
  id: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  avgRating: number;
  ratingCount: number;
  tenantName: string;
}

/** Columns behind DirectoryAgent; `a` is agents, `t` its tenant. */
export const DIRECTORY_COLUMNS = `a.id, a.name, a.description, a.category, a.tags,
  a.rating_avg, a.rating_count, t.name as tenant_name`;

export interface DirectoryRow {
  id: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  ratingAvg: number;
  ratingCount: number;
  tenantName: string;
}

export function toDirectoryAgent(row: DirectoryRow): DirectoryAgent {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    tags: row.tags,
    avgRating: row.ratingAvg,
    ratingCount: row.ratingCount,
    tenantName: row.tenantName,
  };
}

/**
 * The visibility predicate on agents `a` for a viewer whose tenant id is parameter `$n` (null for
 * anonymous callers): live, and public or the viewer's own.
 */
export function visibleTo(param: number): string {
  return `a.deleted_at is null and (a.visibility = 'public' or a.tenant_id = $${param}::text)`;
}
