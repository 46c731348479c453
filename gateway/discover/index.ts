// The discovery directory (issue 5): REST routes and the vendor JSON-RPC methods (issue 20) over
// the same queries, their parameter parsing, the directory's fields of PATCH /api/agents/:agentId,
// and the popularity recount.
export { discoverRoutes, type DiscoverRoutesDeps } from './routes.js';
export {
  discoverQueries,
  type DiscoverQueries,
  type DiscoverQueriesDeps,
  type DiscoverAnswer,
} from './queries.js';
export {
  vendorMethods,
  VendorMethod,
  type GrantedAgents,
  type VendorMethodHandler,
} from './vendor-methods.js';
export {
  directorySettingsFields,
  geocodeTags,
  readTags,
  LOCATION_PREFIX,
} from './settings-fields.js';
export {
  DiscoverLimits,
  parseNearby,
  parseRate,
  parseSearch,
  queryWords,
  type SearchRequest,
} from './params.js';
export { UsageCounts } from './usage.js';
export { LiveDirectory, type LiveDirectoryOptions } from '../../actors/index.js';
export type { GeocodedPlace, Geocoder } from './geocoder.js';
