// The directory's list queries (search, nearby, categories, featured) and their answer bodies, as
// the REST routes answer them; the vendor JSON-RPC methods (vendor-methods.ts) run the same ones,
// so both give the same body for the same parameters and viewer. Answers are kept per node
// (answer-cache.ts) unless the caller asks for a fresh one.
import {
  directoryGeneration,
  listCategoriesAt,
  listFeaturedAt,
  nearbyAgentsAt,
  QueryExpansions,
  searchAgentsAt,
  type AtGeneration,
  type NearbySearch,
  type Queryable,
  type Viewer,
} from '../../infra/db/index.js';
import { UnauthenticatedError } from '../../runtime/errors/index.js';
import { AnswerCache, type AnswerCacheOptions } from './answer-cache.js';
import { DiscoverLimits, type SearchRequest } from './params.js';
import { GenerationReader, type LiveDirectory } from '../../actors/index.js';
import type { UsageCounts } from './usage.js';

export interface DiscoverQueriesDeps {
  readonly sql: Queryable;
  readonly usage: Pick<UsageCounts, 'ensureFresh'>;
  /** Kept answers; false reads every answer afresh. Default: DiscoverLimits.answerCacheChars. */
  readonly cache?: AnswerCacheOptions | false;
  /** The directory in this node's memory; searches and nearby use SQL without it. */
  readonly live?: LiveDirectory;
}

/** An answer body as JSON text, and whether it was kept or read afresh. */
export interface DiscoverAnswer {
  readonly body: string;
  readonly cache: 'hit' | 'miss';
}

export interface DiscoverQueries {
  /** `{agents, count, offset}`; scope=tenant needs a viewer with a tenant (401). */
  search(who: Viewer, req: SearchRequest, fresh: boolean): Promise<DiscoverAnswer>;
  /** `{agents, center, radius, count, offset}`. */
  nearby(who: Viewer, s: NearbySearch, fresh: boolean): Promise<DiscoverAnswer>;
  /** `{categories}`. */
  categories(who: Viewer, fresh: boolean): Promise<DiscoverAnswer>;
  /** `{agents, count}`. */
  featured(who: Viewer, fresh: boolean): Promise<DiscoverAnswer>;
}

export function discoverQueries(d: DiscoverQueriesDeps): DiscoverQueries {
  const cache =
    d.cache === false
      ? undefined
      : new AnswerCache(d.cache ?? { maxChars: DiscoverLimits.answerCacheChars });
  const live = d.live;
  const generations =
    live === undefined
      ? new GenerationReader(() => directoryGeneration(d.sql))
      : { current: () => live.currentGeneration() };
  const expansions = new QueryExpansions(DiscoverLimits.keptQueryExpansions);

  /**
   * The kept answer for `key` if still current, else `read` afresh. Answers read with SQL are
   * kept; answers computed from the in-memory directory are not: computing one again costs less
   * than keeping thousands of them alive for the garbage collector (measured: the search
   * benchmark's p99 went from 18-20 ms to 11 ms without them).
   */
  const answer = async <T>(
    fresh: boolean,
    key: string,
    read: () => Promise<AtGeneration<T> & { fromMemory?: boolean }>,
    shape: (result: T) => unknown
  ): Promise<DiscoverAnswer> => {
    if (!fresh && cache?.has(key)) {
      const body = cache.get(key, await generations.current());
      if (body !== undefined) return { body, cache: 'hit' };
    }
    const { result, generation, fromMemory } = await read();
    const body = JSON.stringify(shape(result));
    if (fromMemory !== true) cache?.set(key, BigInt(generation), body);
    return { body, cache: 'miss' };
  };

  /** The answer from memory when the node's directory can give it, else from SQL. */
  const either = async <T>(
    memory: (() => Promise<AtGeneration<T> | undefined>) | undefined,
    sql: () => Promise<AtGeneration<T>>
  ): Promise<AtGeneration<T> & { fromMemory?: boolean }> => {
    const m = memory === undefined ? undefined : await memory();
    return m === undefined ? sql() : { ...m, fromMemory: true };
  };

  return {
    async search(who, { search, tenantOnly }, fresh) {
      if (tenantOnly && who.tenantId === undefined) {
        throw new UnauthenticatedError('scope=tenant needs an API key');
      }
      if (search.sort === 'popular') await d.usage.ensureFresh();
      return answer(
        fresh,
        JSON.stringify(['search', who.tenantId ?? null, search]),
        () =>
          either(live && (() => live.search(who, search)), () =>
            searchAgentsAt(d.sql, who, search, expansions)
          ),
        (page) => ({ agents: page.agents, count: page.count, offset: search.offset })
      );
    },
    nearby(who, s, fresh) {
      return answer(
        fresh,
        JSON.stringify(['nearby', who.tenantId ?? null, s]),
        () => either(live && (() => live.nearby(who, s)), () => nearbyAgentsAt(d.sql, who, s)),
        (found) => ({
          agents: found.agents,
          center: { lat: s.lat, lng: s.lng },
          radius: s.radiusKm,
          count: found.count,
          offset: s.offset,
        })
      );
    },
    categories(who, fresh) {
      return answer(
        fresh,
        JSON.stringify(['categories', who.tenantId ?? null]),
        () => listCategoriesAt(d.sql, who),
        (categories) => ({ categories })
      );
    },
    featured(who, fresh) {
      return answer(
        fresh,
        JSON.stringify(['featured', who.tenantId ?? null]),
        () => listFeaturedAt(d.sql, who),
        (agents) => ({ agents, count: agents.length })
      );
    },
  };
}
