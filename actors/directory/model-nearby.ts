// The nearby search answered from the in-memory model, with the SQL's semantics
// (infra/db locations.repo.ts nearbyAgentsAt): each visible agent once, at its nearest location
// within the radius (ties: the earlier tag), nearest first and then by id. Distances use the
// SQL's arithmetic step for step (cube_distance between earth() points, then the arc), from the
// points PostgreSQL stored, so the answers agree to the last printed digit.
import {
  EARTH_RADIUS_KM,
  type NearbyAgent,
  type NearbySearch,
  type Viewer,
} from '../../infra/db/index.js';
import { listing } from './model-search.js';
import { firstN } from './search-order.js';
import { SlotList } from './slot-list.js';
import {
  CELL_DEG,
  LAT_CELLS,
  latCell,
  LNG_CELLS,
  lngCell,
  type Cell,
  type DirectoryModel,
  type ModelLocation,
  type SlotIndex,
} from './directory-model.js';
import { hasSlot, orSlots, scratchBits, wordsFor } from './slot-bits.js';
import { PUBLIC } from './slot-columns.js';

/** earthdistance's earth(): the radius of its sphere, in its units (metres). */
const EARTH = 6378168;
const UNITS_PER_KM = EARTH / EARTH_RADIUS_KM;
/** PostgreSQL's RADIANS_PER_DEGREE (0.0174532925199432957692) as the double it becomes. */
const RADIANS_PER_DEGREE = 0.017453292519943295;

export interface ResolvedNearby {
  readonly search: NearbySearch;
  readonly tagKey?: string;
  readonly categoryKey?: string;
}

// Scratch space of the search running now, by slot (searches run one at a time on the loop): the
// nearest place's distance and position, and where it is (its cell's key and index there), in
// typed arrays: a slot-long array of references would be one more object of megabytes for every
// collection of the old generation to mark.
let bestDistance = new Float64Array(1024);
let bestPosition = new Int32Array(1024);
let bestCell = new Int32Array(1024);
let bestIndex = new Int32Array(1024);
/** The slots this search found (nearbyModel never yields: one list serves every search). */
const foundList = new SlotList();

/**
 * Size the scratch space for `slots` slots. A whole read calls it before its model answers: made
 * by the first search instead, tens of megabytes at once bring a collection of the whole heap
 * (tens of ms at a million agents) into the middle of serving.
 */
export function reserveNearbyScratch(slots: number): void {
  if (bestDistance.length >= slots) return;
  const size = Math.max(slots, Math.ceil(bestDistance.length * 1.5));
  bestDistance = new Float64Array(size);
  bestPosition = new Int32Array(size);
  bestCell = new Int32Array(size);
  bestIndex = new Int32Array(size);
}

export function nearbyModel(
  model: DirectoryModel,
  viewer: Viewer,
  r: ResolvedNearby
): { agents: NearbyAgent[]; count: number } {
  const s = r.search;
  const latR = s.lat * RADIANS_PER_DEGREE;
  const lngR = s.lng * RADIANS_PER_DEGREE;
  const cx = EARTH * Math.cos(latR) * Math.cos(lngR);
  const cy = EARTH * Math.cos(latR) * Math.sin(lngR);
  const cz = EARTH * Math.sin(latR);
  const viewerOrd = model.tenantOrdinal(viewer.tenantId);
  const { flags, tenant } = model.cols;
  // The filters as sets of slots, tested a bit per place (an agent's record is a string to decode).
  const tagBits = r.tagKey === undefined ? undefined : memberBits(model, model.tags, r.tagKey, 0);
  const categoryBits =
    r.categoryKey === undefined ? undefined : memberBits(model, model.categories, r.categoryKey, 1);

  // The cells the radius can reach, a little wider than the arc so rounding never leaves one
  // out; the box and distance tests below are the exact ones.
  const spanDeg = (s.radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI) + 0.01;
  const south = s.lat - spanDeg;
  const north = s.lat + spanDeg;
  const widest = Math.max(Math.abs(south), Math.abs(north));
  const lngSpan = widest >= 89.9 ? 360 : spanDeg / Math.cos((widest * Math.PI) / 180);
  const firstLng = lngSpan >= 180 ? 0 : lngCell(s.lng - lngSpan);
  const lngCount =
    lngSpan >= 180 ? LNG_CELLS : Math.min(LNG_CELLS, Math.ceil((2 * lngSpan) / CELL_DEG) + 2);
  const firstLat = latCell(Math.max(-90, south));
  const lastLat = Math.min(LAT_CELLS - 1, latCell(Math.min(90, north)));
  // No point farther than this chord (plus a metre for rounding) is within the radius: a cheap
  // box test before the arc, as the SQL's earth_box before its distance.
  const reach =
    2 * EARTH * Math.sin(Math.min(Math.PI / 2, (s.radiusKm * UNITS_PER_KM) / (2 * EARTH))) + 1;
  // Per slot, this search's nearest place and its distance; `found` lists each slot once.
  const stamp = model.nextStamp();
  const { seen } = model.cols;
  reserveNearbyScratch(seen.length);
  const found = foundList;
  found.reset();
  for (let la = firstLat; la <= lastLat; la++) {
    for (let k = 0; k < lngCount; k++) {
      const key = la * LNG_CELLS + ((firstLng + k) % LNG_CELLS);
      const cell = model.cells.get(key);
      if (cell === undefined) continue;
      const { x, y, z, slot: slots, position } = cell;
      for (let j = 0; j < x.length; j++) {
        const dx = (x[j] as number) - cx;
        const dy = (y[j] as number) - cy;
        const dz = (z[j] as number) - cz;
        if (dx > reach || dx < -reach || dy > reach || dy < -reach || dz > reach || dz < -reach) {
          continue;
        }
        const slot = slots[j] as number;
        if (((flags[slot] as number) & PUBLIC) === 0 && tenant[slot] !== viewerOrd) continue;
        const distance = arcKm(dx, dy, dz);
        if (!(distance <= s.radiusKm)) continue;
        if (tagBits !== undefined && !hasSlot(tagBits, slot)) continue;
        if (categoryBits !== undefined && !hasSlot(categoryBits, slot)) continue;
        if (seen[slot] !== stamp) {
          seen[slot] = stamp;
          found.push(slot);
          bestDistance[slot] = distance;
          bestPosition[slot] = position[j] as number;
          bestCell[slot] = key;
          bestIndex[slot] = j;
        } else if (
          distance < (bestDistance[slot] as number) ||
          (distance === bestDistance[slot] &&
            (position[j] as number) < (bestPosition[slot] as number))
        ) {
          bestDistance[slot] = distance;
          bestPosition[slot] = position[j] as number;
          bestCell[slot] = key;
          bestIndex[slot] = j;
        }
      }
    }
  }
  // Nearest first, then by id; only as far as the page needs.
  const top = firstN(found.view(), s.offset + s.limit, (a, b) => {
    const da = bestDistance[a] as number;
    const db = bestDistance[b] as number;
    if (da !== db) return da < db;
    return model.idBefore(a, b);
  });
  return {
    count: found.length,
    agents: top.slice(s.offset).map((slot) => {
      // The cells are as the scan found them: the search has not yielded since.
      const cell = model.cells.get(bestCell[slot] as number) as Cell;
      const j = bestIndex[slot] as number;
      const place = cell.places[j] as ModelLocation;
      // Added to the listing in place: a spread into a new object cost more than the search.
      return Object.assign(listing(model, place.slot), {
        location: {
          name: place.displayName,
          lat: cell.lat[j] as number,
          lng: cell.lng[j] as number,
          country: place.country,
        },
        distance: Math.round((bestDistance[slot] as number) * 1000) / 1000,
      });
    }),
  };
}

/** The slots holding `value` in `index` as a bitset: the index's own, or one made in scratch k. */
function memberBits(
  model: DirectoryModel,
  index: SlotIndex,
  value: string,
  k: number
): Uint32Array {
  const own = index.bitsOf(value);
  if (own !== undefined) return own;
  const words = wordsFor(model.slotSpan);
  const bits = scratchBits(k, words);
  bits.fill(0, 0, words);
  orSlots(bits, index.get(value));
  return bits;
}

/** Kilometres along the sphere for a chord of (dx, dy, dz) earth() units, as the SQL computes it. */
function arcKm(dx: number, dy: number, dz: number): number {
  let sum = 0;
  sum += dx * dx;
  sum += dy * dy;
  sum += dz * dz;
  const chord = Math.sqrt(sum);
  const arc =
    chord < 0
      ? 0
      : chord / (2 * EARTH) > 1
        ? Math.PI * EARTH
        : 2 * EARTH * Math.asin(chord / (2 * EARTH));
  return arc / UNITS_PER_KM;
}
