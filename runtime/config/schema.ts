// The hub's configuration: every environment variable, its type and its default, in one place.
// Defaults work on a fresh machine of this kind (local NATS with JetStream, local PostgreSQL).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

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
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: LogLevel.default('info'),
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
  BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(8000),
  HEALTH_CHECK_TIMEOUT_MS: positiveInt.default(1000),
  DEBUG_ENABLED: z.stringbool().default(true),
  /** A WebSocket's send backlog above which frames wait in its bounded outbox. */
  WS_HIGH_WATER_BYTES: positiveInt.default(256 * 1024),
  /** Frames an agent's outbox holds before deliveries to it answer "busy". */
  WS_OUTBOX_FRAMES: positiveInt.default(1000),
});

export type ConfigInput = z.input<typeof ConfigSchema>;

export interface Config {
  readonly natsServers: readonly string[];
  readonly databaseUrl: string;
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly adminToken: string | undefined;
  readonly logLevel: z.infer<typeof LogLevel>;
  readonly nodeId: string;
  readonly partitions: number;
  readonly natsReplicas: number;
  readonly heartbeatMs: number;
  readonly nodeTtlMs: number;
  readonly lockInactiveMs: number;
  readonly bodyLimitBytes: number;
  readonly shutdownTimeoutMs: number;
  readonly healthCheckTimeoutMs: number;
  readonly debugEnabled: boolean;
  readonly wsHighWaterBytes: number;
  readonly wsOutboxFrames: number;
}

/** Names of settings whose values never reach a log line. */
export const SECRET_KEYS = ['adminToken', 'databaseUrl'] as const;

export function toConfig(env: z.output<typeof ConfigSchema>): Config {
  return Object.freeze({
    natsServers: Object.freeze(env.NATS_URL),
    databaseUrl: env.DATABASE_URL,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`).replace(/\/+$/, ''),
    adminToken: env.ADMIN_TOKEN,
    logLevel: env.LOG_LEVEL,
    nodeId: env.NODE_ID ?? `node-${randomBytes(4).toString('hex')}`,
    partitions: env.PARTITIONS,
    natsReplicas: env.NATS_REPLICAS,
    heartbeatMs: env.HEARTBEAT_MS,
    nodeTtlMs: env.NODE_TTL_MS,
    lockInactiveMs: env.LOCK_INACTIVE_MS,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    healthCheckTimeoutMs: env.HEALTH_CHECK_TIMEOUT_MS,
    debugEnabled: env.DEBUG_ENABLED,
    wsHighWaterBytes: env.WS_HIGH_WATER_BYTES,
    wsOutboxFrames: env.WS_OUTBOX_FRAMES,
  });
}
