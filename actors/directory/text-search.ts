// In-memory PostgreSQL full-text search for the directory: tsvector/tsquery text parsed back
// (ts-parse.ts) and `@@` / `ts_rank` evaluated bit for bit as PostgreSQL 15 does (ts-rank.ts), so a
// search over cached agents orders and filters exactly like the SQL one it stands in for.
export {
  compareLexemes,
  MAX_POSITION,
  parseTsQuery,
  parseTsVector,
  positionsAt,
  queryTerms,
  requiresMatch,
  type TsAnd,
  type TsNot,
  type TsOr,
  type TsQuery,
  type TsTerm,
  type TsVector,
} from './ts-parse.js';
export { hasLexeme, lowerBound, orEntryTerm, rankPlanOf, tsMatch, tsRank } from './ts-rank.js';
