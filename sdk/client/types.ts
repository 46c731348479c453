// What the hub client takes and returns (interface-spec "Resources", "Discovery", "Monitoring",
// "Agent settings"; decisions.md §1, §7, §8). Plain wire shapes of the hub dialect.
import type { Artifact, Message, Part, Task, TaskState, TaskStatus } from '../protocol.js';
import type { RetryOptions } from './retry.js';

/** Per call: cancel it, or change the retry policy for this call only. */
export interface CallOptions {
  signal?: AbortSignal;
  retry?: Partial<RetryOptions>;
}

/** The message to send: text, or parts (both: the text part comes first). */
export interface MessageContent {
  text?: string;
  parts?: Part[];
  /** Message metadata, delivered to the recipient with the message. */
  metadata?: Record<string, unknown>;
  /**
   * The hub dedupes a repeated messageId from the same sender (for 2 minutes), which is what makes
   * retrying a send safe. The client makes one up (`msg-<uuid>`) when this is absent.
   */
  messageId?: string;
  /** Default `user`. */
  role?: 'user' | 'agent';
}

/** Options of SendMessage (the spec's `params.configuration`). */
export interface SendOptions extends CallOptions {
  /** Continue a conversation. Without agentId, the message goes to the other party of it. */
  contextId?: string;
  /** Continue a task that is `input-required`. */
  taskId?: string;
  /** Wait (up to 60 s) for the task to settle before answering. Default false. */
  blocking?: boolean;
  /** Messages returned in the task's history; 0 means none. */
  historyLength?: number;
  /** Media types the caller accepts; ContentTypeNotSupportedError when none can be produced. */
  acceptedOutputModes?: string[];
  /** `x-ttl`: how long to queue the message when the recipient is offline; 0 means do not queue. */
  ttlSeconds?: number;
}

export interface SendParams extends MessageContent, SendOptions {
  /** The target's agent id or alias (`echo`); optional only when replying by contextId. */
  agentId?: string;
}

/** A task as the hub dialect writes it. */
export interface HubTask extends Task {
  kind?: 'task';
  metadata?: { agentId?: string; [key: string]: unknown };
}

export interface GetTaskOptions extends CallOptions {
  historyLength?: number;
}

export interface ListTasksParams {
  contextId?: string;
  status?: TaskState;
  /** 1..100, default 50. */
  pageSize?: number;
  /** `nextPageToken` of the previous page. */
  pageToken?: string;
  historyLength?: number;
  includeArtifacts?: boolean;
  /** Only tasks whose status changed after this time (ISO 8601 or a Date). */
  statusTimestampAfter?: string | Date;
}

export interface TaskList {
  tasks: HubTask[];
  /** Empty on the last page. */
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/**
 * One event of a task stream. The hub wraps each (`{task}`, `{statusUpdate}`, `{artifactUpdate}`,
 * `{message}`); the client tags it with `kind` instead, so one switch tells them apart.
 */
export type StreamEvent =
  | (HubTask & { kind: 'task' })
  | {
      kind: 'status-update';
      taskId: string;
      contextId: string;
      status: TaskStatus;
      /** The last event of this stream. */
      final: boolean;
    }
  | {
      kind: 'artifact-update';
      taskId: string;
      contextId: string;
      artifact: Artifact & { artifactId: string };
      append: boolean;
      lastChunk: boolean;
    }
  | (Message & { kind: 'message' });

export interface StreamOptions extends CallOptions {
  /**
   * Reconnections after a dropped connection, in a row (a delivered event resets the count).
   * Default: the retry policy's maxAttempts.
   */
  maxReconnects?: number;
}

// ---- discovery --------------------------------------------------------------------------------

export interface SearchParams {
  /** Fuzzy match on name, description and tags. */
  q?: string;
  category?: string;
  tag?: string;
  skillTag?: string;
  /** An input or output media type, e.g. `image/png` or `image/*`. */
  contentMode?: string;
  /** Organization (tenant) name. */
  owner?: string;
  verified?: boolean;
  sort?: 'relevance' | 'rating' | 'popular' | 'recent';
  /** 1..50, default 10; ignored with scope tenant. */
  limit?: number;
  offset?: number;
  /** `tenant`: all of the caller's tenant's agents (needs a key). */
  scope?: 'tenant';
  /** ISO 3166-1 alpha-2. */
  country?: string;
  /** Every agent is free until the hub prices anything: `free` and `all` match all, `paid` none. */
  pricing?: 'free' | 'paid' | 'all';
}

export interface DirectoryAgent {
  id: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  avgRating: number;
  ratingCount: number;
  tenantName: string;
  tenantSlug: string;
  /** The owning organization is verified. */
  verified: boolean;
  /** Marked by the hub's operator (listed by featuredAgents). */
  featured: boolean;
  pricing: 'free';
  /** The card's `provider.url`, or null. */
  websiteUrl: string | null;
  /** The card's `documentationUrl`, or null. */
  docsUrl: string | null;
  [key: string]: unknown;
}

export interface SearchResult {
  agents: DirectoryAgent[];
  count: number;
  offset: number;
}

export interface Category {
  name: string;
  count: number;
}

export interface AgentDetail {
  agent: DirectoryAgent & {
    agentCard: Record<string, unknown> | null;
    stats: {
      avgRating: number;
      ratingCount: number;
      totalMessages: number;
      /** 0..1 */
      successRate: number;
      /** milliseconds */
      avgResponseTime: number;
    };
  };
  reviews: Array<{ rating: number; review: string; created_at: number; reviewer_name: string }>;
}

export interface RateParams {
  /** 1..5 */
  rating: number;
  review?: string;
}

export interface RateResult {
  success: boolean;
  avgRating: number;
  ratingCount: number;
}

export interface NearbyParams {
  lat: number;
  lng: number;
  /** Kilometres, up to 500; default 10. */
  radius?: number;
  tag?: string;
  category?: string;
  /** 1..50, default 20. */
  limit?: number;
  offset?: number;
}

export interface NearbyAgent extends DirectoryAgent {
  location: { name: string; lat: number; lng: number; country: string };
  /** Kilometres. */
  distance: number;
}

export interface NearbyResult {
  agents: NearbyAgent[];
  center: { lat: number; lng: number };
  radius: number;
  count: number;
  offset: number;
}

export interface AgentLocation {
  tag: string;
  lat: number;
  lng: number;
  displayName: string;
  country: string;
  visibility: string;
}

// ---- monitoring and settings ----------------------------------------------------------------

export interface UsageRecord {
  date: string;
  messages_sent: number;
  messages_received: number;
  bytes_transferred: number;
}

export interface MessageStats {
  summary: { total: number; sent: number; received: number; delivered: number; failed: number };
  daily: Array<{
    date: string;
    sent: number;
    received: number;
    delivered: number;
    failed: number;
  }>;
  topAgents: Array<{ agentId: string; name: string | null; messages: number }>;
}

export interface AgentSettings {
  agentId: string;
  queue_max_pending: number;
  queue_ttl_seconds: number;
  visibility: string;
  category: string | null;
  tags: string[];
  /** Shown in discovery before the card's links; null: the card's. */
  websiteUrl: string | null;
  docsUrl: string | null;
}

export interface AgentSettingsPatch {
  /** Up to 10; `location:<address>` tags (up to 3) are geocoded. Sent as the spec's JSON string. */
  tags?: string[];
  queue_max_pending?: number;
  queue_ttl_seconds?: number;
  visibility?: 'public' | 'private';
  /** null clears it. */
  category?: string | null;
  description?: string;
  /** http(s) URLs shown in discovery records; null clears them (the card's show again). */
  websiteUrl?: string | null;
  docsUrl?: string | null;
}

/** Who the client's key speaks for (`me()`, the hub's `x-burrow/agent.me`). */
export interface HubIdentity {
  /** `admin` for a tenant admin key: then only `tenantId` is set. */
  kind: 'agent' | 'admin';
  tenantId: string;
  agentId?: string;
  name?: string;
  description?: string;
  alias?: string | null;
  visibility?: string;
  category?: string | null;
  tags?: string[];
  /** `websocket`, `http` or `official`. */
  transport?: string;
}
