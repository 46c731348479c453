// The hub client: messaging over JSON-RPC on POST /a2a (hub dialect), task streams over SSE, the
// discovery directory, usage and statistics, and agent settings (interface-spec "Endpoints").
import { randomUUID } from 'node:crypto';
import type { Message, Part } from '../protocol.js';
import { DEFAULT_RETRY, type RetryOptions } from './retry.js';
import { TaskStream } from './task-stream.js';
import { Transport } from './transport.js';
import type {
  AgentDetail,
  AgentLocation,
  AgentSettings,
  AgentSettingsPatch,
  CallOptions,
  Category,
  DirectoryAgent,
  GetTaskOptions,
  HubIdentity,
  HubTask,
  ListTasksParams,
  MessageContent,
  MessageStats,
  NearbyParams,
  NearbyResult,
  RateParams,
  RateResult,
  SearchParams,
  SearchResult,
  SendOptions,
  SendParams,
  StreamOptions,
  TaskList,
  UsageRecord,
} from './types.js';

export interface HubClientOptions {
  /** The hub's base URL, e.g. `http://localhost:3000`. */
  url: string;
  /** The calling agent's API key (or a tenant admin key for usage and settings). */
  apiKey?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Retries of 429 and 503 (see RetryOptions); per call, `CallOptions.retry` overrides it. */
  retry?: Partial<RetryOptions>;
}

export class HubClient {
  private readonly t: Transport;
  private readonly retry: RetryOptions;

  constructor(options: HubClientOptions) {
    if (typeof options.url !== 'string' || !/^https?:\/\//.test(options.url)) {
      throw new TypeError(`HubClient: url must be the hub's http(s) base URL, got ${options.url}`);
    }
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.t = new Transport({
      url: options.url,
      apiKey: options.apiKey,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      retry: this.retry,
    });
  }

  /** Who this client's key speaks for: the agent (id, tenant, name…) or a tenant admin. */
  me(options: CallOptions = {}): Promise<HubIdentity> {
    return this.t.rpc<HubIdentity>('x-burrow/agent.me', {}, 'safe', options);
  }

  // ---- messaging ------------------------------------------------------------------------------

  /**
   * SendMessage. Without `blocking` the task comes back `submitted`; with it, settled (or still
   * `working` after the hub's 60 s). Retried on 429 and 503: the messageId makes it idempotent.
   */
  send(params: SendParams): Promise<HubTask> {
    const body = sendParams(params);
    // Continuing a task is not deduped by the hub: only a refusal may be retried.
    const safety = params.taskId === undefined ? 'safe' : 'refusal-only';
    return this.t.rpc<HubTask>('SendMessage', body, safety, params);
  }

  /** SendMessage with one text part to `agentId` (an id or an alias such as `echo`). */
  sendText(agentId: string, text: string, options: SendOptions & MessageContent = {}) {
    return this.send({ ...options, agentId, text });
  }

  /**
   * Continue a conversation: a new message in `contextId`, to the other party of it (how an
   * agent answers a message it received). A string is sent as one text part.
   */
  reply(
    contextId: string,
    content: string | MessageContent,
    options: Omit<SendOptions, 'contextId'> = {}
  ): Promise<HubTask> {
    const c = typeof content === 'string' ? { text: content } : content;
    return this.send({ ...options, ...c, contextId });
  }

  /** GetTask: readable by the task's sender and recipient only (TaskNotFoundError otherwise). */
  getTask(id: string, options: GetTaskOptions = {}): Promise<HubTask> {
    const params =
      options.historyLength === undefined ? { id } : { id, historyLength: options.historyLength };
    return this.t.rpc<HubTask>('GetTask', params, 'safe', options);
  }

  /** ListTasks: the caller's tasks (sent or received), newest first, one page. */
  listTasks(params: ListTasksParams = {}, options: CallOptions = {}): Promise<TaskList> {
    const { statusTimestampAfter: after, ...rest } = params;
    const p = {
      ...rest,
      ...(after !== undefined
        ? { statusTimestampAfter: after instanceof Date ? after.toISOString() : after }
        : {}),
    };
    return this.t.rpc<TaskList>('ListTasks', p, 'safe', options);
  }

  /** Every task matching `params`, page after page. */
  async *allTasks(
    params: Omit<ListTasksParams, 'pageToken'> = {},
    options: CallOptions = {}
  ): AsyncGenerator<HubTask> {
    let pageToken: string | undefined;
    do {
      const page = await this.listTasks(
        { ...params, ...(pageToken ? { pageToken } : {}) },
        options
      );
      yield* page.tasks;
      pageToken = page.nextPageToken || undefined;
    } while (pageToken !== undefined);
  }

  /** CancelTask (sender only); TaskNotCancelableError once the task has ended. */
  cancelTask(id: string, options: CallOptions = {}): Promise<HubTask> {
    return this.t.rpc<HubTask>('CancelTask', { id }, 'refusal-only', options);
  }

  /**
   * SendStreamingMessage: the task, then its status, artifact and message events until it ends
   * (or needs input). A dropped connection is resumed with Last-Event-ID, nothing twice.
   */
  stream(params: SendParams & StreamOptions): TaskStream {
    return new TaskStream(
      this.t,
      { method: 'SendStreamingMessage', params: sendParams(params) },
      this.streamOptions(params)
    );
  }

  /**
   * SubscribeToTask: follow a task already sent. Without `lastEventId` the stream starts with the
   * task as it stands; with it, with the events after that one.
   */
  subscribe(taskId: string, options: StreamOptions & { lastEventId?: string } = {}): TaskStream {
    return new TaskStream(
      this.t,
      { method: 'SubscribeToTask', taskId, lastEventId: options.lastEventId },
      this.streamOptions(options)
    );
  }

  private streamOptions(o: StreamOptions) {
    const retry = o.retry ? { ...this.retry, ...o.retry } : this.retry;
    return { retry, maxReconnects: o.maxReconnects ?? retry.maxAttempts, signal: o.signal };
  }

  // ---- discovery ------------------------------------------------------------------------------

  /** Search the directory; every parameter of the spec, combinable. A key adds own-tenant agents. */
  searchAgents(params: SearchParams = {}, options: CallOptions = {}): Promise<SearchResult> {
    return this.t.rest(
      { method: 'GET', path: '/api/discover/agents', query: { ...params }, safety: 'safe' },
      options
    );
  }

  async categories(options: CallOptions = {}): Promise<Category[]> {
    const r = await this.t.rest<{ categories: Category[] }>(
      { method: 'GET', path: '/api/discover/categories', safety: 'safe' },
      options
    );
    return r.categories;
  }

  /** The agents the hub's operator featured, that the caller may see; best rated first. */
  async featuredAgents(options: CallOptions = {}): Promise<DirectoryAgent[]> {
    const r = await this.t.rest<{ agents: DirectoryAgent[] }>(
      { method: 'GET', path: '/api/discover/featured', safety: 'safe' },
      options
    );
    return r.agents;
  }

  /** An agent's directory record, card, statistics and reviews (NotFoundError if not visible). */
  agentDetail(agentId: string, options: CallOptions = {}): Promise<AgentDetail> {
    return this.t.rest(
      { method: 'GET', path: `/api/discover/agents/${enc(agentId)}`, safety: 'safe' },
      options
    );
  }

  /** Rate an agent 1..5 (with the rating agent's own key); a new rating replaces the previous one. */
  rateAgent(agentId: string, rating: RateParams, options: CallOptions = {}): Promise<RateResult> {
    return this.t.rest(
      {
        method: 'POST',
        path: `/api/discover/agents/${enc(agentId)}/rate`,
        body: rating,
        safety: 'refusal-only',
      },
      options
    );
  }

  /** Agents with a location within `radius` km of a point, nearest first. */
  nearbyAgents(params: NearbyParams, options: CallOptions = {}): Promise<NearbyResult> {
    return this.t.rest(
      { method: 'GET', path: '/api/discover/agents/nearby', query: { ...params }, safety: 'safe' },
      options
    );
  }

  async agentLocations(agentId: string, options: CallOptions = {}): Promise<AgentLocation[]> {
    const r = await this.t.rest<{ locations: AgentLocation[] }>(
      { method: 'GET', path: `/api/discover/agents/${enc(agentId)}/locations`, safety: 'safe' },
      options
    );
    return r.locations;
  }

  // ---- monitoring and settings ---------------------------------------------------------------

  /** Messages and bytes per day over the last `days` (default 7, up to 366). */
  async usage(params: { days?: number } = {}, options: CallOptions = {}): Promise<UsageRecord[]> {
    const r = await this.t.rest<{ usage: UsageRecord[] }>(
      { method: 'GET', path: '/api/usage', query: { days: params.days }, safety: 'safe' },
      options
    );
    return r.usage;
  }

  messageStats(params: { days?: number } = {}, options: CallOptions = {}): Promise<MessageStats> {
    return this.t.rest(
      {
        method: 'GET',
        path: '/api/messages/stats/summary',
        query: { days: params.days },
        safety: 'safe',
      },
      options
    );
  }

  /** An agent's settings: with its own key, or an admin key of its tenant. */
  agentSettings(agentId: string, options: CallOptions = {}): Promise<AgentSettings> {
    return this.t.rest(
      { method: 'GET', path: `/api/agents/${enc(agentId)}`, safety: 'safe' },
      options
    );
  }

  /** Change settings; all or nothing (a bad field, or an address that cannot be geocoded, saves none). */
  updateAgentSettings(
    agentId: string,
    patch: AgentSettingsPatch,
    options: CallOptions = {}
  ): Promise<AgentSettings> {
    const { tags, ...rest } = patch;
    // The spec's wire form of tags is a string holding a JSON array.
    const body = tags === undefined ? rest : { ...rest, tags: JSON.stringify(tags) };
    return this.t.rest(
      { method: 'PATCH', path: `/api/agents/${enc(agentId)}`, body, safety: 'safe' },
      options
    );
  }
}

/** `new HubClient(options)`, for those who prefer a function. */
export function createHubClient(options: HubClientOptions): HubClient {
  return new HubClient(options);
}

function enc(id: string): string {
  return encodeURIComponent(id);
}

/** The hub dialect's SendMessage params (spec "SendMessage configuration object"). */
function sendParams(p: SendParams): Record<string, unknown> {
  const parts: Part[] = [
    ...(p.text !== undefined ? [{ kind: 'text' as const, text: p.text }] : []),
    ...(p.parts ?? []),
  ];
  if (parts.length === 0) throw new TypeError('send: give the message `text` or `parts`');
  if (p.agentId === undefined && p.contextId === undefined && p.taskId === undefined) {
    throw new TypeError('send: give `agentId` (or `contextId` to reply in a conversation)');
  }
  const message: Message = {
    role: p.role ?? 'user',
    parts,
    messageId: p.messageId ?? `msg-${randomUUID()}`,
    ...(p.metadata !== undefined ? { metadata: p.metadata } : {}),
  };
  const configuration: Record<string, unknown> = {};
  if (p.agentId !== undefined) configuration.agentId = p.agentId;
  if (p.contextId !== undefined) configuration.contextId = p.contextId;
  if (p.taskId !== undefined) configuration.taskId = p.taskId;
  if (p.blocking !== undefined) configuration.blocking = p.blocking;
  if (p.historyLength !== undefined) configuration.historyLength = p.historyLength;
  if (p.acceptedOutputModes !== undefined)
    configuration.acceptedOutputModes = p.acceptedOutputModes;
  if (p.ttlSeconds !== undefined) configuration['x-ttl'] = p.ttlSeconds;
  return { message, configuration };
}
