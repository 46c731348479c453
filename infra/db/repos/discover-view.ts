// What the directory shows of an agent (interface-spec "Agent (discovery record)") and who may
// see it: public agents to everyone, private ones only to their own tenant (decisions.md §5).

/**
 * The links of agents `a`, as website_url and docs_url: those set in its settings, else those of
 * its card (see burrow_card_link).
 */
export const CARD_LINKS = `coalesce(a.website_url,
    burrow_card_link(a.card -> 'provider' -> 'url')) as website_url,
  coalesce(a.docs_url, burrow_card_link(a.card -> 'documentationUrl')) as docs_url`;

/** The caller of a directory read: anonymous, or the tenant its API key belongs to. */
export interface Viewer {
  readonly tenantId?: string;
}

/** Every agent is free until the hub prices anything (issue 20: clients filter on it). */
export const PRICING = 'free';

export interface DirectoryAgent {
  id: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  avgRating: number;
  ratingCount: number;
  tenantName: string;
  tenantSlug: string;
  /** The owning tenant is verified. */
  verified: boolean;
  /** Marked by an operator (`burrow agents feature`). */
  featured: boolean;
  pricing: typeof PRICING;
  /** From the agent's settings, else the card's `provider.url` (http(s) only, 0016); or null. */
  websiteUrl: string | null;
  /** From the agent's settings, else the card's `documentationUrl`; or null. */
  docsUrl: string | null;
}

/** Columns behind DirectoryAgent; `a` is agents, `t` its tenant. */
export const DIRECTORY_COLUMNS = `a.id, a.name, a.description, a.category, a.tags,
  a.rating_avg, a.rating_count, t.name as tenant_name, t.slug as tenant_slug, a.tenant_verified,
  a.featured, ${CARD_LINKS}`;

export interface DirectoryRow {
  tenantSlug: string;
  tenantVerified: boolean;
  featured: boolean;
  websiteUrl: string | null;
  docsUrl: string | null;
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
    tenantSlug: row.tenantSlug,
    verified: row.tenantVerified,
    featured: row.featured,
    pricing: PRICING,
    websiteUrl: row.websiteUrl,
    docsUrl: row.docsUrl,
  };
}

/**
 * The visibility predicate on agents `a` for a viewer whose tenant id is parameter `$n` (null for
 * anonymous callers): live, and public or the viewer's own.
 */
export function visibleTo(param: number): string {
  return `a.deleted_at is null and (a.visibility = 'public' or a.tenant_id = $${param}::text)`;
}
