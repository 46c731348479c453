// The public-data agents' settings (trials, fda, epa, patents, and the agents after them): the
// User-Agent, limits and cache every upstream call shares, and each upstream's URL, key and the
// request rate the hub allows itself. Part of the one configuration (schema.ts spreads these
// variables into ConfigSchema and this object into Config.publicData); read only by loadConfig.
import { z } from 'zod';
import { positiveInt } from './env-types.js';

export const publicDataEnv = {
  /** Public-data agents (trials, fda, epa, patents): the User-Agent every upstream call sends. */
  PUBLIC_DATA_USER_AGENT: z
    .string()
    .min(1)
    .default('Burrow-hub/1.0 (official public-data agents; operator: set PUBLIC_DATA_USER_AGENT)'),
  PUBLIC_DATA_TIMEOUT_MS: positiveInt.default(15_000),
  /** The largest upstream answer read (bytes); a larger one fails the task. */
  PUBLIC_DATA_MAX_BYTES: positiveInt.default(16 * 1024 * 1024),
  /** Pages of one upstream answer followed at most (each page is one request). */
  PUBLIC_DATA_MAX_PAGES: positiveInt.max(50).default(5),
  /** How long an upstream answer is reused (the cache is in PostgreSQL, shared by every node). */
  PUBLIC_DATA_CACHE_TTL_SECONDS: positiveInt.default(21_600),
  /** trials: ClinicalTrials.gov API v2 (no key). */
  TRIALS_URL: z.url({ protocol: /^https?$/ }).default('https://clinicaltrials.gov/api/v2'),
  TRIALS_REQUESTS_PER_MINUTE: positiveInt.default(50),
  /** fda: openFDA; the key is optional (it raises the daily quota). */
  FDA_URL: z.url({ protocol: /^https?$/ }).default('https://api.fda.gov'),
  FDA_API_KEY: z.string().min(1).optional(),
  FDA_REQUESTS_PER_MINUTE: positiveInt.default(240),
  /** epa: EPA ECHO REST services (no key). */
  EPA_URL: z.url({ protocol: /^https?$/ }).default('https://echodata.epa.gov/echo'),
  EPA_REQUESTS_PER_MINUTE: positiveInt.default(30),
  /** patents: USPTO Open Data Portal (key required), or a PatentsView-compatible host. */
  PATENTS_URL: z.url({ protocol: /^https?$/ }).default('https://api.uspto.gov'),
  PATENTS_PROVIDER: z.enum(['odp', 'patentsview']).default('odp'),
  PATENTS_API_KEY: z.string().min(1).optional(),
  PATENTS_REQUESTS_PER_MINUTE: positiveInt.default(45),
  /** usaspending: the USAspending.gov API (no key). */
  USASPENDING_URL: z.url({ protocol: /^https?$/ }).default('https://api.usaspending.gov'),
  USASPENDING_REQUESTS_PER_MINUTE: positiveInt.default(60),
  /** rfp-hunter: SAM.gov Get Opportunities (key required) and Grants.gov (no key). */
  SAM_URL: z.url({ protocol: /^https?$/ }).default('https://api.sam.gov'),
  SAM_API_KEY: z.string().min(1).optional(),
  SAM_REQUESTS_PER_MINUTE: positiveInt.default(10),
  GRANTS_GOV_URL: z.url({ protocol: /^https?$/ }).default('https://api.grants.gov'),
  GRANTS_GOV_REQUESTS_PER_MINUTE: positiveInt.default(60),
  /** sec-filings, insider-trades, companies: SEC EDGAR's three hosts (no key). */
  SEC_URL: z.url({ protocol: /^https?$/ }).default('https://www.sec.gov'),
  SEC_DATA_URL: z.url({ protocol: /^https?$/ }).default('https://data.sec.gov'),
  SEC_EFTS_URL: z.url({ protocol: /^https?$/ }).default('https://efts.sec.gov/LATEST'),
  /** The SEC refuses a User-Agent without a contact email; PUBLIC_DATA_USER_AGENT when unset. */
  SEC_USER_AGENT: z.string().min(1).optional(),
  /** The SEC's fair-access limit is 10 per second; one limiter per node for every SEC agent. */
  SEC_REQUESTS_PER_SECOND: positiveInt.max(10).default(10),
  /** companies: GLEIF's LEI records (no key). */
  GLEIF_URL: z.url({ protocol: /^https?$/ }).default('https://api.gleif.org/api/v1'),
  GLEIF_REQUESTS_PER_MINUTE: positiveInt.default(60),
  /** companies: UK Companies House (the key is the HTTP Basic user; unset: "not configured"). */
  COMPANIES_HOUSE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://api.company-information.service.gov.uk'),
  COMPANIES_HOUSE_API_KEY: z.string().min(1).optional(),
  COMPANIES_HOUSE_PER_MINUTE: positiveInt.default(120),
  /**
   * Entity graph: the pg_trgm similarity of two normalised company names at or above which they
   * are linked (same_as, score kept); "ACME PHARMA" ~ "ACME PHARMACEUTICALS" is 0.5.
   */
  ENTITY_NAME_THRESHOLD: z.coerce.number().min(0.1).max(1).default(0.45),
  /** research: how long it waits for the other public-data agents when filling the graph. */
  RESEARCH_FILL_TIMEOUT_MS: positiveInt.max(55_000).default(15_000),
  /**
   * lobbying: the LDA API at lda.gov (the lda.senate.gov host is sunset on 2026-06-30). The token
   * is optional; it raises LDA's limit from 15 to 120 requests a minute, the default rate here.
   */
  LOBBYING_URL: z.url({ protocol: /^https?$/ }).default('https://lda.gov/api/v1'),
  LOBBYING_API_KEY: z.string().min(1).optional(),
  LOBBYING_REQUESTS_PER_MINUTE: positiveInt.optional(),
  /** research-grants: NIH RePORTER v2 (about 1 request a second) and NSF awards (no keys). */
  RESEARCH_GRANTS_NIH_URL: z.url({ protocol: /^https?$/ }).default('https://api.reporter.nih.gov'),
  RESEARCH_GRANTS_NIH_REQUESTS_PER_MINUTE: positiveInt.default(60),
  RESEARCH_GRANTS_NSF_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://api.nsf.gov/services/v1'),
  RESEARCH_GRANTS_NSF_REQUESTS_PER_MINUTE: positiveInt.default(60),
  /** congress-trades: the House Clerk's disclosures (yearly {YEAR}FD.zip index, PTR PDFs). */
  CONGRESS_HOUSE_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://disclosures-clerk.house.gov/public_disc'),
  CONGRESS_HOUSE_REQUESTS_PER_MINUTE: positiveInt.default(30),
  /** congress-trades: the Senate's eFD search (agreement step with CSRF, DataTables paging). */
  CONGRESS_SENATE_URL: z.url({ protocol: /^https?$/ }).default('https://efdsearch.senate.gov'),
  CONGRESS_SENATE_REQUESTS_PER_MINUTE: positiveInt.default(20),
  /** congress-trades: reports (PDFs, pages) read at most for one request, newest first. */
  CONGRESS_MAX_REPORTS: positiveInt.max(200).default(20),
  /** news: GDELT DOC 2.0 (no key; one request per 5 s per address, so 12 a minute). */
  NEWS_URL: z.url({ protocol: /^https?$/ }).default('https://api.gdeltproject.org/api/v2'),
  NEWS_REQUESTS_PER_MINUTE: positiveInt.default(12),
  /** news: how long an answer is reused (the spec: 4 hours). */
  NEWS_CACHE_TTL_SECONDS: positiveInt.default(14_400),
  /** reddit: the .json listings without OAuth; with a client id and secret, the OAuth host. */
  REDDIT_URL: z.url({ protocol: /^https?$/ }).default('https://www.reddit.com'),
  REDDIT_OAUTH_URL: z.url({ protocol: /^https?$/ }).default('https://oauth.reddit.com'),
  REDDIT_CLIENT_ID: z.string().min(1).optional(),
  REDDIT_CLIENT_SECRET: z.string().min(1).optional(),
  /** Reddit's required form: <platform>:<app id>:<version> (by /u/<username>). */
  REDDIT_USER_AGENT: z
    .string()
    .regex(
      /^[\w.-]+:[\w.-]+:[\w.-]+ \(by \/u\/[\w-]+\)$/,
      'must look like <platform>:<app id>:<version> (by /u/<username>)'
    )
    .default('server:burrow-hub:1.0 (by /u/burrow-hub-operator)'),
  /** Unset: Reddit's allowance, 10 a minute keyless or 100 with OAuth. */
  REDDIT_REQUESTS_PER_MINUTE: positiveInt.optional(),
  /** reddit: how long an answer is reused (the spec: 1 hour). */
  REDDIT_CACHE_TTL_SECONDS: positiveInt.default(3_600),
  /** trade: US Census international trade time series (key optional). */
  CENSUS_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://api.census.gov/data/timeseries/intltrade'),
  CENSUS_API_KEY: z.string().min(1).optional(),
  CENSUS_REQUESTS_PER_MINUTE: positiveInt.default(30),
  /** trade: UN Comtrade; without a key, the public preview (at most 500 rows an answer). */
  COMTRADE_URL: z.url({ protocol: /^https?$/ }).default('https://comtradeapi.un.org'),
  COMTRADE_API_KEY: z.string().min(1).optional(),
  COMTRADE_REQUESTS_PER_MINUTE: positiveInt.default(30),
};

/** One upstream of a public-data agent: where it is, and the request rate the hub allows itself. */
export interface UpstreamSettings {
  readonly url: string;
  readonly requestsPerMinute: number;
}

export interface PublicDataSettings {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxPages: number;
  readonly cacheTtlSeconds: number;
  readonly trials: UpstreamSettings;
  readonly fda: UpstreamSettings & { readonly apiKey: string | undefined };
  readonly epa: UpstreamSettings;
  readonly patents: UpstreamSettings & {
    readonly provider: 'odp' | 'patentsview';
    readonly apiKey: string | undefined;
  };
  readonly usaspending: UpstreamSettings;
  readonly sam: UpstreamSettings & { readonly apiKey: string | undefined };
  readonly grantsGov: UpstreamSettings;
  readonly sec: SecSettings;
  readonly gleif: UpstreamSettings;
  readonly companiesHouse: UpstreamSettings & { readonly apiKey: string | undefined };
  /** Entity graph: least trigram similarity of two names that links them. */
  readonly entityNameThreshold: number;
  readonly research: { readonly fillTimeoutMs: number };
  readonly lobbying: UpstreamSettings & { readonly apiKey: string | undefined };
  readonly researchGrants: { readonly nih: UpstreamSettings; readonly nsf: UpstreamSettings };
  readonly congress: {
    readonly house: UpstreamSettings;
    readonly senate: UpstreamSettings;
    readonly maxReports: number;
  };
  readonly news: UpstreamSettings & { readonly cacheTtlSeconds: number };
  readonly reddit: RedditSettings;
  readonly trade: {
    readonly census: UpstreamSettings & { readonly apiKey: string | undefined };
    readonly comtrade: UpstreamSettings & { readonly apiKey: string | undefined };
  };
}

/** reddit: the keyless host, or the OAuth host when a client id and secret are set. */
export interface RedditSettings extends UpstreamSettings {
  readonly oauthUrl: string;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly userAgent: string;
  readonly cacheTtlSeconds: number;
}

/** SEC EDGAR, shared by sec-filings, insider-trades and companies. */
export interface SecSettings {
  /** www.sec.gov: company_tickers.json, the Archives, the getcurrent feed. */
  readonly url: string;
  /** data.sec.gov: submissions. */
  readonly dataUrl: string;
  /** efts.sec.gov/LATEST: full-text search. */
  readonly eftsUrl: string;
  readonly userAgent: string | undefined;
  readonly requestsPerSecond: number;
}

export function publicDataOf(env: z.output<z.ZodObject<typeof publicDataEnv>>): PublicDataSettings {
  return Object.freeze({
    userAgent: env.PUBLIC_DATA_USER_AGENT,
    timeoutMs: env.PUBLIC_DATA_TIMEOUT_MS,
    maxBytes: env.PUBLIC_DATA_MAX_BYTES,
    maxPages: env.PUBLIC_DATA_MAX_PAGES,
    cacheTtlSeconds: env.PUBLIC_DATA_CACHE_TTL_SECONDS,
    trials: Object.freeze({
      url: env.TRIALS_URL,
      requestsPerMinute: env.TRIALS_REQUESTS_PER_MINUTE,
    }),
    fda: Object.freeze({
      url: env.FDA_URL,
      apiKey: env.FDA_API_KEY,
      requestsPerMinute: env.FDA_REQUESTS_PER_MINUTE,
    }),
    epa: Object.freeze({ url: env.EPA_URL, requestsPerMinute: env.EPA_REQUESTS_PER_MINUTE }),
    patents: Object.freeze({
      url: env.PATENTS_URL,
      provider: env.PATENTS_PROVIDER,
      apiKey: env.PATENTS_API_KEY,
      requestsPerMinute: env.PATENTS_REQUESTS_PER_MINUTE,
    }),
    usaspending: Object.freeze({
      url: env.USASPENDING_URL,
      requestsPerMinute: env.USASPENDING_REQUESTS_PER_MINUTE,
    }),
    sam: Object.freeze({
      url: env.SAM_URL,
      apiKey: env.SAM_API_KEY,
      requestsPerMinute: env.SAM_REQUESTS_PER_MINUTE,
    }),
    grantsGov: Object.freeze({
      url: env.GRANTS_GOV_URL,
      requestsPerMinute: env.GRANTS_GOV_REQUESTS_PER_MINUTE,
    }),
    sec: Object.freeze({
      url: env.SEC_URL,
      dataUrl: env.SEC_DATA_URL,
      eftsUrl: env.SEC_EFTS_URL,
      userAgent: env.SEC_USER_AGENT,
      requestsPerSecond: env.SEC_REQUESTS_PER_SECOND,
    }),
    gleif: Object.freeze({
      url: env.GLEIF_URL,
      requestsPerMinute: env.GLEIF_REQUESTS_PER_MINUTE,
    }),
    companiesHouse: Object.freeze({
      url: env.COMPANIES_HOUSE_URL,
      apiKey: env.COMPANIES_HOUSE_API_KEY,
      requestsPerMinute: env.COMPANIES_HOUSE_PER_MINUTE,
    }),
    entityNameThreshold: env.ENTITY_NAME_THRESHOLD,
    research: Object.freeze({ fillTimeoutMs: env.RESEARCH_FILL_TIMEOUT_MS }),
    lobbying: Object.freeze({
      url: env.LOBBYING_URL,
      apiKey: env.LOBBYING_API_KEY,
      // LDA's own limits: 15 a minute without a token, 120 with one.
      requestsPerMinute:
        env.LOBBYING_REQUESTS_PER_MINUTE ?? (env.LOBBYING_API_KEY !== undefined ? 120 : 15),
    }),
    researchGrants: Object.freeze({
      nih: Object.freeze({
        url: env.RESEARCH_GRANTS_NIH_URL,
        requestsPerMinute: env.RESEARCH_GRANTS_NIH_REQUESTS_PER_MINUTE,
      }),
      nsf: Object.freeze({
        url: env.RESEARCH_GRANTS_NSF_URL,
        requestsPerMinute: env.RESEARCH_GRANTS_NSF_REQUESTS_PER_MINUTE,
      }),
    }),
    congress: Object.freeze({
      house: Object.freeze({
        url: env.CONGRESS_HOUSE_URL,
        requestsPerMinute: env.CONGRESS_HOUSE_REQUESTS_PER_MINUTE,
      }),
      senate: Object.freeze({
        url: env.CONGRESS_SENATE_URL,
        requestsPerMinute: env.CONGRESS_SENATE_REQUESTS_PER_MINUTE,
      }),
      maxReports: env.CONGRESS_MAX_REPORTS,
    }),
    news: Object.freeze({
      url: env.NEWS_URL,
      requestsPerMinute: env.NEWS_REQUESTS_PER_MINUTE,
      cacheTtlSeconds: env.NEWS_CACHE_TTL_SECONDS,
    }),
    reddit: Object.freeze({
      url: env.REDDIT_URL,
      oauthUrl: env.REDDIT_OAUTH_URL,
      clientId: env.REDDIT_CLIENT_ID,
      clientSecret: env.REDDIT_CLIENT_SECRET,
      userAgent: env.REDDIT_USER_AGENT,
      requestsPerMinute:
        env.REDDIT_REQUESTS_PER_MINUTE ?? (env.REDDIT_CLIENT_ID !== undefined ? 100 : 10),
      cacheTtlSeconds: env.REDDIT_CACHE_TTL_SECONDS,
    }),
    trade: Object.freeze({
      census: Object.freeze({
        url: env.CENSUS_URL,
        apiKey: env.CENSUS_API_KEY,
        requestsPerMinute: env.CENSUS_REQUESTS_PER_MINUTE,
      }),
      comtrade: Object.freeze({
        url: env.COMTRADE_URL,
        apiKey: env.COMTRADE_API_KEY,
        requestsPerMinute: env.COMTRADE_REQUESTS_PER_MINUTE,
      }),
    }),
  });
}
