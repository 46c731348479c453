// Geocoded `location:` tags and the nearby search (interface-spec "Agent location", "Location
// tags", nearby). Distances are great-circle kilometres on a sphere of the mean Earth radius
// (decisions.md §7); earthdistance's cube index narrows the candidates first.
import {
  DIRECTORY_COLUMNS,
  toDirectoryAgent,
  visibleTo,
  type DirectoryAgent,
  type DirectoryRow,
  type Viewer,
} from './discover-view.js';
import { GENERATION_COLUMN, type AtGeneration } from './discover-search.repo.js';
import { jsonText, type Queryable } from './sql.js';

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
    from jsonb_to_recordset(${jsonText(rows)}::text::jsonb) as r(tag text, lat float8,
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
  return (await nearbyAgentsAt(sql, viewer, s)).result;
}

type NearbyRow = Partial<DirectoryRow> & {
  locName: string;
  locLat: number;
  locLng: number;
  locCountry: string;
  distance: number;
  total: string;
  generation: string;
};

/**
 * nearbyAgents and the directory generation, in one statement. The places in the radius come from
 * the location index alone (the 0013 migration copies visibility and filters onto each location);
 * only the page's agents and locations are read in full.
 */
export async function nearbyAgentsAt(
  sql: Queryable,
  viewer: Viewer,
  s: NearbySearch
): Promise<AtGeneration<{ agents: NearbyAgent[]; count: number }>> {
  const params: unknown[] = [viewer.tenantId ?? null, s.lat, s.lng, s.radiusKm];
  const p = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const filters = [`l.live and (l.public or l.tenant_id = $1::text)`];
  if (s.tag !== undefined) filters.push(`l.tag_keys @> array[burrow_fold(${p(s.tag)})]`);
  if (s.category !== undefined) filters.push(`l.category_key = burrow_fold(${p(s.category)})`);
  const limit = p(s.limit);
  const offset = p(s.offset);
  // earth_distance(a, b) is sec_to_gc(cube_distance(a, b)): a SQL function that is not inlined
  // (it uses its argument three times), which cost more than the rest of the search together.
  // The same arithmetic is written out here, so distances are bit for bit what it returns. They
  // are in earth() units (metres on its own sphere), scaled to the mean radius. The box is a cube
  // around the centre that holds every point within the radius.
  const rows = await sql.unsafe<NearbyRow[]>(
    `with centre as materialized (
       select ll_to_earth($2, $3) as pos, earth() as r, earth() / ${EARTH_RADIUS_KM} as units_per_km
     ), hits as materialized (
       select distinct on (l.agent_id) l.agent_id, l.tag, d.distance
       from agent_locations l
         cross join centre c
         cross join lateral (select cube_distance(l.pos, c.pos) as chord) k
         cross join lateral (select
           case when k.chord < 0 then 0::float8
                when k.chord / (2 * c.r) > 1 then pi() * c.r
                else 2 * c.r * asin(k.chord / (2 * c.r)) end / c.units_per_km as distance) d
       where earth_box(c.pos, $4 * c.units_per_km) @> l.pos
         and d.distance <= $4
         and ${filters.join(' and ')}
       order by l.agent_id, d.distance, l.position
     ), page as (
       select h.* from hits h order by h.distance, h.agent_id limit ${limit} offset ${offset}
     )
     select counted.total, ${GENERATION_COLUMN}, ${DIRECTORY_COLUMNS}, h.distance,
       l.display_name as loc_name, l.lat as loc_lat, l.lng as loc_lng, l.country as loc_country
     from (select count(*) as total from hits) counted
       left join page h on true
       left join agent_locations l on l.agent_id = h.agent_id and l.tag = h.tag
       left join agents a on a.id = h.agent_id
       left join tenants t on t.id = a.tenant_id
     order by h.distance, h.agent_id`,
    params as never[],
    { prepare: true }
  );
  return {
    result: {
      count: Number(rows[0]?.total ?? 0),
      agents: rows
        .filter((r) => typeof r.id === 'string')
        .map((r) => ({
          ...toDirectoryAgent(r as DirectoryRow),
          location: { name: r.locName, lat: r.locLat, lng: r.locLng, country: r.locCountry },
          distance: Math.round(r.distance * 1000) / 1000,
        })),
    },
    generation: rows[0]?.generation ?? '0',
  };
}
