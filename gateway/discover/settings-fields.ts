// The directory's fields of PATCH /api/agents/:agentId (interface-spec "Agent settings", "Location
// tags"): tags (a string holding a JSON array), visibility, category, description, and the links
// clients show (websiteUrl, docsUrl; issue 20). Each
// `location:<address>` tag is geocoded before anything is saved; an address that names no place is
// a 422 naming the tag (decisions.md §6, §10), and then nothing of the request is saved.
import {
  AgentLimits,
  Visibilities,
  type Visibility,
  validateLink,
  validateTags,
  type AgentLocationInput,
  type AgentSettingsPatch,
} from '../../infra/db/index.js';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import type { SettingsField } from '../api/agents-routes.js';
import type { Geocoder } from './geocoder.js';

export const LOCATION_PREFIX = 'location:';

/**
 * The tags as sent: a string holding a JSON array of strings (what the spec's clients send), or
 * the array itself.
 */
export function readTags(value: unknown): string[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      throw new InvalidParamsError('tags', 'must be a string holding a JSON array of strings');
    }
  }
  const tags = validateTags(list);
  for (const tag of tags) {
    if (tag.startsWith(LOCATION_PREFIX) && tag.slice(LOCATION_PREFIX.length).trim() === '') {
      throw new InvalidParamsError('tags', `"${tag}" names no address`, { tag });
    }
  }
  return tags;
}

/** Geocode every location tag, all at once; the first that names no place is a 422. */
export async function geocodeTags(
  geocoder: Geocoder,
  tags: readonly string[]
): Promise<AgentLocationInput[]> {
  const located = tags.filter((t) => t.startsWith(LOCATION_PREFIX));
  const places = await Promise.all(
    located.map((tag) => geocoder.geocode(tag.slice(LOCATION_PREFIX.length).trim()))
  );
  return located.map((tag, i) => {
    const place = places[i];
    if (place === null || place === undefined) {
      throw new HubError('UNPROCESSABLE', `Cannot geocode the address of tag "${tag}"`, {
        data: { field: 'tags', tag },
      });
    }
    return {
      tag,
      lat: place.lat,
      lng: place.lng,
      displayName: place.displayName,
      country: place.country,
    };
  });
}

function readVisibility(value: unknown): Visibility {
  // The dashboard writes `Public`; any case is accepted.
  const v = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  const known = Visibilities.find((x) => x === v);
  if (known === undefined) {
    throw new InvalidParamsError('visibility', 'must be "public", "private" or "unlisted"');
  }
  return known;
}

function readCategory(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') {
    throw new InvalidParamsError('category', 'must be a string, or null to clear it');
  }
  const c = value.trim();
  if (c.length > AgentLimits.maxCategory) {
    throw new InvalidParamsError(
      'category',
      `must be at most ${AgentLimits.maxCategory} characters`
    );
  }
  return c === '' ? null : c;
}

function readDescription(value: unknown): string {
  if (typeof value !== 'string') throw new InvalidParamsError('description', 'must be a string');
  const d = value.trim();
  if (d.length > AgentLimits.maxDescription) {
    throw new InvalidParamsError(
      'description',
      `must be at most ${AgentLimits.maxDescription} characters`
    );
  }
  return d;
}

/** The PATCH fields the directory adds to the queue settings (see agentSettingsRoutes). */
export function directorySettingsFields(
  geocoder: Geocoder
): Readonly<Record<string, SettingsField>> {
  return Object.freeze({
    tags: async (v: unknown): Promise<Partial<AgentSettingsPatch>> => {
      const tags = readTags(v);
      return { tags, locations: await geocodeTags(geocoder, tags) };
    },
    visibility: (v: unknown) => ({ visibility: readVisibility(v) }),
    category: (v: unknown) => ({ category: readCategory(v) }),
    description: (v: unknown) => ({ description: readDescription(v) }),
    // Shown in discovery records before the card's provider.url / documentationUrl.
    websiteUrl: (v: unknown) => ({ websiteUrl: validateLink('websiteUrl', v) }),
    docsUrl: (v: unknown) => ({ docsUrl: validateLink('docsUrl', v) }),
  });
}
