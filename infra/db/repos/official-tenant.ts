// The hub's own tenant, which owns the official agents. Its id, name and slug are reserved: no
// customer tenant can take them (tenants.repo.ts), so seeding never collides.
export const OFFICIAL_TENANT = {
  id: 'ten-official',
  name: 'Burrow',
  slug: 'official',
  verified: true,
} as const;
