// The SEC EDGAR client shared by the SEC-backed agents (sec-filings, insider-trades, companies):
// one per-node rate limit, tickers, submissions, the Archives, full-text search, ownership forms.
export {
  SEC_SOURCE,
  EFTS_SOURCE,
  secClient,
  secBucket,
  cik10,
  accessionFolder,
  filingUrl,
  documentUrl,
  type SecClient,
} from './client.js';
export {
  tickerFile,
  matchCompanies,
  distinctCiks,
  findCompany,
  type CompanyMatch,
  normalName,
  TICKERS_TTL_MS,
  type ListedCompany,
  type TickerFile,
} from './tickers.js';
export {
  submissions,
  filingsOf,
  zipFilings,
  type Filing,
  type FilingList,
  type FilingQuery,
  type Profile,
  type Address,
  type Submissions,
} from './submissions.js';
export {
  filingIndex,
  filingDocument,
  normalAccession,
  rawOwnershipDocument,
  type FilingFile,
  type FilingIndex,
} from './archives.js';
export { fullTextSearch, type SearchHit, type SearchQuery, type SearchResult } from './efts.js';
export {
  parseOwnership,
  relationship,
  TRANSACTION_CODES,
  type OwnershipForm,
  type ReportingOwner,
  type Transaction,
} from './ownership.js';
export {
  executivesOf,
  executivesFromForms,
  readOwnershipForms,
  peoNames,
  OWNERSHIP_FORMS,
  type Executive,
  type ExecutivesFound,
  type ProxyExecutive,
  type ReadForm,
} from './insiders.js';
