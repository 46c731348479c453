// `location:<address>` tags geocoded for the operator CLI (interface-spec "Location tags"), as
// PATCH /api/agents/:agentId does in gateway/discover/settings-fields.ts (the gateway may not import
// infra/geo, hence the twin): every address is resolved before anything is saved, and one that
// names no place is an UNPROCESSABLE error naming the tag.
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import type { Geocoder } from './geocoder.js';

export const LOCATION_TAG_PREFIX = 'location:';

/** A location tag as the geocoder resolved it (the shape infra/db stores). */
export interface LocatedTag {
  tag: string;
  lat: number;
  lng: number;
  displayName: string;
  country: string;
}

/** Geocode every `location:` tag of `tags`, all at once; other tags are ignored. */
export async function geocodeLocationTags(
  geocoder: Geocoder,
  tags: readonly string[]
): Promise<LocatedTag[]> {
  const located = tags.filter((t) => t.startsWith(LOCATION_TAG_PREFIX));
  const addresses = located.map((tag) => {
    const address = tag.slice(LOCATION_TAG_PREFIX.length).trim();
    if (address === '') throw new InvalidParamsError('tags', `"${tag}" names no address`, { tag });
    return address;
  });
  const places = await Promise.all(addresses.map((a) => geocoder.geocode(a)));
  return located.map((tag, i) => {
    const place = places[i];
    if (place === null || place === undefined) {
      throw new HubError('UNPROCESSABLE', `Cannot geocode the address of tag "${tag}"`, {
        data: { field: 'tags', tag },
      });
    }
    return { tag, ...place };
  });
}
