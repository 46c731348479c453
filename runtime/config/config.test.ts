// loadConfig is pure: an environment in, a frozen Config or a ConfigError naming the variables
// out. Defaults here are the documented ones (README "Configuration").
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigSchema, loadConfig, redactedConfig } from './index.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults', () => {
  it('works on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      natsServers: ['nats://127.0.0.1:4222'],
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/burrow',
      databasePoolSize: 10,
      directoryInMemory: true,
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'http://127.0.0.1:8080',
      adminToken: undefined,
      metricsToken: undefined,
      metricsPerAgent: false,
      logLevel: 'info',
      logFormat: 'text',
      nodeId: expect.stringMatching(/^node-[0-9a-f]{8}$/) as unknown,
      partitions: 32,
      natsReplicas: 1,
      heartbeatMs: 2000,
      nodeTtlMs: 10000,
      lockInactiveMs: 10000,
      logCompaction: { minRecords: 20_000, factor: 4 },
      bodyLimitBytes: 1024 * 1024,
      shutdownTimeoutMs: 8000,
      healthCheckTimeoutMs: 1000,
      debugEnabled: true,
      wsHighWaterBytes: 262144,
      wsOutboxFrames: 1000,
      wsKeyRecheckMs: 30_000,
      httpAgentTimeoutMs: 30_000,
      queue: {
        drainPerSecond: 10,
        httpRetryMs: 300_000,
        busyRetryMs: 5_000,
        cleanupAtMinute: 0,
        senderMaxPending: 50,
        tenantMaxPending: 10_000,
      },
      geocoder: { url: undefined, timeoutMs: 5_000 },
      rateLimitPerMinute: 1200,
      embeddings: {
        url: undefined,
        model: 'text-embedding-3-small',
        apiKey: undefined,
        timeoutMs: 10_000,
      },
      agents: { poolSize: 4, deadlineMs: 60_000 },
      mail: {
        domain: 'mail.localhost',
        relayUrl: undefined,
        listenHost: '127.0.0.1',
        listenPort: 2525,
      },
      search: {
        url: undefined,
        provider: 'searxng',
        apiKey: undefined,
        timeoutMs: 10_000,
        cacheTtlSeconds: 3_600,
      },
      webfetch: {
        allowPrivate: false,
        maxBytes: 5 * 1024 * 1024,
        timeoutMs: 15_000,
        maxRedirects: 5,
      },
      publicData: {
        userAgent:
          'Burrow-hub/1.0 (official public-data agents; operator: set PUBLIC_DATA_USER_AGENT)',
        timeoutMs: 15_000,
        maxBytes: 16 * 1024 * 1024,
        maxPages: 5,
        cacheTtlSeconds: 21_600,
        trials: { url: 'https://clinicaltrials.gov/api/v2', requestsPerMinute: 50 },
        fda: { url: 'https://api.fda.gov', apiKey: undefined, requestsPerMinute: 240 },
        epa: { url: 'https://echodata.epa.gov/echo', requestsPerMinute: 30 },
        patents: {
          url: 'https://api.uspto.gov',
          provider: 'odp',
          apiKey: undefined,
          requestsPerMinute: 45,
        },
        usaspending: { url: 'https://api.usaspending.gov', requestsPerMinute: 60 },
        sam: { url: 'https://api.sam.gov', apiKey: undefined, requestsPerMinute: 10 },
        grantsGov: { url: 'https://api.grants.gov', requestsPerMinute: 60 },
        sec: {
          url: 'https://www.sec.gov',
          dataUrl: 'https://data.sec.gov',
          eftsUrl: 'https://efts.sec.gov/LATEST',
          userAgent: undefined,
          requestsPerSecond: 10,
        },
        gleif: { url: 'https://api.gleif.org/api/v1', requestsPerMinute: 60 },
        companiesHouse: {
          url: 'https://api.company-information.service.gov.uk',
          apiKey: undefined,
          requestsPerMinute: 120,
        },
        entityNameThreshold: 0.45,
        research: { fillTimeoutMs: 15_000 },
        lobbying: { url: 'https://lda.gov/api/v1', apiKey: undefined, requestsPerMinute: 15 },
        researchGrants: {
          nih: { url: 'https://api.reporter.nih.gov', requestsPerMinute: 60 },
          nsf: { url: 'https://api.nsf.gov/services/v1', requestsPerMinute: 60 },
        },
        congress: {
          house: {
            url: 'https://disclosures-clerk.house.gov/public_disc',
            requestsPerMinute: 30,
          },
          senate: { url: 'https://efdsearch.senate.gov', requestsPerMinute: 20 },
          maxReports: 20,
        },
        news: {
          url: 'https://api.gdeltproject.org/api/v2',
          requestsPerMinute: 12,
          cacheTtlSeconds: 14_400,
        },
        reddit: {
          url: 'https://www.reddit.com',
          oauthUrl: 'https://oauth.reddit.com',
          clientId: undefined,
          clientSecret: undefined,
          userAgent: 'server:burrow-hub:1.0 (by /u/burrow-hub-operator)',
          requestsPerMinute: 10,
          cacheTtlSeconds: 3_600,
        },
        trade: {
          census: {
            url: 'https://api.census.gov/data/timeseries/intltrade',
            apiKey: undefined,
            requestsPerMinute: 30,
          },
          comtrade: {
            url: 'https://comtradeapi.un.org',
            apiKey: undefined,
            requestsPerMinute: 30,
          },
        },
      },
      pixel: { threads: 2, bodyLimitBytes: 10 * 1024 * 1024 },
      outboundAllowPrivate: false,
      authFailuresPerMinute: 30,
      mcp: {
        hubUrl: 'http://127.0.0.1:8080',
        apiKey: undefined,
        sessionIdleMs: 30 * 60 * 1000,
        maxSessions: 1000,
      },
      workspaceSecretKey: undefined,
    });
  });

  it('returns a frozen object', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.natsServers)).toBe(true);
  });

  it('treats an empty string as unset', () => {
    const config = loadConfig({ PORT: '', LOG_LEVEL: '', NATS_URL: '' });
    expect(config.port).toBe(8080);
    expect(config.logLevel).toBe('info');
    expect(config.natsServers).toEqual(['nats://127.0.0.1:4222']);
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ HOME: '/root', PORT_X: 'nope' }).port).toBe(8080);
  });

  it('gives each node a different generated NODE_ID unless one is set', () => {
    expect(loadConfig({}).nodeId).not.toBe(loadConfig({}).nodeId);
    expect(loadConfig({ NODE_ID: 'hub-1' }).nodeId).toBe('hub-1');
  });
});

describe('loadConfig values', () => {
  it('splits NATS_URL on commas, trimming blanks and empty entries', () => {
    const config = loadConfig({ NATS_URL: 'nats://a:4222, nats://b:4223,,tls://c:4443 ' });
    expect(config.natsServers).toEqual(['nats://a:4222', 'nats://b:4223', 'tls://c:4443']);
  });

  it('coerces numbers and booleans', () => {
    const config = loadConfig({
      PORT: '9001',
      PARTITIONS: '64',
      NATS_REPLICAS: '3',
      HEARTBEAT_MS: '500',
      DEBUG_ENABLED: 'false',
    });
    expect(config).toMatchObject({
      port: 9001,
      partitions: 64,
      natsReplicas: 3,
      heartbeatMs: 500,
      debugEnabled: false,
    });
    expect(loadConfig({ DEBUG_ENABLED: '0' }).debugEnabled).toBe(false);
    expect(loadConfig({ DEBUG_ENABLED: 'yes' }).debugEnabled).toBe(true);
  });

  it('reads the daily cleanup time as minutes after midnight UTC', () => {
    expect(loadConfig({ QUEUE_CLEANUP_AT: '03:30' }).queue.cleanupAtMinute).toBe(210);
  });

  it('derives PUBLIC_URL from PORT when unset', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
  });

  it('keeps an explicit PUBLIC_URL, without trailing slashes', () => {
    const config = loadConfig({ PORT: '9000', PUBLIC_URL: 'https://hub.example.org//' });
    expect(config.publicUrl).toBe('https://hub.example.org');
  });
});

describe('loadConfig geocoder', () => {
  it('uses a Nominatim-compatible service only when GEOCODER_URL is set', () => {
    const config = loadConfig({
      GEOCODER_URL: 'http://127.0.0.1:8088/nominatim',
      GEOCODER_TIMEOUT_MS: '1500',
    });
    expect(config.geocoder).toEqual({ url: 'http://127.0.0.1:8088/nominatim', timeoutMs: 1500 });
    expect(Object.isFrozen(config.geocoder)).toBe(true);
  });
});

// Variables whose every non-empty value is valid.
// Any string is a valid value (an empty one means unset).
const ANY_VALUE = new Set([
  'HOST',
  'EMBEDDINGS_MODEL',
  'EMBEDDINGS_API_KEY',
  'SMTP_LISTEN_HOST',
  'SEARCH_API_KEY',
  'PUBLIC_DATA_USER_AGENT',
  'FDA_API_KEY',
  'PATENTS_API_KEY',
  'SAM_API_KEY',
  'SEC_USER_AGENT',
  'COMPANIES_HOUSE_API_KEY',
  'LOBBYING_API_KEY',
  'REDDIT_CLIENT_ID',
  'REDDIT_CLIENT_SECRET',
  'CENSUS_API_KEY',
  'COMTRADE_API_KEY',
]);

const BAD_VALUES: Record<string, string[]> = {
  NATS_URL: ['http://127.0.0.1:4222', 'nats://a:4222,localhost:4222', ' , '],
  DATABASE_URL: ['mysql://root@127.0.0.1/burrow', 'not a url'],
  DATABASE_POOL_SIZE: ['0', '101', '2.5'],
  DIRECTORY_IN_MEMORY: ['perhaps'],
  PORT: ['70000', '-1', '80.5', 'http'],
  PUBLIC_URL: ['ftp://hub.example.org', 'hub.example.org'],
  ADMIN_TOKEN: ['short-token'],
  METRICS_TOKEN: ['short-token'],
  METRICS_PER_AGENT: ['sometimes'],
  LOG_LEVEL: ['verbose', 'INFO'],
  LOG_FORMAT: ['pretty', 'JSON'],
  NODE_ID: ['node.1', 'node*', 'a b', 'x'.repeat(65)],
  PARTITIONS: ['0', '1025', 'many'],
  NATS_REPLICAS: ['0', '6'],
  HEARTBEAT_MS: ['0', '-5', '1.5'],
  NODE_TTL_MS: ['0', 'ten'],
  LOCK_INACTIVE_MS: ['-1'],
  LOG_COMPACT_MIN_RECORDS: ['-1', 'many'],
  LOG_COMPACT_FACTOR: ['1', '101', 'x'],
  BODY_LIMIT_BYTES: ['0', '1mb'],
  SHUTDOWN_TIMEOUT_MS: ['0'],
  HEALTH_CHECK_TIMEOUT_MS: ['soon'],
  DEBUG_ENABLED: ['maybe', '2'],
  WS_HIGH_WATER_BYTES: ['0', '256k'],
  WS_OUTBOX_FRAMES: ['-1', 'lots'],
  WS_KEY_RECHECK_MS: ['0', 'often'],
  HTTP_AGENT_TIMEOUT_MS: ['0', '30s'],
  QUEUE_DRAIN_PER_SECOND: ['0', '1001', '2.5'],
  QUEUE_HTTP_RETRY_MS: ['0', '5min'],
  QUEUE_BUSY_RETRY_MS: ['-1'],
  QUEUE_CLEANUP_AT: ['24:00', '0:00', 'midnight', '12:60'],
  QUEUE_SENDER_MAX_PENDING: ['0'],
  QUEUE_TENANT_MAX_PENDING: ['ten thousand'],
  GEOCODER_URL: ['nominatim.example.org', 'ftp://geo.example.org'],
  GEOCODER_TIMEOUT_MS: ['0', '5s'],
  RATE_LIMIT_PER_MINUTE: ['0', '1200/min', '1000001'],
  EMBEDDINGS_URL: ['embeddings.example.org', 'ftp://embed.example.org'],
  EMBEDDINGS_TIMEOUT_MS: ['0', '10s'],
  AGENT_POOL_SIZE: ['0', '257', 'four'],
  AGENT_DEADLINE_MS: ['0', '1m'],
  MAIL_DOMAIN: ['localhost', 'mail example.org', 'Mail.Example.org', '-x.example.org'],
  SMTP_RELAY_URL: ['relay.example.org:25', 'http://relay.example.org'],
  SMTP_LISTEN_PORT: ['65536', '-1', 'smtp'],
  SEARCH_URL: ['searx.example.org', 'ftp://searx.example.org'],
  SEARCH_PROVIDER: ['google', 'SearXNG'],
  SEARCH_TIMEOUT_MS: ['0', '10s'],
  SEARCH_CACHE_TTL_SECONDS: ['0', '1h'],
  WEBFETCH_ALLOW_PRIVATE: ['maybe'],
  WEBFETCH_MAX_BYTES: ['0', '5MB'],
  WEBFETCH_TIMEOUT_MS: ['0'],
  WEBFETCH_MAX_REDIRECTS: ['-1', '21'],
  PUBLIC_DATA_TIMEOUT_MS: ['0', 'soon'],
  PUBLIC_DATA_MAX_BYTES: ['0', '1MB'],
  PUBLIC_DATA_MAX_PAGES: ['0', '51'],
  PUBLIC_DATA_CACHE_TTL_SECONDS: ['0', '-5'],
  TRIALS_URL: ['clinicaltrials.gov', 'ftp://clinicaltrials.gov'],
  TRIALS_REQUESTS_PER_MINUTE: ['0', 'many'],
  FDA_URL: ['api.fda.gov'],
  FDA_REQUESTS_PER_MINUTE: ['0'],
  EPA_URL: ['file:///echo'],
  EPA_REQUESTS_PER_MINUTE: ['-1'],
  ENTITY_NAME_THRESHOLD: ['0', '1.5', 'high'],
  RESEARCH_FILL_TIMEOUT_MS: ['0', '60000'],
  PATENTS_URL: ['uspto'],
  PATENTS_PROVIDER: ['google', 'ODP'],
  PATENTS_REQUESTS_PER_MINUTE: ['0.5'],
  USASPENDING_URL: ['api.usaspending.gov'],
  USASPENDING_REQUESTS_PER_MINUTE: ['0'],
  SAM_URL: ['ftp://api.sam.gov'],
  SAM_REQUESTS_PER_MINUTE: ['ten'],
  GRANTS_GOV_URL: ['grants'],
  GRANTS_GOV_REQUESTS_PER_MINUTE: ['-5'],
  SEC_URL: ['www.sec.gov'],
  SEC_DATA_URL: ['ftp://data.sec.gov'],
  SEC_EFTS_URL: ['efts'],
  SEC_REQUESTS_PER_SECOND: ['0', '11', 'fast'],
  GLEIF_URL: ['api.gleif.org'],
  GLEIF_REQUESTS_PER_MINUTE: ['0'],
  COMPANIES_HOUSE_URL: ['ftp://ch.example'],
  COMPANIES_HOUSE_PER_MINUTE: ['-1'],
  LOBBYING_URL: ['lda.gov/api/v1'],
  LOBBYING_REQUESTS_PER_MINUTE: ['0', 'fast'],
  RESEARCH_GRANTS_NIH_URL: ['api.reporter.nih.gov'],
  RESEARCH_GRANTS_NIH_REQUESTS_PER_MINUTE: ['0'],
  RESEARCH_GRANTS_NSF_URL: ['ftp://api.nsf.gov'],
  RESEARCH_GRANTS_NSF_REQUESTS_PER_MINUTE: ['-2'],
  CONGRESS_HOUSE_URL: ['disclosures-clerk.house.gov'],
  CONGRESS_HOUSE_REQUESTS_PER_MINUTE: ['1.5'],
  CONGRESS_SENATE_URL: ['ftp://efdsearch.senate.gov'],
  CONGRESS_SENATE_REQUESTS_PER_MINUTE: ['0'],
  CONGRESS_MAX_REPORTS: ['0', '201'],
  NEWS_URL: ['api.gdeltproject.org'],
  NEWS_REQUESTS_PER_MINUTE: ['0'],
  NEWS_CACHE_TTL_SECONDS: ['0', '4h'],
  REDDIT_URL: ['www.reddit.com'],
  REDDIT_OAUTH_URL: ['ftp://oauth.reddit.com'],
  REDDIT_USER_AGENT: ['Mozilla/5.0', 'burrow-hub 1.0', 'server:app:1.0 (by u/name)'],
  REDDIT_REQUESTS_PER_MINUTE: ['0', '-1'],
  REDDIT_CACHE_TTL_SECONDS: ['0'],
  CENSUS_URL: ['api.census.gov'],
  CENSUS_REQUESTS_PER_MINUTE: ['0'],
  COMTRADE_URL: ['comtradeapi.un.org'],
  COMTRADE_REQUESTS_PER_MINUTE: ['many'],
  PIXEL_THREADS: ['0', '65', 'two'],
  PIXEL_BODY_LIMIT_BYTES: ['0', '10MiB'],
  OUTBOUND_ALLOW_PRIVATE: ['sometimes'],
  AUTH_FAILURES_PER_MINUTE: ['-1', 'thirty', '100001'],
  BURROW_URL: ['hub.example.org', 'ftp://hub.example.org'],
  BURROW_API_KEY: ['two words'],
  MCP_SESSION_IDLE_MS: ['0', 'an hour'],
  MCP_MAX_SESSIONS: ['0', '1.5'],
  WORKSPACE_SECRET_KEY: ['short', 'zz'.repeat(32), Buffer.alloc(16).toString('base64')],
};

describe('LOG_COMPACT_MIN_RECORDS', () => {
  it('0 turns bulk compaction off', () => {
    expect(loadConfig({ LOG_COMPACT_MIN_RECORDS: '0' }).logCompaction).toBeUndefined();
    expect(loadConfig({}).logCompaction).toEqual({ minRecords: 20_000, factor: 4 });
  });
});

describe('loadConfig rejects bad values', () => {
  it('has bad values to try for every variable of the schema', () => {
    const untested = Object.keys(ConfigSchema.shape).filter(
      (key) => !ANY_VALUE.has(key) && !(key in BAD_VALUES)
    );
    expect(untested).toEqual([]);
  });

  const cases = Object.entries(BAD_VALUES).flatMap(([key, values]) =>
    values.map((value) => [key, value] as const)
  );

  it.each(cases)('rejects %s=%j with a ConfigError naming it', (key, value) => {
    const err = configError({ [key]: value });
    expect(err.variables).toEqual([key]);
    expect(err.message).toContain(key);
  });

  it('names every bad variable at once', () => {
    const err = configError({ PORT: 'x', LOG_LEVEL: 'loud', NATS_URL: 'http://x' });
    expect([...err.variables].sort()).toEqual(['LOG_LEVEL', 'NATS_URL', 'PORT']);
  });
});

describe('the metrics token', () => {
  it('is METRICS_TOKEN, else ADMIN_TOKEN, else none', () => {
    const admin = 'admin-token-0123456789';
    const own = 'metrics-token-0123456789';
    expect(loadConfig({ ADMIN_TOKEN: admin, METRICS_TOKEN: own }).metricsToken).toBe(own);
    expect(loadConfig({ ADMIN_TOKEN: admin }).metricsToken).toBe(admin);
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_PER_AGENT: 'true' }).metricsPerAgent).toBe(true);
  });
});

describe('redactedConfig', () => {
  it('hides the admin token and the database URL (it may hold a password)', () => {
    const config = loadConfig({
      ADMIN_TOKEN: 'sekrit-admin-token-1234',
      DATABASE_URL: 'postgres://hub:pa55word@db.internal:5432/burrow',
    });
    const shown = redactedConfig(config);
    expect(shown.adminToken).toBe('[redacted]');
    expect(shown.databaseUrl).toBe('[redacted]');
    const text = JSON.stringify(shown);
    expect(text).not.toContain('sekrit-admin-token-1234');
    expect(text).not.toContain('pa55word');
  });

  it('keeps everything else, and leaves an unset secret unset', () => {
    const config = loadConfig({ PORT: '9002' });
    const shown = redactedConfig(config);
    expect(shown.adminToken).toBeUndefined();
    expect(shown.port).toBe(9002);
    expect(shown.natsServers).toEqual(config.natsServers);
    expect(Object.keys(shown).sort()).toEqual(Object.keys(config).sort());
  });

  it('hides the metrics token', () => {
    const shown = redactedConfig(loadConfig({ METRICS_TOKEN: 'sekrit-metrics-token-1234' }));
    expect(shown.metricsToken).toBe('[redacted]');
    const key = 'ab'.repeat(32);
    expect(redactedConfig(loadConfig({ WORKSPACE_SECRET_KEY: key })).workspaceSecretKey).toBe(
      '[redacted]'
    );
    expect(JSON.stringify(shown)).not.toContain('sekrit-metrics-token-1234');
  });

  it('does not change the config it was given', () => {
    const config = loadConfig({ ADMIN_TOKEN: 'sekrit-admin-token-1234' });
    redactedConfig(config);
    expect(config.adminToken).toBe('sekrit-admin-token-1234');
  });
});

describe('LOBBYING_REQUESTS_PER_MINUTE', () => {
  it('defaults to LDA’s own limit: 15 without a token, 120 with one', () => {
    expect(loadConfig({}).publicData.lobbying.requestsPerMinute).toBe(15);
    expect(loadConfig({ LOBBYING_API_KEY: 'k' }).publicData.lobbying.requestsPerMinute).toBe(120);
    expect(
      loadConfig({ LOBBYING_API_KEY: 'k', LOBBYING_REQUESTS_PER_MINUTE: '30' }).publicData.lobbying
        .requestsPerMinute
    ).toBe(30);
  });
});
