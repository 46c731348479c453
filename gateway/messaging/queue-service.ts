// Offline delivery (interface-spec Endpoints rule 6, "States and transitions"; nats-2.9.md §3
// Design A). A queue lives in the partition of its recipient's tenant: the owner of that partition
// holds the index of every queue of the tenant, so the three pending limits are exact in-memory
// checks, and appends go through the partition's fenced log. Each recipient with queued messages
// has a queue actor (actors/queue) that drains its FIFO; the index is rebuilt from a headers-only
// replay of the log when a node takes the partition over.
import type { Subscription } from '@nats-io/nats-core';
import { DeliverPolicy } from '@nats-io/jetstream';
import { createActor, fromPromise, type Actor } from 'xstate';
import {
  decodeJson,
  encodeJson,
  idleGuard,
  isNoMessage,
  partitionLabel,
  streams,
  subjects,
  type Bus,
} from '../../runtime/bus/index.js';
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
import type { Message } from '../../runtime/protocol/index.js';
import {
  QueueIndex,
  isExpired,
  queueMachine,
  type DeliverHeadInput,
  type DeliverHeadOutput,
  type QueueEntry,
  type QueueTransport,
} from '../../actors/index.js';
import {
  entryOf,
  queueHeaders,
  queueSubject,
  type NewEntry,
  type QueuedBody,
} from './queue-records.js';

/** What the task side does for the queues (TaskService implements it). */
export interface QueueDelegate {
  /** How a recipient is reached (asked after a takeover; queued messages don't carry it). */
  transportOf(recipientId: string): Promise<QueueTransport>;
  /** Create the task of a new send once the queue admitted its message; the task as it stands. */
  createTask(
    spawn: unknown,
    key: string
  ): Promise<{ taskId: string; task: unknown; created: boolean }>;
  /**
   * Deliver a queued message now. `gone`: its task no longer waits for it (canceled, finished,
   * recipient deleted): drop it.
   */
  deliverQueued(
    entry: QueueEntry,
    message: Message
  ): Promise<'delivered' | 'busy' | 'offline' | 'gone'>;
  /** The message expired before delivery: fail its task and report message.failed. */
  expired(entry: QueueEntry): Promise<void>;
}

export interface EnqueueRequest {
  /** The recipient's tenant (its queue partition, its 10,000 limit). */
  tenantId: string;
  recipientId: string;
  senderId: string;
  transport: QueueTransport;
  /** `<senderId>:<messageId>`: a repeat within 2 minutes answers with the first task. */
  key: string;
  /** The recipient's queue_max_pending. */
  maxPending: number;
  /** Epoch ms after which the message is never delivered. */
  expiresAt: number;
  message: Message;
  taskId: string;
  /** A new send: the task is created only once the message is admitted (a refusal leaves no trace). */
  spawn?: unknown;
  /** The recipient just failed to answer (HTTP): the first retry waits the retry interval. */
  unreachable?: boolean;
}

export interface EnqueueResult {
  taskId: string;
  /** The task's view after creation (new sends), undefined for an existing task. */
  task?: unknown;
  duplicate: boolean;
}

export interface QueueInspection {
  recipientId: string;
  pending: number;
  queued: number;
  oldestAgeMs: number;
  state: 'idle' | 'draining' | 'waiting' | 'none';
  online: boolean | null;
  delivered: number;
  failed: number;
  expired: number;
  purged: number;
  lastError: string | null;
  head: Array<{
    seq: number;
    taskId: string;
    senderId: string;
    enqueuedAt: number;
    expiresAt: number;
  }>;
}

type QueueRequest =
  | { op: 'enqueue'; req: EnqueueRequest }
  | { op: 'purge'; tenantId: string; recipientId: string; taskId: string }
  | { op: 'inspect'; tenantId: string; recipientId: string };

type QueueActor = Actor<typeof queueMachine>;

interface QueuePartition {
  partition: number;
  label: string;
  log: PartitionLog;
  index: QueueIndex;
  actors: Map<string, QueueActor>;
  transports: Map<string, QueueTransport>;
  sub: Subscription;
  /** Cleared on deactivate: in-flight work checks it before touching the log. */
  live: boolean;
  /** How long the index rebuild took at activation. */
  rebuildMs: number;
  /**
   * Encoded bodies of messages appended by this owner, so a delivery needs no read from the log
   * (a log read per message was the drain's bottleneck). Bounded by bodyBytes; entries rebuilt
   * after a takeover, or beyond the bound, are read from the log.
   */
  bodies: Map<number, Uint8Array>;
  bodyBytes: number;
  /** Per recipient: the highest delivered sequence not yet purged from the log, and whether a purge runs. */
}

function newEntry(r: EnqueueRequest, taskId: string, now: number): NewEntry {
  return {
    tenantId: r.tenantId,
    recipientId: r.recipientId,
    senderId: r.senderId,
    taskId,
    key: r.key,
    enqueuedAt: now,
    expiresAt: r.expiresAt,
  };
}

/** Queue deliveries one node runs at once (each is a few log writes and a socket write). */
/** A log replay that receives nothing for this long fails the activation (retried later). */
const REPLAY_IDLE_MS = 10_000;
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
  private readonly parts = new Map<number, QueuePartition>();
  /** Recipients with queued messages, cluster-wide (owners broadcast changes). */
  private readonly backlog = new Set<string>();
  private backlogSub: Subscription | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private inFlight = 0;
  /** Which owned partition holds each recipient's queue actor (deliverHead and presence look it up). */
  private readonly byRecipient = new Map<string, QueuePartition>();
  private readonly waiting: Array<() => void> = [];
  private delegate: QueueDelegate | undefined;
  private readonly machine: typeof queueMachine;
  private readonly now: () => number;

  constructor(private readonly o: QueueServiceOptions) {
    this.now = o.now ?? Date.now;
    const interval = Math.round(1000 / o.config.drainPerSecond);
    this.machine = queueMachine.provide({
      actors: {
        deliverHead: fromPromise<DeliverHeadOutput, DeliverHeadInput>(({ input }) =>
          this.deliverHead(input)
        ),
      },
      delays: {
        drainInterval: ({ context }) => Math.max(0, interval - context.lastTookMs),
        retryInterval: o.config.httpRetryMs,
        busyRetryInterval: o.config.busyRetryMs,
      },
    });
    o.metrics?.onCollect(() => this.collectMetrics());
  }

  /** The task side, wired after both exist (each needs the other). */
  connect(delegate: QueueDelegate): void {
    this.delegate = delegate;
  }

  start(): void {
    // Safety net: a connected WebSocket recipient whose queue sits idle, or waits after a failed
    // attempt, with messages (a missed presence change) is woken; one with a URL too (its socket
    // goes before its URL). Cheap: only recipients with queued messages have actors.
    this.watchdog = setInterval(() => {
      for (const qp of this.parts.values()) {
        for (const [recipientId, a] of qp.actors) {
          if (
            !a.getSnapshot().matches('draining') &&
            qp.index.queuedFor(recipientId) > 0 &&
            this.o.isOnline(recipientId)
          ) {
            a.send({ type: 'recipient.online' });
          }
        }
      }
    }, this.o.watchdogMs ?? 5000);
    this.watchdog.unref();
    this.backlogSub = this.o.bus.nc.subscribe(subjects.queueBacklog, {
      callback: (_err, msg) => {
        const b = decodeJson<{ recipientId: string; backlog: boolean }>(msg.data);
        if (b.backlog) this.backlog.add(b.recipientId);
        else this.backlog.delete(b.recipientId);
      },
    });
  }

  stop(): void {
    clearInterval(this.watchdog);
    this.backlogSub?.unsubscribe();
  }

  /** Has the recipient queued messages? New messages then queue behind them (FIFO). */
  hasBacklog(recipientId: string): boolean {
    return this.backlog.has(recipientId);
  }

  partitionOf(tenantId: string): number {
    return partitionOf(tenantId, this.o.partitions);
  }

  // ---- API for any node (routed to the queue's owner) -------------------------------------------

  enqueue(req: EnqueueRequest): Promise<EnqueueResult> {
    return this.call<EnqueueResult>(this.partitionOf(req.tenantId), { op: 'enqueue', req });
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
      const expired = qp.index.expired(this.now());
      const byRecipient = new Map<string, number>();
      for (let i = 0; i < expired.length; i += 64) {
        await Promise.all(
          expired.slice(i, i + 64).map(async (e) => {
            if (await this.expire(qp, e)) {
              removed++;
              byRecipient.set(e.recipientId, (byRecipient.get(e.recipientId) ?? 0) + 1);
            }
          })
        );
      }
      for (const [recipientId, count] of byRecipient) {
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
    index.rebuild(await this.replay(label));
    const rebuildMs = Math.round(performance.now() - started);
    const qp: QueuePartition = {
      partition,
      label,
      log,
      index,
      actors: new Map(),
      transports: new Map(),
      sub: undefined as never,
      live: true,
      rebuildMs,
      bodies: new Map(),
      bodyBytes: 0,
    };
    qp.sub = this.o.bus.nc.subscribe(subjects.partitionRequest(label, 'queue'), {
      callback: (_err, msg) => {
        void this.serve(partition, decodeJson<QueueRequest>(msg.data)).then((r) =>
          respondOwner(this.o.bus, msg, r)
        );
      },
    });
    this.parts.set(partition, qp);
    for (const recipientId of index.recipients()) {
      this.broadcast(recipientId, true);
      const transport = await this.need().transportOf(recipientId);
      if (!qp.live) return;
      this.actorFor(qp, recipientId, transport).send({ type: 'queue.resume' });
    }
  }

  deactivate(partition: number, _label: string, _reason: HandoverReason): Promise<void> {
    const qp = this.parts.get(partition);
    if (!qp) return Promise.resolve();
    this.parts.delete(partition);
    qp.live = false;
    qp.sub.unsubscribe();
    for (const [recipientId, a] of qp.actors) {
      a.stop();
      if (this.byRecipient.get(recipientId) === qp) this.byRecipient.delete(recipientId);
    }
    qp.actors.clear();
    return Promise.resolve();
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
          return this.inspectLocal(qp, req.recipientId) as R;
        default: {
          const never: never = req;
          throw new HubError('INVALID_REQUEST', `unknown queue op ${JSON.stringify(never)}`);
        }
      }
    }, this.o.log);
  }

  private async admitAndAppend(qp: QueuePartition, r: EnqueueRequest): Promise<EnqueueResult> {
    const admission = await this.admit(qp, r);
    if (admission.kind === 'duplicate') {
      return { taskId: admission.entry.taskId, duplicate: true };
    }
    let taskId = r.taskId;
    let task: unknown;
    try {
      const body = encodeJson({ message: r.message } satisfies QueuedBody);
      // Measured before the task exists: a message the log would refuse leaves nothing behind.
      const room = qp.log.maxPayloadBytes({
        headers: queueHeaders({ ...newEntry(r, taskId, this.now()) }),
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
        if (
          !created.created &&
          (task as { status?: { state?: string } } | undefined)?.status?.state !== 'submitted'
        ) {
          qp.index.release(r.key);
          return { taskId, task, duplicate: true };
        }
      }
      const entry = newEntry(r, taskId, this.now());
      if (!qp.live) throw new UnavailableError('queue partition moved');
      const seq = await qp.log.append(queueSubject(qp.label, entry), body, {
        headers: queueHeaders(entry),
      });
      if (qp.bodyBytes + body.byteLength <= BODY_CACHE_BYTES) {
        qp.bodies.set(seq, body);
        qp.bodyBytes += body.byteLength;
      }
      qp.index.add({ ...entry, seq });
    } catch (err) {
      qp.index.release(r.key);
      throw err;
    }
    if (!this.backlog.has(r.recipientId)) this.broadcast(r.recipientId, true);
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
    for (const e of removed) this.forget(qp, e.seq);
    await Promise.all(removed.map((e) => this.deleteFromLog(qp, e.seq)));
    if (removed.length > 0) {
      qp.actors.get(recipientId)?.send({ type: 'queue.purged', count: removed.length });
      this.settle(qp, recipientId);
    }
    return removed.length;
  }

  private inspectLocal(qp: QueuePartition, recipientId: string): QueueInspection {
    const a = qp.actors.get(recipientId)?.getSnapshot();
    const c = a?.context;
    const value = a ? (typeof a.value === 'string' ? a.value : Object.keys(a.value)[0]) : 'none';
    return {
      recipientId,
      pending: qp.index.pendingFor(recipientId),
      queued: qp.index.queuedFor(recipientId),
      oldestAgeMs: qp.index.oldestAge(recipientId, this.now()),
      state: value as QueueInspection['state'],
      online: c ? c.online : null,
      delivered: c?.delivered ?? 0,
      failed: c?.failed ?? 0,
      expired: c?.expired ?? 0,
      purged: c?.purged ?? 0,
      lastError: c?.lastError ?? null,
      head: qp.index
        .entriesOf(recipientId)
        .slice(0, 20)
        .map((e) => ({
          seq: e.seq,
          taskId: e.taskId,
          senderId: e.senderId,
          enqueuedAt: e.enqueuedAt,
          expiresAt: e.expiresAt,
        })),
    };
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
    const actor = createActor(this.machine, {
      input: { recipientId, transport: t, online },
      systemId: `queue:${recipientId}`,
    });
    qp.actors.set(recipientId, actor);
    qp.transports.set(recipientId, t);
    this.byRecipient.set(recipientId, qp);
    // An empty queue's idle actor leaves memory; the next enqueue starts a fresh one.
    actor.subscribe((s) => {
      if (s.value === 'idle' && qp.index.pendingFor(recipientId) === 0) {
        queueMicrotask(() => this.settle(qp, recipientId));
      }
    });
    actor.start();
    return actor;
  }

  /** Drops an empty recipient's idle actor and tells the cluster its backlog is gone. */
  private settle(qp: QueuePartition, recipientId: string): void {
    if (qp.index.pendingFor(recipientId) > 0) return;
    const a = qp.actors.get(recipientId);
    if (a && a.getSnapshot().value !== 'idle') return;
    if (a) {
      a.stop();
      qp.actors.delete(recipientId);
      qp.transports.delete(recipientId);
      if (this.byRecipient.get(recipientId) === qp) this.byRecipient.delete(recipientId);
    }
    if (this.backlog.has(recipientId)) this.broadcast(recipientId, false);
  }

  private broadcast(recipientId: string, backlog: boolean): void {
    if (backlog) this.backlog.add(recipientId);
    else this.backlog.delete(recipientId);
    this.o.bus.nc.publish(subjects.queueBacklog, encodeJson({ recipientId, backlog }));
  }

  /**
   * The queue actor's deliverHead, through a per-node bound on deliveries in flight: when many
   * recipients drain at once (a node restart, 1,000 agents reconnecting), unbounded concurrency
   * overloads the log until writes time out and partitions change hands; bounded, every queue
   * gets its fair share and the pacing stretches instead.
   */
  private async deliverHead(input: DeliverHeadInput): Promise<DeliverHeadOutput> {
    if (this.inFlight >= MAX_DELIVERIES_IN_FLIGHT) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.inFlight++;
    }
    try {
      return await this.deliverHeadNow(input);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    }
  }

  private async deliverHeadNow(input: DeliverHeadInput): Promise<DeliverHeadOutput> {
    const qp = this.byRecipient.get(input.recipientId);
    if (!qp?.live) return { outcome: 'empty' };
    let expired = 0;
    for (;;) {
      const head = qp.index.head(input.recipientId);
      if (!head) return { outcome: 'empty', expired };
      if (isExpired(head, this.now())) {
        if (await this.expire(qp, head)) expired++;
        continue;
      }
      if (input.transport === 'websocket' && !this.o.isOnline(input.recipientId)) {
        return { outcome: 'offline', expired };
      }
      const started = this.now();
      const body = await this.readBody(qp, head.seq);
      const outcome = body ? await this.need().deliverQueued(head, body.message) : 'gone';
      if (outcome === 'busy' || outcome === 'offline') {
        // A socket that vanished while presence still names one (being replaced, or presence
        // lagging) is retried like a busy one: no presence change may come to wake the queue.
        const stillThere =
          outcome === 'offline' &&
          input.transport === 'websocket' &&
          this.o.isOnline(input.recipientId);
        return { outcome: stillThere ? 'busy' : outcome, reason: `recipient ${outcome}`, expired };
      }
      // Delivered (or no longer wanted): it leaves the index now and the log once deleted. A crash
      // in between delivers it again after the restart, with the same messageId.
      this.forget(qp, head.seq);
      this.acknowledge(qp, head);
      if (outcome === 'delivered') {
        return { outcome: 'delivered', seq: head.seq, expired, tookMs: this.now() - started };
      }
    }
  }

  /** Removes an expired message and fails its task; false when it was already gone. */
  private async expire(qp: QueuePartition, e: QueueEntry): Promise<boolean> {
    if (!qp.index.get(e.seq)) return false;
    this.forget(qp, e.seq);
    await this.deleteFromLog(qp, e.seq);
    await this.need()
      .expired(e)
      .catch((err: unknown) =>
        this.o.log.warn({ err, taskId: e.taskId }, 'failing an expired task failed')
      );
    return true;
  }

  private async readBody(qp: QueuePartition, seq: number): Promise<QueuedBody | undefined> {
    const cached = qp.bodies.get(seq);
    if (cached) return decodeJson<QueuedBody>(cached);
    try {
      const m = await this.o.bus.jsm.streams.getMessage(qp.log.stream, { seq });
      return m ? m.json<QueuedBody>() : undefined;
    } catch (err) {
      if (isNoMessage(err)) return undefined;
      throw err;
    }
  }

  private forget(qp: QueuePartition, seq: number): void {
    qp.index.remove(seq);
    const b = qp.bodies.get(seq);
    if (b) {
      qp.bodies.delete(seq);
      qp.bodyBytes -= b.byteLength;
    }
  }

  /**
   * A delivered head leaves the log by a delete of its own sequence, not awaited by the drain. A
   * crash before the delete lands delivers it again after the restart (same messageId): the
   * window between delivery and acknowledgement. Not a filtered purge: nats-server before 2.9.18
   * replays a filtered purge on a recovering replica as a purge of the whole stream up to that
   * point (nats-io/nats-server#4196), so a NATS server restart could wipe other queues.
   */
  private acknowledge(qp: QueuePartition, e: QueueEntry): void {
    void this.deleteFromLog(qp, e.seq);
  }

  private async deleteFromLog(qp: QueuePartition, seq: number): Promise<void> {
    try {
      await qp.log.delete(seq);
    } catch (err) {
      if (isNoMessage(err)) return;
      // Left in the log, it comes back on the next takeover and is delivered again (same messageId).
      this.o.log.warn({ err, seq, partition: qp.label }, 'queued message not deleted');
    }
  }

  /** Every queued message's headers, read with an ordered headers-only consumer. */
  private async replay(label: string): Promise<QueueEntry[]> {
    const stream = streams.partition(label);
    const filter = subjects.queuedAll(label);
    const info = await this.o.bus.jsm.streams.info(stream, { subjects_filter: filter });
    const count = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
    if (count === 0) return [];
    const oc = await this.o.bus.js.consumers.get(stream, {
      filter_subjects: filter,
      deliver_policy: DeliverPolicy.All,
      headers_only: true,
    });
    const iter = await oc.consume({ max_messages: Math.min(count, 10_000) });
    const guard = idleGuard(iter, REPLAY_IDLE_MS, `queue replay of partition ${label}`);
    const out: QueueEntry[] = [];
    let seen = 0;
    for await (const m of iter) {
      guard.tick();
      seen++;
      const e = entryOf(m.subject, m.seq, m.headers);
      if (e) out.push(e);
      else
        this.o.log.warn(
          { subject: m.subject, seq: m.seq },
          'unreadable queue record left in place'
        );
      if (seen >= count || m.info.pending === 0) break;
    }
    iter.stop();
    guard.end();
    return out;
  }

  private collectMetrics(): void {
    const m = this.o.metrics;
    if (!m) return;
    m.queuePending.reset();
    m.queueTenantPending.reset();
    if (!m.perAgent) return this.collectTotals(m);
    for (const qp of this.parts.values()) {
      for (const r of qp.index.recipients())
        m.queuePending.set({ recipient: r }, qp.index.queuedFor(r));
      for (const [t, n] of qp.index.tenantCounts()) m.queueTenantPending.set({ tenant: t }, n);
    }
  }

  /** Without ids: all queued messages, and the fullest tenant's count (the one nearest its cap). */
  private collectTotals(m: HubMetrics): void {
    let pending = 0;
    let fullest = 0;
    for (const qp of this.parts.values()) {
      for (const r of qp.index.recipients()) pending += qp.index.queuedFor(r);
      for (const [, n] of qp.index.tenantCounts()) fullest = Math.max(fullest, n);
    }
    m.queuePending.set(pending);
    m.queueTenantPending.set(fullest);
  }

  private need(): QueueDelegate {
    if (!this.delegate) throw new HubError('INTERNAL', 'queue service used before connect()');
    return this.delegate;
  }

  /** For /debug/cluster. */
  localSummary(): Array<{
    partition: string;
    queued: number;
    recipients: number;
    rebuildMs: number;
  }> {
    return [...this.parts.values()].map((qp) => ({
      partition: partitionLabel(qp.partition, this.o.partitions),
      queued: qp.index.size,
      recipients: qp.actors.size,
      rebuildMs: qp.rebuildMs,
    }));
  }
}
