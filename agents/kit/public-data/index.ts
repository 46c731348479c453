// The public-data helper of the kit (data-sources.md §0): the agent definition built from skills,
// and the upstream client with its shared cache, token bucket, provenance and honest failures.
export {
  definePublicDataAgent,
  skill,
  sourceLine,
  type PublicSkill,
  type PublicDataAgentDef,
  type SkillReply,
} from './define.js';
export {
  Upstream,
  retryAfterMs,
  type Provenance,
  type UpstreamOptions,
  type GetRequest,
  type RawRequest,
  type RawAnswer,
  type Remembered,
} from './upstream.js';
export { upstreamOptions } from './settings.js';
export { readPages, readRows, type PageRead, type Pages } from './paging.js';
export {
  clamp,
  limitField,
  limitIn,
  limitOf,
  words,
  without,
  MAX_LIMIT,
  DEFAULT_LIMIT,
} from './text.js';
export {
  EntityBatch,
  KINDS,
  SCHEMES,
  normIdentifier,
  normName,
  recordEntities,
  type Kind,
  type RecordScope,
} from './entities/index.js';
