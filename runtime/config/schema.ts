// The hub's configuration: every environment variable, its type and its default, in one place
// (the public-data agents' upstreams in public-data.ts, spread into it). Defaults work on a fresh
// machine of this kind (local NATS with JetStream, local PostgreSQL).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { port, positiveInt } from './env-types.js';
import { publicDataEnv, publicDataOf, type PublicDataSettings } from './public-data.js';

export type {
  PublicDataSettings,
  RedditSettings,
  SecSettings,
  UpstreamSettings,
} from './public-data.js';

export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const ConfigSchema = z.object({
  NATS_URL: z
    .string()
    .default('nats://127.0.0.1:4222')
    .transform((s) =>
      s
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean)
    )
    .pipe(z.array(z.string().regex(/^(nats|tls):\/\/[^\s]+$/, 'must be nats://host:port')).min(1)),
  DATABASE_URL: z
    .string()
    .default('postgres://postgres@127.0.0.1:5432/burrow')
    .pipe(z.url({ protocol: /^postgres(ql)?$/ })),
  /**
   * Connections the hub holds to PostgreSQL. Few, because queries pipeline on each and every
   * backend competes for the same cores: more connections than cores lengthen the tail.
   */
  DATABASE_POOL_SIZE: positiveInt.max(100).default(10),
  /**
   * Answer directory searches and nearby from a copy of the directory in each node's memory, kept
   * current with PostgreSQL on every request (actors/directory); off: every answer is SQL.
   */
  DIRECTORY_IN_MEMORY: z.stringbool().default(true),
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * Bearer token for GET /metrics; unset: ADMIN_TOKEN serves; neither: /metrics refuses everyone
   * (401). The hub binds 0.0.0.0, and the metrics describe its traffic.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Label queue gauges per recipient agent and tenant (their ids); off: totals without ids. */
  METRICS_PER_AGENT: z.stringbool().default(false),
  LOG_LEVEL: LogLevel.default('info'),
  /** `text`: one readable line per event (for people); `json`: one JSON object per line (for collectors). */
  LOG_FORMAT: z.enum(['text', 'json']).default('text'),
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only (it is a NATS subject token)')
    .optional(),
  /** Fixed for the life of a deployment: every node must use the same number. */
  PARTITIONS: positiveInt.max(1024).default(32),
  /** Replicas for streams and buckets: 1 on a single NATS server, 3 on a cluster. */
  NATS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  HEARTBEAT_MS: positiveInt.default(2000),
  /** A node missing heartbeats this long is gone (the membership bucket's max age). */
  NODE_TTL_MS: positiveInt.default(10000),
  /** The server deletes a partition lock this long after its holder stopped renewing it. */
  LOCK_INACTIVE_MS: positiveInt.default(10000),
  /**
   * A partition's log is compacted (what is still needed copied forward, the rest purged in bulk)
   * once it holds more records than this, and more than LOG_COMPACT_FACTOR × the records still
   * needed: each compaction then removes at least that many times what it copies. 0 turns bulk
   * compaction off: superseded records are then deleted one by one, as on replicated streams of
   * nats-server before 2.9.18 (where a purge to a sequence is unsafe, whatever this says).
   */
  LOG_COMPACT_MIN_RECORDS: z.coerce.number().int().min(0).default(20_000),
  LOG_COMPACT_FACTOR: z.coerce.number().min(1.5).max(100).default(4),
  BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(8000),
  HEALTH_CHECK_TIMEOUT_MS: positiveInt.default(1000),
  DEBUG_ENABLED: z.stringbool().default(true),
  /** A WebSocket's send backlog above which frames wait in its bounded outbox. */
  WS_HIGH_WATER_BYTES: positiveInt.default(256 * 1024),
  /** Frames an agent's outbox holds before deliveries to it answer "busy". */
  WS_OUTBOX_FRAMES: positiveInt.default(1000),
  /**
   * Open sockets' keys are checked again this often, for revocations whose broadcast was missed
   * (the auth cache's TTL, so a socket outlives a revoked key no longer than HTTP does).
   */
  WS_KEY_RECHECK_MS: positiveInt.default(30_000),
  /** How long an HTTP agent may take to answer a delivery (decisions.md §3: 30 s). */
  HTTP_AGENT_TIMEOUT_MS: positiveInt.default(30_000),
  /** Queued messages delivered per second to a recipient that comes online (spec: 10). */
  QUEUE_DRAIN_PER_SECOND: positiveInt.max(1000).default(10),
  /** Pause between delivery attempts to an HTTP agent that did not answer (spec: 5 minutes). */
  QUEUE_HTTP_RETRY_MS: positiveInt.default(300_000),
  /** Pause before retrying a connected WebSocket agent whose socket is backed up. */
  QUEUE_BUSY_RETRY_MS: positiveInt.default(5_000),
  /** Time of day (UTC, HH:MM) of the daily cleanup of expired queued messages. */
  QUEUE_CLEANUP_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC), e.g. 00:00')
    .default('00:00'),
  /** Pending messages one sender may hold for one recipient (spec: 50). */
  QUEUE_SENDER_MAX_PENDING: positiveInt.default(50),
  /** Pending messages all recipients of one tenant may hold (spec: 10,000). */
  QUEUE_TENANT_MAX_PENDING: positiveInt.default(10_000),
  /** A Nominatim-compatible geocoding service; unset: the built-in offline gazetteer. */
  GEOCODER_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** How long a geocoding request may take before PATCH answers 503. */
  GEOCODER_TIMEOUT_MS: positiveInt.default(5_000),
  /** Requests per minute per API key, across all nodes (decisions.md §7); a tenant may override. */
  RATE_LIMIT_PER_MINUTE: positiveInt.max(1_000_000).default(1_200),
  /** An OpenAI-compatible embeddings API (base URL, …/v1); unset: the local deterministic embedder. */
  EMBEDDINGS_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The model asked of EMBEDDINGS_URL. */
  EMBEDDINGS_MODEL: z.string().min(1).default('text-embedding-3-small'),
  /** Bearer token for EMBEDDINGS_URL, if it needs one. */
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  /** How long an embeddings request may take. */
  EMBEDDINGS_TIMEOUT_MS: positiveInt.default(10_000),
  /** Members of each official agent's pool on this node (requests it runs at once). */
  AGENT_POOL_SIZE: positiveInt.max(256).default(4),
  /** How long an official agent's handler may run before its task fails. */
  AGENT_DEADLINE_MS: positiveInt.default(60_000),
  /** postie: the service-owned mail domain agents' addresses live on. */
  MAIL_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
      'must be a domain name'
    )
    .default('mail.localhost'),
  /** postie: the SMTP relay outbound mail goes through (smtp[s]://user:pass@host:port); unset: no sending. */
  SMTP_RELAY_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** postie: where the inbound SMTP listener for MAIL_DOMAIN binds; port 0 picks a free one. */
  SMTP_LISTEN_HOST: z.string().min(1).default('127.0.0.1'),
  SMTP_LISTEN_PORT: port.default(2525),
  /** search: a SearXNG (…/search?format=json) or Brave-compatible API; unset: the agent says so. */
  SEARCH_URL: z.url({ protocol: /^https?$/ }).optional(),
  SEARCH_PROVIDER: z.enum(['searxng', 'brave']).default('searxng'),
  SEARCH_API_KEY: z.string().min(1).optional(),
  SEARCH_TIMEOUT_MS: positiveInt.default(10_000),
  /** search: how long results of a query are reused. */
  SEARCH_CACHE_TTL_SECONDS: positiveInt.default(3_600),
  /** webfetch: allow loopback, private, link-local and metadata addresses (off: refused). */
  WEBFETCH_ALLOW_PRIVATE: z.stringbool().default(false),
  WEBFETCH_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  WEBFETCH_TIMEOUT_MS: positiveInt.default(15_000),
  WEBFETCH_MAX_REDIRECTS: z.coerce.number().int().min(0).max(20).default(5),
  ...publicDataEnv,
  /** pixel: worker threads for image work, off the gateway's event loop. */
  PIXEL_THREADS: positiveInt.max(64).default(2),
  /**
   * Let the hub call loopback, private and link-local addresses (HTTP agents, webhooks): off in
   * production; on for development with agents on this machine.
   */
  OUTBOUND_ALLOW_PRIVATE: z.stringbool().default(false),
  /**
   * Failed authentications admitted per client address and minute on a node before that address
   * is refused (429) for the rest of the minute; 0 turns it off (behind a proxy that hides client
   * addresses, every client would share one budget).
   */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(30),
  /** pixel: the body limit of messages to the pixel agent (decisions.md §7: 10 MiB). */
  PIXEL_BODY_LIMIT_BYTES: positiveInt.default(10 * 1024 * 1024),
  /** `burrow mcp` (stdio): the hub it talks to; default the hub's own PUBLIC_URL. */
  BURROW_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** `burrow mcp` (stdio): the API key of the agent it acts as (or `--key`). */
  BURROW_API_KEY: z.string().regex(/^\S+$/, 'one token, without spaces').optional(),
  /** The hub's /mcp endpoint: a session unused this long is closed (its subscriptions end). */
  MCP_SESSION_IDLE_MS: positiveInt.default(30 * 60 * 1000),
  /** The hub's /mcp endpoint: open sessions per node; a new one beyond it is refused (503). */
  MCP_MAX_SESSIONS: positiveInt.default(1000),
  /**
   * The AES-256 key workspace secrets are encrypted with (64 hex digits or base64 of 32 bytes),
   * the same on every node. Unset: a development key derived from a fixed label, which anyone with
   * this source can derive; the hub warns at start. Changing it makes stored secrets unreadable.
   */
  WORKSPACE_SECRET_KEY: z
    .string()
    .refine(
      (s) =>
        /^[0-9a-fA-F]{64}$/.test(s) ||
        (/^[A-Za-z0-9+/]{43}=?$/.test(s) && Buffer.from(s, 'base64').length === 32),
      'must be 32 bytes: 64 hex digits or base64 (openssl rand -hex 32)'
    )
    .optional(),
});

export type ConfigInput = z.input<typeof ConfigSchema>;

export interface Config {
  readonly natsServers: readonly string[];
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  readonly directoryInMemory: boolean;
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly adminToken: string | undefined;
  /** The bearer token GET /metrics requires (METRICS_TOKEN, else ADMIN_TOKEN); none: refused. */
  readonly metricsToken: string | undefined;
  /** Label metrics with agent and tenant ids? */
  readonly metricsPerAgent: boolean;
  readonly logLevel: z.infer<typeof LogLevel>;
  readonly logFormat: 'text' | 'json';
  readonly nodeId: string;
  readonly partitions: number;
  readonly natsReplicas: number;
  readonly heartbeatMs: number;
  readonly nodeTtlMs: number;
  readonly lockInactiveMs: number;
  /** When a partition's log is compacted (runtime/cluster/log-compactor.ts); undefined: never. */
  readonly logCompaction: { readonly minRecords: number; readonly factor: number } | undefined;
  readonly bodyLimitBytes: number;
  readonly shutdownTimeoutMs: number;
  readonly healthCheckTimeoutMs: number;
  readonly debugEnabled: boolean;
  readonly wsHighWaterBytes: number;
  readonly wsOutboxFrames: number;
  readonly wsKeyRecheckMs: number;
  readonly httpAgentTimeoutMs: number;
  readonly queue: QueueConfig;
  readonly geocoder: GeocoderSettings;
  /** Default requests per minute per API key; tenants.rate_limit_per_minute overrides it. */
  readonly rateLimitPerMinute: number;
  readonly embeddings: EmbeddingsSettings;
  readonly agents: OfficialAgentSettings;
  readonly mail: MailSettings;
  readonly search: SearchSettings;
  readonly webfetch: WebfetchSettings;
  readonly publicData: PublicDataSettings;
  readonly pixel: { readonly threads: number; readonly bodyLimitBytes: number };
  /** May the hub call loopback/private addresses (HTTP agents, webhooks)? */
  readonly outboundAllowPrivate: boolean;
  /** Failed authentications per client address and minute; 0 = no limit. */
  readonly authFailuresPerMinute: number;
  readonly mcp: McpSettings;
  /** WORKSPACE_SECRET_KEY as given (hex or base64); undefined: the development key. */
  readonly workspaceSecretKey: string | undefined;
}

/** The MCP server (issue 29): `burrow mcp` over stdio, and the hub's /mcp endpoint. */
export interface McpSettings {
  /** The hub `burrow mcp` talks to. */
  readonly hubUrl: string;
  /** The key `burrow mcp` uses unless `--key` is given. */
  readonly apiKey: string | undefined;
  readonly sessionIdleMs: number;
  readonly maxSessions: number;
}

export interface MailSettings {
  readonly domain: string;
  /** SMTP relay URL for outbound mail, or undefined (sends fail with a clear message). */
  readonly relayUrl: string | undefined;
  readonly listenHost: string;
  readonly listenPort: number;
}

export interface SearchSettings {
  readonly url: string | undefined;
  readonly provider: 'searxng' | 'brave';
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly cacheTtlSeconds: number;
}

export interface WebfetchSettings {
  readonly allowPrivate: boolean;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
}

export interface EmbeddingsSettings {
  /** Base URL of an OpenAI-compatible API, or undefined for the local embedder. */
  readonly url: string | undefined;
  readonly model: string;
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
}

export interface OfficialAgentSettings {
  readonly poolSize: number;
  readonly deadlineMs: number;
}

export interface GeocoderSettings {
  /** Base URL of a Nominatim-compatible service, or undefined for the offline gazetteer. */
  readonly url: string | undefined;
  readonly timeoutMs: number;
}

export interface QueueConfig {
  readonly drainPerSecond: number;
  readonly httpRetryMs: number;
  readonly busyRetryMs: number;
  /** Minutes after 00:00 UTC at which the daily cleanup runs. */
  readonly cleanupAtMinute: number;
  readonly senderMaxPending: number;
  readonly tenantMaxPending: number;
}

/** Names of settings whose values never reach a log line. */
export const SECRET_KEYS = [
  'adminToken',
  'metricsToken',
  'databaseUrl',
  'embeddings',
  'mail',
  'search',
  'publicData',
  'mcp',
  'workspaceSecretKey',
] as const;

export function toConfig(env: z.output<typeof ConfigSchema>): Config {
  return Object.freeze({
    natsServers: Object.freeze(env.NATS_URL),
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    directoryInMemory: env.DIRECTORY_IN_MEMORY,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`).replace(/\/+$/, ''),
    adminToken: env.ADMIN_TOKEN,
    metricsToken: env.METRICS_TOKEN ?? env.ADMIN_TOKEN,
    metricsPerAgent: env.METRICS_PER_AGENT,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    nodeId: env.NODE_ID ?? `node-${randomBytes(4).toString('hex')}`,
    partitions: env.PARTITIONS,
    natsReplicas: env.NATS_REPLICAS,
    heartbeatMs: env.HEARTBEAT_MS,
    nodeTtlMs: env.NODE_TTL_MS,
    lockInactiveMs: env.LOCK_INACTIVE_MS,
    logCompaction:
      env.LOG_COMPACT_MIN_RECORDS === 0
        ? undefined
        : Object.freeze({
            minRecords: env.LOG_COMPACT_MIN_RECORDS,
            factor: env.LOG_COMPACT_FACTOR,
          }),
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    healthCheckTimeoutMs: env.HEALTH_CHECK_TIMEOUT_MS,
    debugEnabled: env.DEBUG_ENABLED,
    wsHighWaterBytes: env.WS_HIGH_WATER_BYTES,
    wsOutboxFrames: env.WS_OUTBOX_FRAMES,
    wsKeyRecheckMs: env.WS_KEY_RECHECK_MS,
    httpAgentTimeoutMs: env.HTTP_AGENT_TIMEOUT_MS,
    queue: Object.freeze({
      drainPerSecond: env.QUEUE_DRAIN_PER_SECOND,
      httpRetryMs: env.QUEUE_HTTP_RETRY_MS,
      busyRetryMs: env.QUEUE_BUSY_RETRY_MS,
      cleanupAtMinute: minutesOfDay(env.QUEUE_CLEANUP_AT),
      senderMaxPending: env.QUEUE_SENDER_MAX_PENDING,
      tenantMaxPending: env.QUEUE_TENANT_MAX_PENDING,
    }),
    geocoder: Object.freeze({ url: env.GEOCODER_URL, timeoutMs: env.GEOCODER_TIMEOUT_MS }),
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    embeddings: Object.freeze({
      url: env.EMBEDDINGS_URL,
      model: env.EMBEDDINGS_MODEL,
      apiKey: env.EMBEDDINGS_API_KEY,
      timeoutMs: env.EMBEDDINGS_TIMEOUT_MS,
    }),
    agents: Object.freeze({
      poolSize: env.AGENT_POOL_SIZE,
      deadlineMs: env.AGENT_DEADLINE_MS,
    }),
    mail: Object.freeze({
      domain: env.MAIL_DOMAIN,
      relayUrl: env.SMTP_RELAY_URL,
      listenHost: env.SMTP_LISTEN_HOST,
      listenPort: env.SMTP_LISTEN_PORT,
    }),
    search: Object.freeze({
      url: env.SEARCH_URL,
      provider: env.SEARCH_PROVIDER,
      apiKey: env.SEARCH_API_KEY,
      timeoutMs: env.SEARCH_TIMEOUT_MS,
      cacheTtlSeconds: env.SEARCH_CACHE_TTL_SECONDS,
    }),
    webfetch: Object.freeze({
      allowPrivate: env.WEBFETCH_ALLOW_PRIVATE,
      maxBytes: env.WEBFETCH_MAX_BYTES,
      timeoutMs: env.WEBFETCH_TIMEOUT_MS,
      maxRedirects: env.WEBFETCH_MAX_REDIRECTS,
    }),
    publicData: publicDataOf(env),
    pixel: Object.freeze({
      threads: env.PIXEL_THREADS,
      bodyLimitBytes: env.PIXEL_BODY_LIMIT_BYTES,
    }),
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE,
    authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
    mcp: Object.freeze({
      hubUrl: (env.BURROW_URL ?? env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`).replace(
        /\/+$/,
        ''
      ),
      apiKey: env.BURROW_API_KEY,
      sessionIdleMs: env.MCP_SESSION_IDLE_MS,
      maxSessions: env.MCP_MAX_SESSIONS,
    }),
    workspaceSecretKey: env.WORKSPACE_SECRET_KEY,
  });
}

function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}
