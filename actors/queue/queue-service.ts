// Offline delivery (interface-spec Endpoints rule 6, "States and transitions"; nats-2.9.md §3
// Design A). A queue lives in the partition of its recipient's tenant: the owner of that partition
// holds the index of every queue of the tenant, so the three pending limits are exact in-memory
// checks, and appends go through the partition's fenced log. Each recipient with queued messages
// has a queue actor (queue-actor.ts, the queue machine stepped without an interpreter) that drains
// its FIFO. A removed message is recorded in a coalesced done record, never deleted by sequence;
// the stored messages go when the log is compacted in bulk (this service is the log's LogHolder for
// its queues and relocates what is still queued). The index is rebuilt from a headers-only replay
// of the log when a node takes the partition over (queue-partition.ts holds that log side).
import { decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';
import {
  partitionOf,
  type HandoverReason,
  type PartitionHandler,
  type PartitionLog,
} from '../../runtime/cluster/index.js';
import type { QueueConfig } from '../../runtime/config/index.js';
import { HubError, UnavailableError } from '../../runtime/errors/index.js';
import { callOwner, respondOwner, serveOwner, type OwnerReply } from '../../runtime/host/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import { QueueIndex, isExpired, type QueueEntry } from './queue-index.js';
import { QueueActor } from './queue-actor.js';
import { QueueActivations } from './queue-activation.js';
import { QueueBacklog } from './queue-backlog.js';
import { inspectQueue, summarizeQueues, type QueueSummary } from './queue-inspect.js';
import { DeliverySlots } from './delivery-slots.js';
import { expireDue, wakeStalledQueues } from './queue-sweeps.js';
import { DoneLog } from './queue-done.js';
import { collectQueueMetrics } from './queue-metrics.js';
import {
  QueueLogHolder,
  queueHolder,
  readBody,
  removeQueued,
  replayQueues,
  type QueuePartition,
} from './queue-partition.js';
import type {
  EnqueueRequest,
  EnqueueResult,
  QueueDelegate,
  QueueInspection,
} from './queue-types.js';

import type { DeliverHeadInput, DeliverHeadOutput, QueueTransport } from './queue.events.js';
import {
  largestHeaders,
  newEntry,
  queueHeaders,
  queueSubject,
  type QueuedBody,
} from './queue-records.js';

export { QueueLogHolder };
export type { EnqueueRequest, EnqueueResult, QueueDelegate, QueueInspection };

type QueueRequest =
  | { op: 'enqueue'; req: EnqueueRequest }
  | { op: 'backlog' }
  | { op: 'purge'; tenantId: string; recipientId: string; taskId: string }
  | { op: 'inspect'; tenantId: string; recipientId: string };

/** Queue deliveries one node runs at once (each is a log write and a socket write). */
const MAX_DELIVERIES_IN_FLIGHT = 256;

/** In-memory bodies per partition (beyond it, bodies are read back from the log). */
const BODY_CACHE_BYTES = 16 * 1024 * 1024;

export interface QueueServiceOptions {
  bus: Bus;
  partitions: number;
  config: QueueConfig;
  log: Logger;
  metrics?: HubMetrics;
  /** Is a WebSocket agent connected anywhere? */
  isOnline(agentId: string): boolean;
  now?: () => number;
  handoverWaitMs?: number;
  /** How often idle queues of connected recipients are checked (default 5 s). */
  watchdogMs?: number;
}

export class QueueService implements PartitionHandler {
  /** Every record it writes to a partition's log is covered by its LogHolder (compaction may run). */
  readonly holdsLogRecords = true;
  private readonly parts = new Map<number, QueuePartition>();
  private readonly backlog: QueueBacklog;
  private readonly activations: QueueActivations;
  private watchdog: NodeJS.Timeout | undefined;
  private readonly slots = new DeliverySlots(MAX_DELIVERIES_IN_FLIGHT);
  /** Which owned partition holds each recipient's queue actor (deliverHead and presence look it up). */
  private readonly byRecipient = new Map<string, QueuePartition>();
  private delegate: QueueDelegate | undefined;
  private readonly now: () => number;
  private readonly interval: number;

  constructor(private readonly o: QueueServiceOptions) {
    this.now = o.now ?? Date.now;
    this.interval = Math.round(1000 / o.config.drainPerSecond);
    this.backlog = new QueueBacklog({
      bus: o.bus,
      partitions: o.partitions,
      read: (p) => this.call<string[]>(p, { op: 'backlog' }),
    });
    this.activations = new QueueActivations(o.bus);
    o.metrics?.onCollect(() => {
      if (o.metrics) collectQueueMetrics(o.metrics, this.parts.values());
    });
  }

  /** The task side, wired after both exist (each needs the other). */
  connect(delegate: QueueDelegate): void {
    this.delegate = delegate;
  }

  start(): void {
    this.watchdog = setInterval(() => {
      const woken = wakeStalledQueues(this.parts.values(), (id) => this.o.isOnline(id));
      if (woken > 0) this.o.metrics?.queueWatchdogWakeups.inc(woken);
    }, this.o.watchdogMs ?? 5000);
    this.watchdog.unref();
    this.activations.start();
    this.backlog.start(() => this.parts.keys());
  }

  stop(): void {
    clearInterval(this.watchdog);
    this.backlog.stop();
    this.activations.stop();
  }

  /**
   * Has the recipient queued messages? New messages then queue behind them (FIFO). Also true while
   * this node has not read the backlogs of the recipient's queue partition (after it started, or
   * reconnected to NATS): the queue delivers in order, a direct delivery could overtake.
   */
  hasBacklog(recipientId: string, tenantId: string): boolean {
    return this.backlog.has(recipientId, this.partitionOf(tenantId));
  }

  /** The cluster's membership changed: broadcasts from across a split may have been lost. */
  membershipChanged(): void {
    this.backlog.refresh(() => this.parts.keys());
  }

  /** Called with the partition whenever any node activates a queue partition. */
  onActivated(fn: (partition: number) => void): void {
    this.activations.on(fn);
  }

  partitionOf(tenantId: string): number {
    return partitionOf(tenantId, this.o.partitions);
  }

  // ---- API for any node (routed to the queue's owner) -------------------------------------------

  enqueue(req: EnqueueRequest): Promise<EnqueueResult> {
    return this.call<EnqueueResult>(this.partitionOf(req.tenantId), { op: 'enqueue', req }).then(
      (r) => {
        // Known here at once, before the owner's broadcast: the next message of the same lane
        // must queue behind this one.
        if (!r.duplicate) this.backlog.add(req.recipientId);
        return r;
      }
    );
  }

  /** Removes every queued message of a task (CancelTask); resolves with how many. */
  purgeTask(tenantId: string, recipientId: string, taskId: string): Promise<number> {
    return this.call<number>(this.partitionOf(tenantId), {
      op: 'purge',
      tenantId,
      recipientId,
      taskId,
    });
  }

  inspect(tenantId: string, recipientId: string): Promise<QueueInspection> {
    return this.call<QueueInspection>(this.partitionOf(tenantId), {
      op: 'inspect',
      tenantId,
      recipientId,
    });
  }

  /**
   * The daily cleanup, on the partitions this node owns: expired messages leave the log and their
   * tasks fail. Resolves with how many were removed.
   */
  async cleanup(): Promise<number> {
    let removed = 0;
    for (const qp of [...this.parts.values()]) {
      const byRecipient = await expireDue(qp, this.now(), (e) => this.expire(qp, e));
      for (const [recipientId, count] of byRecipient) {
        removed += count;
        qp.actors.get(recipientId)?.send({ type: 'queue.expired', count });
        this.settle(qp, recipientId);
      }
    }
    return removed;
  }

  /**
   * An agent's WebSocket connected or left (presence, any node). A connect wakes any queue (the
   * socket goes first, decisions.md §11); a leave pauses only a queue with no URL to retry.
   */
  presenceChanged(agentId: string, online: boolean): void {
    const qp = this.byRecipient.get(agentId);
    const a = qp?.actors.get(agentId);
    if (!a) return;
    if (online) a.send({ type: 'recipient.online' });
    else if (qp!.transports.get(agentId) === 'websocket') a.send({ type: 'recipient.offline' });
  }

  // ---- PartitionHandler ---------------------------------------------------------------------

  async activate(partition: number, label: string, log: PartitionLog): Promise<void> {
    const started = performance.now();
    const index = new QueueIndex();
    const replay = await replayQueues(this.o.bus, this.o.log, label);
    replay.into(index);
    const done = new DoneLog(log, label, replay.doneRecords);
    const rebuildMs = Math.round(performance.now() - started);
    const qp: QueuePartition = {
      partition,
      label,
      log,
      index,
      done,
      actors: new Map(),
      transports: new Map(),
      sub: undefined as never,
      live: true,
      rebuildMs,
      bodies: new Map(),
      bodyBytes: 0,
      appending: new Set(),
    };
    qp.sub = this.o.bus.nc.subscribe(subjects.partitionRequest(label, 'queue'), {
      callback: (_err, msg) => {
        void this.serve(partition, decodeJson<QueueRequest>(msg.data)).then((r) =>
          respondOwner(this.o.bus, msg, r)
        );
      },
    });
    this.parts.set(partition, qp);
    log.addHolder(queueHolder(this.o.bus, qp));
    const recipients = index.recipients();
    for (const recipientId of recipients) this.backlog.broadcast(recipientId, true);
    this.backlog.markKnown(partition);
    // Task owners look for tasks of this partition whose queued message a crash lost.
    this.activations.announce(partition);
    for (const recipientId of recipients) {
      const transport = await this.need().transportOf(recipientId);
      if (!qp.live) return;
      this.actorFor(qp, recipientId, transport).send({ type: 'queue.resume' });
    }
  }

  async deactivate(partition: number, _label: string, _reason: HandoverReason): Promise<void> {
    const qp = this.parts.get(partition);
    if (!qp) return;
    this.parts.delete(partition);
    qp.live = false;
    qp.sub.unsubscribe();
    for (const [recipientId, a] of qp.actors) {
      a.stop();
      if (this.byRecipient.get(recipientId) === qp) this.byRecipient.delete(recipientId);
    }
    qp.actors.clear();
    // Removals made so far reach the log before the next owner replays it (else they are
    // delivered again: harmless, but avoidable on a planned handover).
    await qp.done.durable().catch(() => undefined);
  }

  // ---- owner side ---------------------------------------------------------------------------

  private call<R>(partition: number, req: QueueRequest): Promise<R> {
    return callOwner<R>(
      {
        bus: this.o.bus,
        partitions: this.o.partitions,
        handoverWaitMs: this.o.handoverWaitMs,
        ...(this.o.metrics ? { metrics: this.o.metrics } : {}),
      },
      partition,
      'queue',
      req,
      () => (this.parts.has(partition) ? this.serve<R>(partition, req) : undefined)
    );
  }

  private serve<R>(partition: number, req: QueueRequest): Promise<OwnerReply<R>> {
    return serveOwner(async () => {
      const qp = this.parts.get(partition);
      if (!qp) throw new UnavailableError('queue partition moved');
      switch (req.op) {
        case 'enqueue':
          return (await this.admitAndAppend(qp, req.req)) as R;
        case 'purge':
          return (await this.purge(qp, req.recipientId, req.taskId)) as R;
        case 'inspect':
          return inspectQueue(qp, req.recipientId, this.now()) as R;
        case 'backlog':
          return qp.index.recipients().filter((r) => qp.index.pendingFor(r) > 0) as R;
        default: {
          const never: never = req;
          throw new HubError('INVALID_REQUEST', `unknown queue op ${JSON.stringify(never)}`);
        }
      }
    }, this.o.log);
  }

  private async admitAndAppend(qp: QueuePartition, r: EnqueueRequest): Promise<EnqueueResult> {
    if (r.ensure && qp.index.holdsTask(r.taskId)) return { taskId: r.taskId, duplicate: true };
    const admission = await this.admit(qp, r);
    if (admission.kind === 'duplicate') {
      return { taskId: admission.entry.taskId, duplicate: true };
    }
    let taskId = r.taskId;
    let task: unknown;
    let acceptedAt = r.acceptedAt;
    try {
      const body = encodeJson({ message: r.message } satisfies QueuedBody);
      // Measured before the task exists: a message the log would refuse leaves nothing behind.
      // With the headers of a relocated copy, so a compaction can always store it again.
      const room = qp.log.maxPayloadBytes({
        headers: largestHeaders(newEntry(r, taskId, this.now())),
      });
      if (body.byteLength > room) {
        throw new HubError(
          'PAYLOAD_TOO_LARGE',
          `Message of ${body.byteLength} bytes does not fit the recipient's queue: NATS ` +
            `max_payload (${qp.log.maxPayload} bytes) leaves ${room} bytes for it`,
          { data: { size: body.byteLength, limit: room, maxPayload: qp.log.maxPayload } }
        );
      }
      if (r.spawn !== undefined) {
        const created = await this.need().createTask(r.spawn, r.key);
        taskId = created.taskId;
        task = created.task;
        // The task layer had seen this message (its own 2-minute window). If the task went past
        // `submitted`, the message was delivered: nothing to queue. Still `submitted` while this
        // queue does not hold its key: an earlier attempt created the task and then failed before
        // the append (the partition moved or its log broke; the caller retried), so the message
        // is in no queue — queue it now, or it is acknowledged and never delivered.
        const status = (task as { status?: { state?: string; timestamp?: number } } | undefined)
          ?.status;
        if (!created.created && status?.state !== 'submitted') {
          qp.index.release(r.key);
          return { taskId, task, duplicate: true };
        }
        // Queued late: its place among its sender's messages is where it was accepted.
        if (!created.created && typeof status?.timestamp === 'number')
          acceptedAt = status.timestamp;
      } else if (r.ensure && !(await this.need().stillQueued(r.taskId))) {
        qp.index.release(r.key);
        return { taskId, duplicate: true };
      }
      const entry = newEntry({ ...r, acceptedAt }, taskId, this.now());
      if (!qp.live) throw new UnavailableError('queue partition moved');
      // Indexed in the same step as the acknowledgement, and tracked until then: a compaction
      // whose cut lies above this append's sequence waits for it (see relocate).
      const appended = qp.log
        .append(queueSubject(qp.label, entry), body, { headers: queueHeaders(entry) })
        .then((seq) => {
          if (qp.bodyBytes + body.byteLength <= BODY_CACHE_BYTES) {
            qp.bodies.set(seq, body);
            qp.bodyBytes += body.byteLength;
          }
          qp.index.add({ ...entry, seq }, seq);
        });
      qp.appending.add(appended);
      try {
        await appended;
      } finally {
        qp.appending.delete(appended);
      }
    } catch (err) {
      qp.index.release(r.key);
      throw err;
    }
    if (!this.backlog.listed(r.recipientId)) this.backlog.broadcast(r.recipientId, true);
    const actor = this.actorFor(qp, r.recipientId, r.transport, r.unreachable);
    actor.send(
      r.unreachable && r.transport === 'http'
        ? { type: 'recipient.offline' }
        : { type: 'queue.enqueued', seq: qp.index.head(r.recipientId)?.seq ?? 1 }
    );
    return { taskId, ...(task !== undefined ? { task } : {}), duplicate: false };
  }

  /** Admission, waiting briefly while the same key's first attempt is being written. */
  private async admit(qp: QueuePartition, r: EnqueueRequest) {
    for (let i = 0; ; i++) {
      const a = qp.index.admit(
        {
          tenantId: r.tenantId,
          recipientId: r.recipientId,
          senderId: r.senderId,
          key: r.key,
          now: this.now(),
        },
        {
          recipientMaxPending: r.maxPending,
          senderMaxPending: this.o.config.senderMaxPending,
          tenantMaxPending: this.o.config.tenantMaxPending,
        }
      );
      if (a.kind !== 'in-flight') return a;
      if (i >= 100) throw new UnavailableError('the same message is being queued; retry');
      await new Promise((res) => setTimeout(res, 20));
    }
  }

  private async purge(qp: QueuePartition, recipientId: string, taskId: string): Promise<number> {
    const removed = qp.index.purgeTask(taskId);
    for (const e of removed) removeQueued(qp, e.seq);
    // The cancel is answered once the removal is durable: the messages never come back.
    if (removed.length > 0) await qp.done.durable();
    if (removed.length > 0) {
      qp.actors.get(recipientId)?.send({ type: 'queue.purged', count: removed.length });
      this.settle(qp, recipientId);
    }
    return removed.length;
  }

  /** The recipient's queue actor, started on first use. */
  private actorFor(
    qp: QueuePartition,
    recipientId: string,
    t: QueueTransport,
    unreachable = false
  ): QueueActor {
    const existing = qp.actors.get(recipientId);
    if (existing) return existing;
    const online = t === 'websocket' ? this.o.isOnline(recipientId) : !unreachable;
    const interval = this.interval;
    const actor = new QueueActor(
      { recipientId, transport: t, online },
      {
        deliverHead: (input) => this.deliverHead(input),
        drainInterval: (c) => Math.max(0, interval - c.lastTookMs),
        retryInterval: this.o.config.httpRetryMs,
        busyRetryInterval: this.o.config.busyRetryMs,
        // An empty queue's idle actor leaves memory; the next enqueue starts a fresh one.
        onIdle: () => {
          if (qp.index.pendingFor(recipientId) === 0) {
            queueMicrotask(() => this.settle(qp, recipientId));
          }
        },
      }
    );
    qp.actors.set(recipientId, actor);
    qp.transports.set(recipientId, t);
    this.byRecipient.set(recipientId, qp);
    return actor;
  }

  /** Drops an empty recipient's idle actor and tells the cluster its backlog is gone. */
  private settle(qp: QueuePartition, recipientId: string): void {
    if (qp.index.pendingFor(recipientId) > 0) return;
    const a = qp.actors.get(recipientId);
    if (a && a.state !== 'idle') return;
    if (a) {
      a.stop();
      qp.actors.delete(recipientId);
      qp.transports.delete(recipientId);
      if (this.byRecipient.get(recipientId) === qp) this.byRecipient.delete(recipientId);
    }
    if (this.backlog.listed(recipientId)) this.backlog.broadcast(recipientId, false);
  }

  /**
   * The queue actor's deliverHead, through a per-node bound on deliveries in flight: when many
   * recipients drain at once (a node restart, 1,000 agents reconnecting), unbounded concurrency
   * overloads the log until writes time out and partitions change hands; bounded, every queue
   * gets its fair share (the waiting line is first come, first served) and the pacing stretches
   * instead. The wait for a slot counts as part of the attempt, so the pacing after it is that
   * much shorter: 10/s from one attempt's start to the next, not 10/s plus the wait.
   */
  private async deliverHead(input: DeliverHeadInput): Promise<DeliverHeadOutput> {
    const asked = this.now();
    const wait = this.slots.take();
    if (wait) await wait;
    try {
      return await this.deliverHeadNow(input, asked);
    } finally {
      this.slots.give();
    }
  }

  private async deliverHeadNow(input: DeliverHeadInput, asked: number): Promise<DeliverHeadOutput> {
    const qp = this.byRecipient.get(input.recipientId);
    if (!qp?.live) return { outcome: 'empty' };
    let expired = 0;
    for (let attempt = 0; ; attempt++) {
      const head = qp.index.head(input.recipientId);
      if (!head) return { outcome: 'empty', expired };
      if (isExpired(head, this.now())) {
        if (await this.expire(qp, head)) {
          expired++;
          this.o.metrics?.queueDeliveries.inc({ outcome: 'expired' });
        }
        continue;
      }
      if (input.transport === 'websocket' && !this.o.isOnline(input.recipientId)) {
        return { outcome: 'offline', expired };
      }
      // A head dropped as gone or expired is not a delivery: the pacing counts from this one.
      const started = attempt === 0 ? asked : this.now();
      const body = await readBody(this.o.bus, qp, head.seq);
      if (!qp.live) return { outcome: 'empty', expired };
      const outcome = body ? await this.need().deliverQueued(head, body.message) : 'gone';
      if (outcome === 'busy' || outcome === 'offline') {
        // A socket that vanished while presence still names one (being replaced, or presence
        // lagging) is retried like a busy one: no presence change may come to wake the queue.
        const stillThere =
          outcome === 'offline' &&
          input.transport === 'websocket' &&
          this.o.isOnline(input.recipientId);
        this.o.metrics?.queueDeliveries.inc({ outcome: stillThere ? 'busy' : outcome });
        return { outcome: stillThere ? 'busy' : outcome, reason: `recipient ${outcome}`, expired };
      }
      // Delivered (or no longer wanted): it leaves the index now, and the log's view of the queue
      // with the next done record (not awaited). A crash in between delivers it again after the
      // restart, with the same messageId.
      removeQueued(qp, head.seq);
      this.o.metrics?.queueDeliveries.inc({ outcome });
      if (outcome === 'delivered') {
        return { outcome: 'delivered', seq: head.seq, expired, tookMs: this.now() - started };
      }
    }
  }

  /** Removes an expired message and fails its task; false when it was already gone. */
  private async expire(qp: QueuePartition, e: QueueEntry): Promise<boolean> {
    if (!qp.index.get(e.seq)) return false;
    removeQueued(qp, e.seq);
    await qp.done.durable();
    await this.need()
      .expired(e)
      .catch((err: unknown) =>
        this.o.log.warn({ err, taskId: e.taskId }, 'failing an expired task failed')
      );
    return true;
  }

  private need(): QueueDelegate {
    if (!this.delegate) throw new HubError('INTERNAL', 'queue service used before connect()');
    return this.delegate;
  }

  /** For /debug/cluster. */
  localSummary(): QueueSummary[] {
    return summarizeQueues(this.parts.values(), this.o.partitions);
  }
}
