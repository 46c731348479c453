// Query strings and bodies of the discovery endpoints (interface-spec "Discovery (REST)"), checked
// with zod: every parameter typed and range-checked, unknown and repeated parameters refused, and
// every mistake a 400 naming the parameter (decisions.md §6).
import { z } from 'zod';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { parseParams } from '../../runtime/protocol/index.js';
import { parseJsonObject, parseQuery, queryInteger } from '../http/index.js';
import type { DirectorySearch, NearbySearch } from '../../infra/db/index.js';

/** Search `limit` and nearby `limit`/`radius` (interface-spec "Limits"). */
export const DiscoverLimits = {
  search: { defaultLimit: 10, maxLimit: 50 },
  nearby: { defaultLimit: 20, maxLimit: 50, defaultRadiusKm: 10, maxRadiusKm: 500 },
  maxOffset: 1_000_000,
  maxQueryLength: 200,
  /** Words of `q` beyond these are not searched. */
  maxQueryWords: 8,
  maxReview: 2000,
  /** Kept directory answers per node, in characters of JSON (answer-cache.ts): ~32 MB. */
  answerCacheChars: 32 * 1024 * 1024,
  /** Typo expansions of query words kept per node (QueryExpansions). */
  keptQueryExpansions: 10_000,
} as const;

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `holds at most ${max} characters`);

// Published in /openapi.json as an integer with its range (a string pattern said less).
const whole = queryInteger;

const decimal = (min: number, max: number) =>
  z
    .string()
    .regex(/^[-+]?(\d+(\.\d*)?|\.\d+)$/, 'must be a decimal number')
    .transform(Number)
    .pipe(z.number().min(min).max(max));

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** Codes CLDR names that are no country: groupings, pseudo-locales, "Unknown Region". */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code, e.g. FR')
  // Only a well-formed code reaches Intl (it throws on other shapes).
  .refine(
    (code) =>
      !/^[A-Z]{2}$/.test(code) || (!NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined),
    'is not a known country code'
  );

/** `type/subtype` or `type/*`, as in a card's input and output modes. */
const MediaType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/,
    'must be a media type such as image/png or image/*'
  );

const Bool = z.enum(['true', 'false', '1', '0'], 'must be true or false');

export const SearchQuery = z.strictObject({
  q: z.string().trim().max(DiscoverLimits.maxQueryLength).optional(),
  query: z.string().trim().max(DiscoverLimits.maxQueryLength).optional(),
  category: text(100).optional(),
  tag: text(200).optional(),
  skillTag: text(200).optional(),
  contentMode: MediaType.optional(),
  owner: text(200).optional(),
  // The GopherHole clients' older name for owner; they send both when given it.
  organization: text(200).optional(),
  verified: Bool.optional(),
  // `smart` is what those clients call the default order (relevance with a query, else rating).
  sort: z.enum(['relevance', 'rating', 'popular', 'recent', 'smart']).optional(),
  limit: whole(1, DiscoverLimits.search.maxLimit).optional(),
  offset: whole(0, DiscoverLimits.maxOffset).optional(),
  scope: z.enum(['tenant']).optional(),
  country: CountryCode.optional(),
  // What the GopherHole clients' findBestAgent sends; every agent is free until pricing exists.
  pricing: z.enum(['free', 'paid', 'all'], 'must be free, paid or all').optional(),
});

export const NearbyQuery = z.strictObject({
  lat: decimal(-90, 90),
  lng: decimal(-180, 180),
  radius: decimal(0, DiscoverLimits.nearby.maxRadiusKm)
    .refine((r) => r > 0, 'must be more than 0')
    .optional(),
  tag: text(200).optional(),
  category: text(100).optional(),
  limit: whole(1, DiscoverLimits.nearby.maxLimit).optional(),
  offset: whole(0, DiscoverLimits.maxOffset).optional(),
});

/** A parsed search: the repo's query plus what only the route needs. */
export interface SearchRequest {
  search: DirectorySearch;
  /** scope=tenant: a key is required. */
  tenantOnly: boolean;
}

/** The words of a text query: letters and digits only, so nothing reaches SQL as syntax. */
export function queryWords(q: string): string[] {
  return q
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .slice(0, DiscoverLimits.maxQueryWords);
}

export function parseSearch(raw: string): SearchRequest {
  const p = parseQuery(SearchQuery, raw);
  if (p.q !== undefined && p.q !== '' && p.query !== undefined && p.query !== '') {
    throw new InvalidParamsError('query', 'is another name for q: give one of them');
  }
  const q = p.q || p.query || '';
  const words = queryWords(q);
  if (q !== '' && words.length === 0) {
    throw new InvalidParamsError(p.q ? 'q' : 'query', 'must hold at least one letter or digit');
  }
  if (p.owner !== undefined && p.organization !== undefined && p.owner !== p.organization) {
    throw new InvalidParamsError('organization', 'is another name for owner: give one of them');
  }
  const owner = p.owner ?? p.organization;
  if (p.sort === 'relevance' && words.length === 0) {
    throw new InvalidParamsError('sort', 'relevance needs a text query (q)');
  }
  const tenantOnly = p.scope === 'tenant';
  const search: DirectorySearch = {
    words,
    sort:
      p.sort !== undefined && p.sort !== 'smart'
        ? p.sort
        : words.length > 0
          ? 'relevance'
          : 'rating',
    tenantOnly,
    // scope=tenant returns all of the tenant's agents (interface-spec "Limits").
    limit: tenantOnly ? undefined : (p.limit ?? DiscoverLimits.search.defaultLimit),
    offset: p.offset ?? 0,
  };
  if (p.category !== undefined) search.category = p.category;
  if (p.tag !== undefined) search.tag = p.tag;
  if (p.skillTag !== undefined) search.skillTag = p.skillTag;
  if (p.contentMode !== undefined) search.contentMode = p.contentMode;
  if (owner !== undefined) search.owner = owner;
  if (p.verified !== undefined) search.verified = p.verified === 'true' || p.verified === '1';
  if (p.country !== undefined) search.country = p.country;
  // free and all match every agent, so only paid (which matches none yet) is a filter.
  if (p.pricing === 'paid') search.pricing = 'paid';
  return { search, tenantOnly };
}

export function parseNearby(raw: string): NearbySearch {
  const p = parseQuery(NearbyQuery, raw);
  const s: NearbySearch = {
    lat: p.lat,
    lng: p.lng,
    radiusKm: p.radius ?? DiscoverLimits.nearby.defaultRadiusKm,
    limit: p.limit ?? DiscoverLimits.nearby.defaultLimit,
    offset: p.offset ?? 0,
  };
  if (p.tag !== undefined) s.tag = p.tag;
  if (p.category !== undefined) s.category = p.category;
  return s;
}

export const RateBody = z.object({
  rating: z.number().int().min(1).max(5),
  review: z.string().max(DiscoverLimits.maxReview).default(''),
});
export type RateBody = z.infer<typeof RateBody>;

/** The body of a rating: a JSON object `{rating, review?}`. */
export function parseRate(body: Buffer): RateBody {
  const value = parseJsonObject(
    body,
    () => new InvalidParamsError('body', 'must be a JSON object {"rating": 1..5, "review": "…"}')
  );
  const unknown = Object.keys(value).filter((k) => k !== 'rating' && k !== 'review');
  if (unknown[0] !== undefined) {
    throw new InvalidParamsError(unknown[0], 'unknown field; accepted: rating, review');
  }
  return parseParams(RateBody, value);
}

/** No parameters: anything given is a mistake worth naming. */
export const NoQuery = z.strictObject({});

export function noParams(raw: string): void {
  parseQuery(NoQuery, raw);
}
