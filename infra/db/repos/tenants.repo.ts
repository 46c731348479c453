// Tenants (organisations): creation with a unique slug, look-up by id or slug (decisions.md §5).
import { HubError } from '../../../runtime/errors/index.js';
import { newTenantId } from './keys.js';
import { OFFICIAL_TENANT } from './official-tenant.js';
import { firstRow, inTransaction, isUniqueViolation, type Queryable } from './sql.js';
import { requiredText } from './validate.js';

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly verified: boolean;
  readonly createdAt: Date;
}

const MAX_NAME = 200;
const MAX_SLUG_BASE = 48;
/** Concurrent creates of look-alike names may race for a slug; each retry sees the winner. */
const SLUG_ATTEMPTS = 5;

/** `Acme Corp.` → `acme-corp`: lowercase, runs of other characters → '-', trimmed of '-'. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_BASE)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'tenant' : slug;
}

/**
 * Create a tenant. Its slug is slugify(name), with `-2`, `-3`… appended when taken. Throws
 * CONFLICT (data.field `name`) when the name is taken, INVALID_PARAMS on a bad name.
 */
export async function createTenant(
  sql: Queryable,
  input: { name: string; verified?: boolean }
): Promise<Tenant> {
  const name = requiredText('name', input.name, MAX_NAME);
  if (name === OFFICIAL_TENANT.name) throw nameTaken(name);
  const base = slugify(name);
  for (let attempt = 1; ; attempt++) {
    const slug = await freeSlug(sql, base);
    try {
      // A savepoint inside a caller's transaction, so a lost slug race can be retried.
      const rows = await inTransaction(
        sql,
        (tx) => tx<Tenant[]>`
          insert into tenants (id, name, slug, verified)
          values (${newTenantId()}, ${name}, ${slug}, ${input.verified ?? false})
          returning id, name, slug, verified, created_at`
      );
      return firstRow(rows, 'insert into tenants');
    } catch (err) {
      if (isUniqueViolation(err, 'tenants_name_key')) throw nameTaken(name);
      if (isUniqueViolation(err, 'tenants_slug_key') && attempt < SLUG_ATTEMPTS) continue;
      throw err;
    }
  }
}

/** The tenant with this id or slug, or null. */
export async function getTenant(sql: Queryable, idOrSlug: string): Promise<Tenant | null> {
  const [row] = await sql<Tenant[]>`
    select id, name, slug, verified, created_at from tenants
    where id = ${idOrSlug} or slug = ${idOrSlug}
    order by (id = ${idOrSlug}) desc
    limit 1`;
  return row ?? null;
}

/** Every tenant, oldest first. */
export async function listTenants(sql: Queryable): Promise<Tenant[]> {
  return sql<Tenant[]>`
    select id, name, slug, verified, created_at from tenants order by created_at, id`;
}

/** `base` if free (and not reserved), else the lowest free `base-N` with N ≥ 2. */
async function freeSlug(sql: Queryable, base: string): Promise<string> {
  const rows = await sql<{ slug: string }[]>`
    select slug from tenants
    where slug = ${base} or (left(slug, ${base.length + 1}) = ${`${base}-`} and slug ~ '-[0-9]+$')`;
  const taken = new Set(rows.map((r) => r.slug));
  if (base === OFFICIAL_TENANT.slug) taken.add(base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function nameTaken(name: string): HubError {
  return new HubError('CONFLICT', `a tenant named "${name}" already exists`, {
    data: { field: 'name' },
  });
}
