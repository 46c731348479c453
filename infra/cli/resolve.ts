// Turning command-line names into records: a tenant by id or slug, with a message that says which.
import { getTenant, type Queryable, type Tenant } from '../db/index.js';
import { HubError } from '../../runtime/errors/index.js';

/** The tenant named by `--tenant` (id or slug); NOT_FOUND otherwise. */
export async function requireTenant(sql: Queryable, idOrSlug: string): Promise<Tenant> {
  const tenant = await getTenant(sql, idOrSlug);
  if (!tenant) {
    throw new HubError('NOT_FOUND', `tenant "${idOrSlug}" not found (give its id or slug)`, {
      data: { field: 'tenant' },
    });
  }
  return tenant;
}
