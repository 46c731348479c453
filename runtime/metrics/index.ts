// Prometheus metrics for one hub process. One registry per process (tests build several hubs in
// one process, so nothing here is a module-level singleton).
import { Registry, Counter, Histogram, Gauge, collectDefaultMetrics } from 'prom-client';
import { HotCounter, HotHistogram } from './hot.js';

export interface HubMetrics {
  readonly registry: Registry;
  /**
   * Label series with agent and tenant ids (METRICS_PER_AGENT)? Off, the queue gauges carry no
   * ids: anyone who can scrape must not learn which agents and tenants exist or how busy they are.
   */
  readonly perAgent: boolean;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly rpcRequests: Counter<'method' | 'code'>;
  readonly rpcDuration: Histogram<'method'>;
  readonly partitionsOwned: Gauge;
  readonly actorsActive: Gauge<'kind'>;
  readonly partitionHandovers: Counter<'reason'>;
  readonly queuePending: Gauge<'recipient'>;
  readonly queueTenantPending: Gauge<'tenant'>;
  /** Requests refused by the per-key rate limit (429 / -32017). */
  readonly rateLimited: Counter;
  /**
   * Log writes refused before they were sent because no retry could make them succeed, by actor
   * kind (or `queue`) and reason (`too_large`, `unwritable`).
   */
  readonly writesRefused: Counter<'kind' | 'reason'>;
  /** Partition log compactions, by result (`done`, `aborted`). */
  readonly logCompactions: Counter<'result'>;
  /** Records a compaction copied forward before the purge, by holder and destination (`log`, `archive`). */
  readonly logRecordsRelocated: Counter<'holder' | 'to'>;
  /** Records removed from partition logs by compaction purges. */
  readonly logRecordsPurged: Counter;
  /** Duration of completed compactions (relocation, marker and purge). */
  readonly logCompactionSeconds: Histogram;
  /** Bounded retry loops that gave up, by loop (see docs/OPERATIONS.md). */
  readonly retryGiveUps: Counter<'loop'>;
  /**
   * Delivery attempts by transport (`websocket`, `http`, `official`) and outcome (`pushed`,
   * `answered`, `unreachable`: the message queues, `busy`: the agent's socket is backed up).
   */
  readonly deliveries: Counter<'transport' | 'outcome'>;
  /** Messages delivered again because the node holding the recipient's socket went away. */
  readonly redeliveries: Counter;
  readonly duplicatePushesDropped: Counter;
  readonly socketCloseRedeliveries: Counter;
  /** Restored actors dropped as a write their owner took for failed, superseded by a retry. */
  readonly unacknowledgedSpawnsDropped: Counter;
  /**
   * Deliveries that waited for another node's HTTP call of the same message (Task.calling), by
   * outcome: `answered` (it was answered or queued meanwhile, no second call) or `called_again`
   * (the call's deadline passed: the agent is called again, at-least-once).
   */
  readonly handoverCallsAwaited: Counter<'outcome'>;
  /** Queue deliveries by outcome (`delivered`, `busy`, `offline`, `gone`, `expired`): the drain rate. */
  readonly queueDeliveries: Counter<'outcome'>;
  /** Idle queues of connected recipients the watchdog had to wake: each is a wake-up that was lost. */
  readonly queueWatchdogWakeups: Counter;
  /** Webhook POSTs by outcome (`ok`, `failed`: retried later, `refused`: URL not allowed). */
  readonly webhookDeliveries: Counter<'outcome'>;
  /** Open agent WebSockets on this node. */
  readonly wsConnections: Gauge;
  /** Frames waiting in agents' outboxes (sockets above their high-water mark), and such sockets. */
  readonly wsOutboxFrames: Gauge;
  readonly wsBackedUp: Gauge;
  /** JetStream publish → PubAck latency, and publishes awaiting their ack. */
  readonly publishSeconds: Histogram;
  readonly publishPendingAcks: Gauge;
  /** Run `fn` before each scrape (gauges read from in-memory state). */
  onCollect(fn: () => void): void;
}

export function createMetrics(
  opts: { defaultMetrics?: boolean; nodeId?: string; perAgent?: boolean } = {}
): HubMetrics {
  const registry = new Registry();
  if (opts.nodeId) registry.setDefaultLabels({ node: opts.nodeId });
  if (opts.defaultMetrics !== false)
    collectDefaultMetrics({ register: registry, prefix: 'burrow_' });
  // Buckets in seconds, dense below 25 ms where the hot path lives.
  const buckets = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
  ];
  const collectors: Array<() => void> = [];
  let collectedAt = -1;
  // One scrape reads every metric; the collectors run once per scrape, whichever gauge asks first.
  const collect = () => {
    const now = Date.now();
    if (now - collectedAt < 50) return;
    collectedAt = now;
    for (const fn of collectors) fn();
  };
  return {
    registry,
    perAgent: opts.perAgent ?? false,
    onCollect: (fn) => collectors.push(fn),
    deliveries: new HotCounter({
      name: 'burrow_deliveries_total',
      help: 'Delivery attempts by transport and outcome (pushed, answered, unreachable, busy)',
      labelNames: ['transport', 'outcome'],
      registers: [registry],
    }),
    redeliveries: new Counter({
      name: 'burrow_redeliveries_total',
      help: 'Messages delivered again after the node holding the socket went away',
      registers: [registry],
    }),
    handoverCallsAwaited: new Counter({
      name: 'burrow_handover_calls_awaited_total',
      help: "Deliveries that waited for another node's HTTP call of the same message, by outcome (answered, called_again)",
      labelNames: ['outcome'],
      registers: [registry],
    }),
    socketCloseRedeliveries: new Counter({
      name: 'burrow_socket_close_redeliveries_total',
      help: 'Messages delivered again because their socket closed before the agent answered or acknowledged them',
      registers: [registry],
    }),
    unacknowledgedSpawnsDropped: new Counter({
      name: 'burrow_unacknowledged_spawns_dropped_total',
      help: 'Actors found on restore whose spawn was taken for failed and retried under the same key: the older copy, dropped',
      registers: [registry],
    }),
    duplicatePushesDropped: new Counter({
      name: 'burrow_duplicate_pushes_dropped_total',
      help: 'Second pushes of a message to a socket that already had it, not written',
      registers: [registry],
    }),
    queueDeliveries: new Counter({
      name: 'burrow_queue_deliveries_total',
      help: 'Queued messages handed on, by outcome (delivered, busy, offline, gone, expired)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    queueWatchdogWakeups: new Counter({
      name: 'burrow_queue_watchdog_wakeups_total',
      help: 'Idle queues of connected recipients woken by the watchdog (a lost wake-up each)',
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'burrow_webhook_deliveries_total',
      help: 'Webhook POSTs by outcome (ok, failed, refused)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    wsConnections: new Gauge({
      name: 'burrow_ws_connections',
      help: 'Open agent WebSockets on this node',
      registers: [registry],
      collect,
    }),
    wsOutboxFrames: new Gauge({
      name: 'burrow_ws_outbox_frames',
      help: 'Frames waiting in agent outboxes because their socket is above its high-water mark',
      registers: [registry],
      collect,
    }),
    wsBackedUp: new Gauge({
      name: 'burrow_ws_backed_up_sockets',
      help: 'Agent sockets with frames waiting in their outbox',
      registers: [registry],
      collect,
    }),
    publishSeconds: new HotHistogram({
      name: 'burrow_jetstream_publish_seconds',
      help: 'JetStream publish to PubAck latency',
      buckets,
      registers: [registry],
    }),
    publishPendingAcks: new Gauge({
      name: 'burrow_jetstream_pending_acks',
      help: 'JetStream publishes awaiting their PubAck',
      registers: [registry],
      collect,
    }),
    queuePending: new Gauge({
      name: 'burrow_queue_pending',
      help: 'Queued messages per recipient (without METRICS_PER_AGENT: in total), reported by the node owning the queue',
      labelNames: ['recipient'],
      registers: [registry],
      collect,
    }),
    queueTenantPending: new Gauge({
      name: 'burrow_queue_tenant_pending',
      help: 'Queued (and being queued) messages per recipient tenant (without METRICS_PER_AGENT: of the fullest tenant), by the owning node',
      labelNames: ['tenant'],
      registers: [registry],
      collect,
    }),
    rateLimited: new Counter({
      name: 'burrow_rate_limited_total',
      help: 'Requests refused by the per-API-key rate limit',
      registers: [registry],
    }),
    httpRequests: new HotCounter({
      name: 'burrow_http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new HotHistogram({
      name: 'burrow_http_request_duration_seconds',
      help: 'HTTP request latency from first byte to response end',
      labelNames: ['method', 'route'],
      buckets,
      registers: [registry],
    }),
    rpcRequests: new HotCounter({
      name: 'burrow_rpc_requests_total',
      help: 'JSON-RPC calls, by method and result code (0 = success)',
      labelNames: ['method', 'code'],
      registers: [registry],
    }),
    rpcDuration: new HotHistogram({
      name: 'burrow_rpc_duration_seconds',
      help: 'JSON-RPC call latency',
      labelNames: ['method'],
      buckets,
      registers: [registry],
    }),
    partitionsOwned: new Gauge({
      name: 'burrow_partitions_owned',
      help: 'Partitions this node owns',
      registers: [registry],
    }),
    actorsActive: new Gauge({
      name: 'burrow_actors_active',
      help: 'Live actors on this node, by kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    writesRefused: new Counter({
      name: 'burrow_log_writes_refused_total',
      help: 'Log writes refused before being sent (too large for NATS max_payload, unwritable subject)',
      labelNames: ['kind', 'reason'],
      registers: [registry],
    }),
    logCompactions: new Counter({
      name: 'burrow_log_compactions_total',
      help: 'Partition log compactions (copy forward what is needed, purge the rest), by result',
      labelNames: ['result'],
      registers: [registry],
    }),
    logRecordsRelocated: new Counter({
      name: 'burrow_log_records_relocated_total',
      help: 'Records copied forward by log compactions, by holder and destination (log or archive)',
      labelNames: ['holder', 'to'],
      registers: [registry],
    }),
    logRecordsPurged: new Counter({
      name: 'burrow_log_records_purged_total',
      help: 'Records removed from partition logs by compaction purges',
      registers: [registry],
    }),
    logCompactionSeconds: new Histogram({
      name: 'burrow_log_compaction_seconds',
      help: 'Duration of completed partition log compactions',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    retryGiveUps: new Counter({
      name: 'burrow_retry_give_ups_total',
      help: 'Bounded retry loops that gave up, by loop',
      labelNames: ['loop'],
      registers: [registry],
    }),
    partitionHandovers: new Counter({
      name: 'burrow_partition_handovers_total',
      help: 'Partitions given up by this node, by reason (rebalance, fenced, lock_lost, shutdown)',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}
export { rowsSetAside } from './rows-set-aside.js';
