// In-memory index of one partition's queued messages (nats-2.9.md §3 "Design A"): the partition
// owner sees every queue of a tenant, so the three pending limits (interface-spec "Limits", Errors
// -32012..-32014) are exact checks here. Pure: no I/O, no clock; the caller passes `now`.
import { HubError } from '../../runtime/errors/index.js';

/** One queued message, as the partition log holds it. */
export interface QueueEntry {
  /**
   * Its FIFO position and identity: the stream sequence it was first stored at. A compaction may
   * store it again further on (QueueIndex.storedAt); the position stays.
   */
  readonly seq: number;
  /** The recipient's tenant (the one whose 10,000 limit applies). */
  readonly tenantId: string;
  readonly recipientId: string;
  readonly senderId: string;
  readonly taskId: string;
  /** Idempotency key `<senderId>:<messageId>` (decisions.md §7: 2-minute window). */
  readonly key: string;
  /** Epoch ms. */
  readonly enqueuedAt: number;
  /** Epoch ms; the entry is expired from this instant on and must never be delivered. */
  readonly expiresAt: number;
  /**
   * Epoch ms the hub accepted the message, on one queued after a delivery attempt (EnqueueRequest):
   * its place is before the same sender's entries accepted later. Others were queued as accepted.
   */
  readonly acceptedAt?: number;
}

/** What a replay reads from the log, in stream order (see queue-records.ts). */
export type QueueRecord =
  | { readonly kind: 'entry'; readonly entry: QueueEntry; readonly stored: number }
  | { readonly kind: 'done'; readonly positions: readonly number[] };

export interface AdmitRequest {
  readonly tenantId: string;
  readonly recipientId: string;
  readonly senderId: string;
  readonly key: string;
  /** Epoch ms, for the idempotency window. */
  readonly now: number;
}

export interface AdmitLimits {
  /** The recipient agent's `queue_max_pending` (default 500). */
  readonly recipientMaxPending: number;
  /** Pending per sender per recipient (spec: 50). */
  readonly senderMaxPending?: number;
  /** Pending per recipient tenant (spec: 10,000). */
  readonly tenantMaxPending?: number;
}

export const QUEUE_DEFAULTS = {
  recipientMaxPending: 500,
  senderMaxPending: 50,
  tenantMaxPending: 10_000,
  dedupeWindowMs: 120_000,
} as const;

/**
 * What admit() decided. `admitted`: one slot of each limit is held for the key until add() (the
 * durable write succeeded) or release() (it failed), so limits stay exact while writes are in
 * flight. `duplicate`: the key was enqueued within the window; answer with that entry's task.
 * `in-flight`: the same key is being written right now; the caller retries or awaits the first.
 */
export type Admission =
  | { readonly kind: 'admitted' }
  | { readonly kind: 'duplicate'; readonly entry: QueueEntry }
  | { readonly kind: 'in-flight' };

interface Node {
  readonly entry: QueueEntry;
  /** The stream sequence of its newest stored copy (where its body is read from). */
  stored: number;
  prev: Node | undefined;
  next: Node | undefined;
}

interface Fifo {
  head: Node | undefined;
  tail: Node | undefined;
  size: number;
}

interface Reservation {
  readonly tenantId: string;
  readonly recipientId: string;
  readonly senderId: string;
}

export interface QueueIndexOptions {
  /** How long an enqueued key answers as a duplicate (default 2 minutes). */
  readonly dedupeWindowMs?: number;
}

// NUL cannot occur in an agent id, so the pair key is unambiguous.
const pair = (senderId: string, recipientId: string): string => `${recipientId}\u0000${senderId}`;

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

/**
 * One partition's queued messages: per-recipient FIFOs plus the counters the limits need. Measured
 * with 100,000 entries: about 630 bytes each (400 of them the entry and its own id strings).
 */
export class QueueIndex {
  private readonly bySeq = new Map<number, Node>();
  private readonly fifos = new Map<string, Fifo>();
  private readonly byTask = new Map<string, number[]>();
  // Counters include reserved (in-flight) slots; see Admission.
  private readonly recipientPending = new Map<string, number>();
  private readonly senderPending = new Map<string, number>();
  private readonly tenantPending = new Map<string, number>();
  private readonly reservations = new Map<string, Reservation>();
  /** key → entry, kept for the window even after the entry left the queue (same task on retry). */
  private readonly keys = new Map<string, QueueEntry>();
  /** Keys in insertion (≈ time) order, so the window is pruned from the front. */
  private keyOrder: string[] = [];
  private keyHead = 0;
  private readonly windowMs: number;

  constructor(opts: QueueIndexOptions = {}) {
    this.windowMs = opts.dedupeWindowMs ?? QUEUE_DEFAULTS.dedupeWindowMs;
  }

  /** Queued entries (reservations not included). */
  get size(): number {
    return this.bySeq.size;
  }

  /**
   * Checks the limits in the spec's order (recipient, sender→recipient, tenant) and holds a slot
   * of each. Throws QUEUE_FULL, SENDER_THROTTLED or TENANT_QUEUE_FULL with `data` naming the limit,
   * its maximum and the current count. A key seen within the window is answered before the limits:
   * a retry must not be refused because of the slot its own first attempt holds.
   */
  admit(req: AdmitRequest, limits: AdmitLimits): Admission {
    this.pruneKeys(req.now);
    const seen = this.keys.get(req.key);
    if (seen !== undefined && req.now - seen.enqueuedAt < this.windowMs) {
      return { kind: 'duplicate', entry: seen };
    }
    if (this.reservations.has(req.key)) return { kind: 'in-flight' };

    const recipientMax = limits.recipientMaxPending;
    const recipient = this.recipientPending.get(req.recipientId) ?? 0;
    if (recipient >= recipientMax) {
      throw new HubError('QUEUE_FULL', undefined, {
        data: { limit: 'queue_max_pending', max: recipientMax, pending: recipient },
      });
    }
    const senderMax = limits.senderMaxPending ?? QUEUE_DEFAULTS.senderMaxPending;
    const sender = this.senderPending.get(pair(req.senderId, req.recipientId)) ?? 0;
    if (sender >= senderMax) {
      throw new HubError('SENDER_THROTTLED', undefined, {
        data: { limit: 'pending_per_sender_per_recipient', max: senderMax, pending: sender },
      });
    }
    const tenantMax = limits.tenantMaxPending ?? QUEUE_DEFAULTS.tenantMaxPending;
    const tenant = this.tenantPending.get(req.tenantId) ?? 0;
    if (tenant >= tenantMax) {
      throw new HubError('TENANT_QUEUE_FULL', undefined, {
        data: { limit: 'pending_per_tenant', max: tenantMax, pending: tenant },
      });
    }
    const r: Reservation = {
      tenantId: req.tenantId,
      recipientId: req.recipientId,
      senderId: req.senderId,
    };
    this.reservations.set(req.key, r);
    this.count(r, 1);
    return { kind: 'admitted' };
  }

  /** Gives back the slots admit() held for a key whose durable write failed. */
  release(key: string): void {
    const r = this.reservations.get(key);
    if (r === undefined) return;
    this.reservations.delete(key);
    this.count(r, -1);
  }

  /**
   * Adds an entry whose durable write succeeded, taking over its reservation if admit() made one
   * (otherwise, e.g. replaying the log, it is counted here). A known position is ignored.
   */
  add(entry: QueueEntry, stored: number = entry.seq): void {
    if (this.bySeq.has(entry.seq)) return;
    const r = this.reservations.get(entry.key);
    if (r !== undefined) {
      this.reservations.delete(entry.key);
      // The reservation's counters were bumped with its own ids; move them if the entry differs.
      this.count(r, -1);
    }
    this.count(entry, 1);
    const node: Node = { entry, stored, prev: undefined, next: undefined };
    this.bySeq.set(entry.seq, node);
    this.link(this.fifoOf(entry.recipientId), node);
    const seqs = this.byTask.get(entry.taskId);
    if (seqs === undefined) this.byTask.set(entry.taskId, [entry.seq]);
    else seqs.push(entry.seq);
    this.rememberKey(entry);
  }

  /** The oldest queued entry (lowest seq) of a recipient. */
  head(recipientId: string): QueueEntry | undefined {
    return this.fifos.get(recipientId)?.head?.entry;
  }

  get(seq: number): QueueEntry | undefined {
    return this.bySeq.get(seq)?.entry;
  }

  /** Where a queued entry's newest copy is stored; undefined when it is not queued. */
  storedAt(seq: number): number | undefined {
    return this.bySeq.get(seq)?.stored;
  }

  /** A queued entry was stored again at `stored` (a compaction relocated it). */
  relocated(seq: number, stored: number): void {
    const node = this.bySeq.get(seq);
    if (node !== undefined && stored > node.stored) node.stored = stored;
  }

  /** Queued entries whose newest copy is stored below `cut`, in position order (O(n)). */
  storedBelow(cut: number): QueueEntry[] {
    const out: QueueEntry[] = [];
    for (const node of this.bySeq.values()) if (node.stored < cut) out.push(node.entry);
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** Removes one entry (delivered, expired or purged); undefined when unknown. */
  remove(seq: number): QueueEntry | undefined {
    const node = this.bySeq.get(seq);
    if (node === undefined) return undefined;
    const { entry } = node;
    this.bySeq.delete(seq);
    const fifo = this.fifos.get(entry.recipientId);
    if (fifo !== undefined) {
      this.unlink(fifo, node);
      if (fifo.size === 0) this.fifos.delete(entry.recipientId);
    }
    const seqs = this.byTask.get(entry.taskId);
    if (seqs !== undefined) {
      const i = seqs.indexOf(seq);
      if (i >= 0) seqs.splice(i, 1);
      if (seqs.length === 0) this.byTask.delete(entry.taskId);
    }
    this.count(entry, -1);
    return entry;
  }

  /** Removes every queued entry of a task (CancelTask), oldest first. */
  /** Does the queue hold a message of this task? */
  holdsTask(taskId: string): boolean {
    return this.byTask.has(taskId);
  }

  purgeTask(taskId: string): QueueEntry[] {
    const seqs = this.byTask.get(taskId);
    if (seqs === undefined) return [];
    const out: QueueEntry[] = [];
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      const e = this.remove(seq);
      if (e !== undefined) out.push(e);
    }
    return out;
  }

  /**
   * Entries with expiresAt ≤ now, in seq order. A full scan: it serves the daily cleanup (about
   * 10 ms per 100,000 entries, measured); the drain checks only its head with isExpired().
   */
  expired(now: number): QueueEntry[] {
    const out: QueueEntry[] = [];
    for (const node of this.bySeq.values()) if (node.entry.expiresAt <= now) out.push(node.entry);
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** Queued plus in-flight messages for a recipient (what its limit counts). */
  pendingFor(recipientId: string): number {
    return this.recipientPending.get(recipientId) ?? 0;
  }

  pendingFromSender(senderId: string, recipientId: string): number {
    return this.senderPending.get(pair(senderId, recipientId)) ?? 0;
  }

  pendingForTenant(tenantId: string): number {
    return this.tenantPending.get(tenantId) ?? 0;
  }

  /** Queued entries of one recipient (without reservations). */
  queuedFor(recipientId: string): number {
    return this.fifos.get(recipientId)?.size ?? 0;
  }

  /** Age in ms of a recipient's oldest queued entry; 0 when its queue is empty. */
  oldestAge(recipientId: string, now: number): number {
    const head = this.head(recipientId);
    return head === undefined ? 0 : Math.max(0, now - head.enqueuedAt);
  }

  /** Recipients with at least one queued entry. */
  recipients(): string[] {
    return [...this.fifos.keys()];
  }

  /** Pending count per tenant (for /metrics). */
  tenantCounts(): Map<string, number> {
    return new Map(this.tenantPending);
  }

  /** A recipient's queued entries in FIFO order (for /debug and tests; O(n)). */
  entriesOf(recipientId: string): QueueEntry[] {
    const out: QueueEntry[] = [];
    for (let n = this.fifos.get(recipientId)?.head; n !== undefined; n = n.next) out.push(n.entry);
    return out;
  }

  /**
   * Replaces the whole index with the records of a log replay, in stream order. Copies of one
   * position are one entry, stored at the highest sequence. A done record removes the positions it
   * lists: every copy of a position is written before the done record that lists it (an entry
   * leaves the index before its position is recorded, and only queued entries are relocated), so
   * a position once done never comes back and needs no memory here.
   */
  rebuild(records: Iterable<QueueRecord>): void {
    const replay = new QueueReplay();
    for (const r of records) replay.apply(r);
    replay.into(this);
  }

  /** Empties the index (rebuild's first step). */
  clear(): void {
    this.bySeq.clear();
    this.fifos.clear();
    this.byTask.clear();
    this.recipientPending.clear();
    this.senderPending.clear();
    this.tenantPending.clear();
    this.reservations.clear();
    this.keys.clear();
    this.keyOrder = [];
    this.keyHead = 0;
  }

  private count(who: Reservation, by: 1 | -1): void {
    bump(this.recipientPending, who.recipientId, by);
    bump(this.senderPending, pair(who.senderId, who.recipientId), by);
    bump(this.tenantPending, who.tenantId, by);
  }

  private fifoOf(recipientId: string): Fifo {
    let fifo = this.fifos.get(recipientId);
    if (fifo === undefined) {
      fifo = { head: undefined, tail: undefined, size: 0 };
      this.fifos.set(recipientId, fifo);
    }
    return fifo;
  }

  /**
   * Appends in seq order. Sequences normally arrive rising (one writer); a late one walks back. An
   * entry queued after a delivery attempt (acceptedAt) goes before the same sender's entries that
   * were accepted after it: they were queued while it was being attempted, or while its partition
   * moved. Rare, so the walk back through the recipient's queue is affordable.
   */
  private link(fifo: Fifo, node: Node): void {
    let after = fifo.tail;
    while (after !== undefined && after.entry.seq > node.entry.seq) after = after.prev;
    const accepted = node.entry.acceptedAt;
    if (accepted !== undefined) {
      const sender = node.entry.senderId;
      for (let n = after; n !== undefined; n = n.prev) {
        if (n.entry.senderId !== sender) continue;
        if ((n.entry.acceptedAt ?? n.entry.enqueuedAt) <= accepted) break;
        after = n.prev;
      }
    }
    node.prev = after;
    node.next = after === undefined ? fifo.head : after.next;
    if (node.next !== undefined) node.next.prev = node;
    else fifo.tail = node;
    if (after !== undefined) after.next = node;
    else fifo.head = node;
    fifo.size++;
  }

  private unlink(fifo: Fifo, node: Node): void {
    if (node.prev !== undefined) node.prev.next = node.next;
    else fifo.head = node.next;
    if (node.next !== undefined) node.next.prev = node.prev;
    else fifo.tail = node.prev;
    node.prev = undefined;
    node.next = undefined;
    fifo.size--;
  }

  private rememberKey(entry: QueueEntry): void {
    if (!this.keys.has(entry.key)) this.keyOrder.push(entry.key);
    this.keys.set(entry.key, entry);
  }

  private pruneKeys(now: number): void {
    while (this.keyHead < this.keyOrder.length) {
      const key = this.keyOrder[this.keyHead] as string;
      const e = this.keys.get(key);
      if (e !== undefined && now - e.enqueuedAt < this.windowMs) break;
      this.keys.delete(key);
      this.keyHead++;
    }
    // Compact once the dead prefix dominates, so the array does not grow without bound.
    if (this.keyHead > 1024 && this.keyHead * 2 > this.keyOrder.length) {
      this.keyOrder = this.keyOrder.slice(this.keyHead);
      this.keyHead = 0;
    }
  }
}

/**
 * A log replay applied record by record, in stream order (QueueIndex.rebuild), so done records
 * need not be held: what stays in memory is only the messages still queued at that point.
 */
export class QueueReplay {
  private readonly live = new Map<number, { entry: QueueEntry; stored: number }>();
  /** Done records met (the compactor counts the latest one as live). */
  doneRecords = 0;

  apply(r: QueueRecord): void {
    if (r.kind === 'done') {
      this.doneRecords++;
      for (const p of r.positions) this.live.delete(p);
      return;
    }
    const known = this.live.get(r.entry.seq);
    if (known === undefined || r.stored > known.stored) {
      this.live.set(r.entry.seq, { entry: r.entry, stored: r.stored });
    }
  }

  /** Replaces the index's content with the queued entries, in position order. */
  into(index: QueueIndex): void {
    index.clear();
    const sorted = [...this.live.values()].sort((a, b) => a.entry.seq - b.entry.seq);
    this.live.clear();
    for (const { entry, stored } of sorted) index.add(entry, stored);
  }
}

/** True when the entry must no longer be delivered. */
export function isExpired(entry: QueueEntry, now: number): boolean {
  return entry.expiresAt <= now;
}
