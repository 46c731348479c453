// Geocoded `location:` tags and the nearby search (interface-spec "Agent location", "Location
// tags", nearby). Distances are great-circle kilometres on a sphere of the mean Earth radius
// (decisions.md §7); earthdistance's cube index narrows the candidates first.
import {
  toDirectoryAgent,
  visibleTo,
  type DirectoryAgent,
  type DirectoryRow,
  type Viewer,
} from './discover-view.js';
import type { Queryable } from './sql.js';

/** Mean Earth radius (IUGG), km: what `distance` is measured on. */
export const EARTH_RADIUS_KM = 6371.0088;

/** A `location:` tag as the geocoder resolved it. */
export interface AgentLocationInput {
  /** The whole tag, `location:<address>`. */
  tag: string;
  lat: number;
  lng: number;
  displayName: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

export interface AgentLocation extends AgentLocationInput {
  /** The agent's visibility: who may find it at this place. */
  visibility: string;
}

/**
 * Make the agent's stored locations exactly `locations` (in tag order). Call inside the
 * transaction that writes the tags, so the two never disagree.
 */
export async function replaceAgentLocations(
  sql: Queryable,
  agentId: string,
  locations: readonly AgentLocationInput[]
): Promise<void> {
  await sql`delete from agent_locations where agent_id = ${agentId}`;
  if (locations.length === 0) return;
  const rows = locations.map((l, position) => ({
    tag: l.tag,
    lat: l.lat,
    lng: l.lng,
    display_name: l.displayName,
    country: l.country,
    position,
  }));
  await sql`
    insert into agent_locations (agent_id, tag, lat, lng, display_name, country, pos, position)
    select ${agentId}, r.tag, r.lat, r.lng, r.display_name, r.country,
      ll_to_earth(r.lat, r.lng), r.position
    from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as r(tag text, lat float8,
      lng float8, display_name text, country text, position int)`;
}

/** Drop stored locations whose tag is no longer among `tags` (tags set without geocoding). */
export async function pruneAgentLocations(
  sql: Queryable,
  agentId: string,
  tags: readonly string[]
): Promise<void> {
  await sql`
    delete from agent_locations
    where agent_id = ${agentId} and tag <> all(${sql.array([...tags])}::text[])`;
}

/** Every location of the agent, or null when `viewer` may not see the agent. */
export async function listAgentLocations(
  sql: Queryable,
  viewer: Viewer,
  agentId: string
): Promise<AgentLocation[] | null> {
  const rows = await sql.unsafe<
    Array<{ visible: boolean } & Partial<AgentLocationInput> & { visibility: string }>
  >(
    `select true as visible, l.tag, l.lat, l.lng, l.display_name, l.country, a.visibility
     from agents a left join agent_locations l on l.agent_id = a.id
     where a.id = $2 and ${visibleTo(1)}
     order by l.position`,
    [viewer.tenantId ?? null, agentId],
    { prepare: true }
  );
  if (rows.length === 0) return null;
  return rows
    .filter((r) => r.tag !== null && r.tag !== undefined)
    .map((r) => ({
      tag: r.tag as string,
      lat: r.lat as number,
      lng: r.lng as number,
      displayName: r.displayName as string,
      country: r.country as string,
      visibility: r.visibility,
    }));
}

export interface NearbySearch {
  lat: number;
  lng: number;
  radiusKm: number;
  tag?: string;
  category?: string;
  limit: number;
  offset: number;
}

export interface NearbyAgent extends DirectoryAgent {
  location: { name: string; lat: number; lng: number; country: string };
  /** Kilometres from the centre to the agent's nearest location. */
  distance: number;
}

/**
 * Agents `viewer` may see with a location within the radius, nearest first (each agent once, at
 * its nearest location), and how many there are in all.
 */
export async function nearbyAgents(
  sql: Queryable,
  viewer: Viewer,
  s: NearbySearch
): Promise<{ agents: NearbyAgent[]; count: number }> {
  const params: unknown[] = [viewer.tenantId ?? null, s.lat, s.lng, s.radiusKm];
  const p = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const filters: string[] = [];
  if (s.tag !== undefined) filters.push(`a.tag_keys @> array[burrow_fold(${p(s.tag)})]`);
  if (s.category !== undefined) filters.push(`a.category_key = burrow_fold(${p(s.category)})`);
  const limit = p(s.limit);
  const offset = p(s.offset);
  // earth_distance is in earth() units (metres on its own sphere); scaled to the mean radius.
  // The box is a cube around the centre that holds every point within the radius.
  const rows = await sql.unsafe<
    Array<
      DirectoryRow & {
        locName: string;
        locLat: number;
        locLng: number;
        locCountry: string;
        distance: number;
        total: string;
      }
    >
  >(
    `with centre as materialized (
       select ll_to_earth($2, $3) as pos, earth() / ${EARTH_RADIUS_KM} as units_per_km
     ), hits as (
       select distinct on (l.agent_id) l.agent_id, l.display_name, l.lat, l.lng, l.country,
         earth_distance(l.pos, c.pos) / c.units_per_km as distance
       from agent_locations l, centre c
       where earth_box(c.pos, $4 * c.units_per_km) @> l.pos
         and earth_distance(l.pos, c.pos) / c.units_per_km <= $4
       order by l.agent_id, distance, l.position
     ),
     page as (
       select a.id, a.tenant_id, a.name, a.description, a.category, a.tags, a.rating_avg,
         a.rating_count, h.display_name as loc_name, h.lat as loc_lat, h.lng as loc_lng,
         h.country as loc_country, h.distance, count(*) over () as total,
         row_number() over (order by h.distance, a.id) as n
       from hits h join agents a on a.id = h.agent_id
       where ${[visibleTo(1), ...filters].join(' and ')}
       order by h.distance, a.id
       limit ${limit} offset ${offset}
     )
     select page.*, t.name as tenant_name
     from page join tenants t on t.id = page.tenant_id
     order by page.n`,
    params as never[],
    { prepare: true }
  );
  let count = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && s.offset > 0) {
    const [counted] = await sql.unsafe<Array<{ total: string }>>(
      `with centre as materialized (
         select ll_to_earth($2, $3) as pos, earth() / ${EARTH_RADIUS_KM} as units_per_km
       )
       select count(distinct l.agent_id) as total
       from agent_locations l cross join centre c
         join agents a on a.id = l.agent_id
       where earth_box(c.pos, $4 * c.units_per_km) @> l.pos
         and earth_distance(l.pos, c.pos) / c.units_per_km <= $4
         and ${[visibleTo(1), ...filters].join(' and ')}`,
      params.slice(0, params.length - 2) as never[],
      { prepare: true }
    );
    count = Number(counted?.total ?? 0);
  }
  return {
    count,
    agents: rows.map((r) => ({
      ...toDirectoryAgent(r),
      location: { name: r.locName, lat: r.locLat, lng: r.locLng, country: r.locCountry },
      distance: Math.round(r.distance * 1000) / 1000,
    })),
  };
}
