// The discovery routes in GET /openapi.json: the query schemas are the ones the routes parse with
// (params.ts), the answers are what queries.ts and the detail repo write.
import { z } from 'zod';
import type { RouteDoc } from '../http/index.js';
import { NearbyQuery, NoQuery, RateBody, SearchQuery } from './params.js';

const tags = ['Discovery'] as const;
const fresh = { 'cache-control': 'no-cache (or no-store) computes the answer afresh' };
const cacheHeader = { 'x-cache': { schema: { type: 'string', enum: ['hit', 'miss'] } } };

export const DirectoryAgentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  avgRating: z.number(),
  ratingCount: z.number().int(),
  tenantName: z.string(),
  tenantSlug: z.string(),
  verified: z.boolean(),
  featured: z.boolean(),
  pricing: z.string(),
  websiteUrl: z.string().nullable(),
  docsUrl: z.string().nullable(),
});

const Page = z.object({
  agents: z.array(DirectoryAgentSchema),
  count: z.number().int().min(0),
  offset: z.number().int().min(0).optional(),
});

const NearbyAgent = DirectoryAgentSchema.extend({
  location: z.object({
    name: z.string(),
    lat: z.number(),
    lng: z.number(),
    country: z.string(),
  }),
  distance: z.number().min(0),
});

const NearbyPage = z.object({
  agents: z.array(NearbyAgent),
  center: z.object({ lat: z.number(), lng: z.number() }),
  radius: z.number(),
  count: z.number().int().min(0),
  offset: z.number().int().min(0),
});

const Stats = z.object({
  avgRating: z.number(),
  ratingCount: z.number().int(),
  totalMessages: z.number().int(),
  successRate: z.number().min(0).max(1),
  avgResponseTime: z.number().min(0),
});

const Detail = z.object({
  agent: DirectoryAgentSchema.extend({ agentCard: z.unknown(), stats: Stats }),
  reviews: z.array(
    z.object({
      rating: z.number().int(),
      review: z.string(),
      created_at: z.number(),
      reviewer_name: z.string(),
    })
  ),
});

const Location = z.object({
  tag: z.string(),
  lat: z.number(),
  lng: z.number(),
  displayName: z.string(),
  country: z.string(),
  visibility: z.string(),
});

/** A list answer with its X-Cache header. */
const cached = (schema: z.ZodType) => ({
  200: { description: 'OK (X-Cache: hit or miss)', schema, headers: cacheHeader },
});

export const discoverDocs = {
  search: {
    summary: 'Search the directory',
    tags,
    auth: 'optionalKey',
    query: SearchQuery,
    headers: fresh,
    responses: cached(Page),
  },
  categories: {
    summary: 'Categories of the visible agents, largest first',
    tags,
    auth: 'optionalKey',
    query: NoQuery,
    headers: fresh,
    responses: cached(
      z.object({ categories: z.array(z.object({ name: z.string(), count: z.number().int() })) })
    ),
  },
  featured: {
    summary: 'Agents an operator featured',
    tags,
    auth: 'optionalKey',
    query: NoQuery,
    headers: fresh,
    responses: cached(Page),
  },
  nearby: {
    summary: 'Agents with a location within a radius, nearest first',
    tags,
    auth: 'optionalKey',
    query: NearbyQuery,
    headers: fresh,
    responses: cached(NearbyPage),
  },
  detail: {
    summary: "An agent's directory record, card, statistics and reviews",
    tags,
    auth: 'optionalKey',
    query: NoQuery,
    responses: { 200: Detail },
    errors: [404],
  },
  locations: {
    summary: "An agent's locations",
    tags,
    auth: 'optionalKey',
    query: NoQuery,
    responses: { 200: z.object({ locations: z.array(Location) }) },
    errors: [404],
  },
  rate: {
    summary: 'Rate an agent (one rating per rating agent; an agent key)',
    tags,
    auth: 'key',
    query: NoQuery,
    body: RateBody,
    responses: {
      200: z.object({ success: z.literal(true), avgRating: z.number(), ratingCount: z.number() }),
    },
    errors: [403, 404],
  },
} satisfies Record<string, RouteDoc>;
