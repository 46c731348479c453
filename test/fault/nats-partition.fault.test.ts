// Does nats-server 2.9.10 itself lose or hide acknowledged writes when one server of three is cut
// from the other two (the partition test's 'nats-from-nats' cut), with no hub involved? The 3
// servers run in network namespaces exactly as in the partition test (support/netns-cluster.ts);
// three R3 streams with the hub's partition-log settings (runtime/bus/streams.ts) take steady
// pipelined publishes with Nats-Msg-Id from one client on each server (queue- and snapshot-shaped
// subjects; a failed publish is retried under the same id for up to 60 s, as a hub's is), and a
// quarter of the acknowledged messages are deleted by sequence, as the hub removes delivered
// messages and superseded snapshots on R3 2.9.10 (its purge to a sequence is off there). Each
// round cuts one server from the other two for 5–15 s under that load, then heals, and at once
// replays every stream the hub's way (an ordered headers-only consumer read until it says nothing
// is pending: actors/queue/queue-partition.ts replayQueues) from a client on each server, timing
// how long until a replay reads every message acknowledged before it started. At the end, once
// the servers agree, each stream is read in full from each server and compared with what was
// acknowledged and deleted and with the leader's stream state.
// Finding (docs/OPERATIONS.md "Partitions and pauses", "nats-server 2.9.10 under a NATS cut"): it
// does lose them. Replays right after a heal read less than was acknowledged; after the servers
// agree, replicas hold other messages at the acknowledged sequences (shifted by one or more), and
// even the leader's copy lacks acknowledged messages. All three checks are known failures: printed
// always, failed on only with BURROW_FAULT_STRICT=1; without it the test fails only if a cut or a
// heal does not take or the load stalls.
// The seed is printed; BURROW_FAULT_SEED replays the schedule (not the load's timing, so not the
// same violations), BURROW_FAULT_ROUNDS sets the cuts.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { idleGuard } from '../../runtime/bus/idle-guard.js';
import { partitionStream } from '../../runtime/bus/streams.js';
import { partitionLabel, subjects } from '../../runtime/bus/subjects.js';
import { removeDir, trackDir } from '../support/cleanup.js';
import { getJson, type NatsProcess } from '../support/nats-process.js';
import { createNetLab, type NetLab } from './support/netns.js';
import {
  NATS_NODES,
  natsClientUrl,
  natsMonitorUrl,
  portFor,
  startNatsServers,
} from './support/netns-cluster.js';
import { faultSchedule } from './support/schedule.js';

const schedule = faultSchedule(2);
const STREAMS = 3;
const LABELS = Array.from({ length: STREAMS }, (_, p) => partitionLabel(p, STREAMS));
const TOPOLOGY = { partitions: STREAMS, replicas: 3, nodeTtlMs: 15_000 };
/** Each writer publishes one message to every stream per tick (about 3 × 25/s per writer). */
const TICK_MS = 40;
const MAX_IN_FLIGHT = 200;
const DELETE_SHARE = 0.25;
/** A failed publish is retried under its id this long (well inside the 2 min duplicate window). */
const RETRY_FOR_MS = 60_000;
/** A replay that receives nothing for this long stops (the hub's REPLAY_IDLE_MS). */
const REPLAY_IDLE_MS = 10_000;
const PAD = 'x'.repeat(64);
/**
 * A replay attempt still unanswered after this long is given up (its consumer left behind): an
 * ordered consumer's consume() or iteration can hang right after a heal, idle guard or not.
 */
const ATTEMPT_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** `p`, or a rejection once `ms` have passed without it settling. */
function withinMs<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} unanswered after ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Client {
  /** The NATS node this client is connected to (and only to). */
  node: string;
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

/** One message the load tried to store. */
interface Rec {
  id: string;
  label: string;
  subject: string;
  writer: string;
  firstAt: number;
  failures: number;
  lastError?: string;
  ack?: { seq: number; at: number; duplicate: boolean };
  /** 'acked': the server acknowledged the delete; 'unknown': the delete failed (fate unknown). */
  deleted?: 'acked' | 'unknown';
}

/**
 * What a run checks: `replay`, a replay right after a heal reads every message acknowledged before
 * it; `replica`, once the servers agree, a full read through a consumer from each server matches
 * what was acknowledged and deleted; `leader`, the leader's copy does.
 */
const CHECKS = ['replay', 'replica', 'leader'] as const;
type Check = (typeof CHECKS)[number];
interface Violation {
  check: Check;
  text: string;
}
/**
 * What nats-server 2.9.10 breaks under this cut, all three (docs/OPERATIONS.md "Partitions and
 * pauses", "nats-server 2.9.10 under a NATS cut"): printed always, failed on only with
 * BURROW_FAULT_STRICT=1. Without it the test still fails if a cut or a heal does not take, or the
 * load stalls.
 */
const KNOWN_NATS_FAILURES: readonly Check[] = CHECKS;

let lab: NetLab;
let dir: string;
const nats = new Map<string, NatsProcess>();
const clients: Client[] = [];

beforeAll(async () => {
  lab = createNetLab(NATS_NODES);
  dir = mkdtempSync(join(tmpdir(), 'burrow-natsproto-'));
  trackDir(dir);
  await startNatsServers(lab, dir, nats);
  for (const node of NATS_NODES) {
    // One server each, never another: a cut between servers leaves client links up, so each
    // client keeps writing to (and reading from) its own side.
    const nc = await connect({
      servers: natsClientUrl(lab, node),
      ignoreClusterUpdates: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      name: `natsproto-${node}`,
    });
    clients.push({ node, nc, js: jetstream(nc), jsm: await jetstreamManager(nc) });
  }
  for (const label of LABELS) await clients[0]!.jsm.streams.add(partitionStream(label, TOPOLOGY));
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.nc.close().catch(() => undefined)));
  await Promise.all([...nats.values()].map((p) => p.stop()));
  lab?.close();
  if (dir) removeDir(dir);
});

/** Steady pipelined load from every client, with retries under the same id and deletes. */
class Load {
  readonly recs = new Map<string, Rec>();
  private running = true;
  private readonly inFlight = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private n = 0;

  start(): void {
    for (const c of clients) {
      this.inFlight.set(c.node, 0);
      this.timers.push(setInterval(() => this.tick(c), TICK_MS));
    }
  }

  private tick(c: Client): void {
    if (!this.running) return;
    for (const label of LABELS) {
      if (this.inFlight.get(c.node)! >= MAX_IN_FLIGHT) return;
      const n = this.n++;
      const id = `${c.node}-${n}`;
      // Queue-shaped subjects (several per recipient) and snapshot-shaped ones (one per actor).
      const subject =
        n % 2 === 0
          ? subjects.queuedMessage(label, 't0', `r${n % 7}`, c.node)
          : subjects.actorSnapshot(label, 'task', `a${n % 97}`);
      const rec: Rec = { id, label, subject, writer: c.node, firstAt: Date.now(), failures: 0 };
      this.recs.set(id, rec);
      this.publish(c, rec);
    }
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private publish(c: Client, rec: Rec): void {
    this.inFlight.set(c.node, this.inFlight.get(c.node)! + 1);
    this.track(
      (async () => {
        try {
          const a = await c.js.publish(rec.subject, payloadOf(rec.id), {
            msgID: rec.id,
            timeout: 2_000,
          });
          rec.ack = { seq: a.seq, at: Date.now(), duplicate: a.duplicate };
          if (Math.random() < DELETE_SHARE) this.deleteLater(c, rec);
        } catch (err) {
          rec.failures++;
          rec.lastError = (err as Error).message;
          if (Date.now() - rec.firstAt < RETRY_FOR_MS) {
            await sleep(1_000);
            this.inFlight.set(c.node, this.inFlight.get(c.node)! - 1);
            this.publish(c, rec);
            return;
          }
        }
        this.inFlight.set(c.node, this.inFlight.get(c.node)! - 1);
      })()
    );
  }

  private deleteLater(c: Client, rec: Rec): void {
    this.track(
      (async () => {
        await sleep(300);
        try {
          await c.jsm.streams.deleteMessage(streamOf(rec.label), rec.ack!.seq, false);
          rec.deleted = 'acked';
        } catch {
          rec.deleted = 'unknown';
        }
      })()
    );
  }

  acked(): number {
    let n = 0;
    for (const r of this.recs.values()) if (r.ack) n++;
    return n;
  }

  /** Stops new messages; retries and deletes in progress finish. */
  async stop(): Promise<void> {
    this.running = false;
    for (const t of this.timers) clearInterval(t);
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}

const streamOf = (label: string) => partitionStream(label, TOPOLOGY).name;
const payloadOf = (id: string) => new TextEncoder().encode(JSON.stringify({ id, pad: PAD }));

interface ReplayResult {
  /** The server holding the replay's consumer (its placement is the meta leader's choice). */
  consumerOn: string;
  seen: number;
  /** Acknowledged before the replay started, no delete tried, and not read by it. */
  missing: Rec[];
  /** Stopped because nothing arrived for REPLAY_IDLE_MS. */
  idle: boolean;
}

/**
 * The hub's replay (replayQueues): an ordered headers-only consumer from the stream's start, read
 * until it says nothing is pending; judged against what was acknowledged before it started.
 */
async function replay(c: Client, label: string, load: Load): Promise<ReplayResult> {
  const stream = streamOf(label);
  const expected = [...load.recs.values()].filter(
    (r) => r.label === label && r.ack !== undefined && r.deleted === undefined
  );
  const count = (await c.jsm.streams.info(stream)).state.messages;
  const oc = await c.js.consumers.get(stream, {
    filter_subjects: subjects.partitionAll(label),
    deliver_policy: DeliverPolicy.All,
    headers_only: true,
  });
  const iter = await oc.consume({ max_messages: Math.max(1, Math.min(count, 10_000)) });
  // The hub's own guard: a replay that hears nothing for REPLAY_IDLE_MS stops, marked idle.
  const guard = idleGuard(iter, REPLAY_IDLE_MS, `replay of ${stream}`);
  const seenIds = new Set<string>();
  let seen = 0;
  let consumerOn = '?';
  for await (const m of iter) {
    guard.tick();
    if (seen === 0) consumerOn = (await oc.info(true)).cluster?.leader ?? '?';
    seen++;
    const id = m.headers?.get('Nats-Msg-Id');
    if (id) seenIds.add(id);
    // The server's word only: the hub also stops at the leader's count, which deletes made
    // meanwhile would make this stop short of messages the leader holds.
    if (m.info.pending === 0) break;
  }
  iter.stop();
  let idle = false;
  try {
    guard.end();
  } catch {
    idle = true;
  }
  const missing = expected.filter((r) => !seenIds.has(r.id) && r.deleted === undefined);
  return { consumerOn, seen, missing, idle };
}

/** Replays `label` from `c` until one reads everything acknowledged before it (or `ms` pass). */
async function replayUntilComplete(c: Client, label: string, load: Load, ms: number) {
  const start = Date.now();
  let first: ReplayResult | undefined;
  let attempts = 0;
  let lastError: string | undefined;
  let hung = 0;
  while (Date.now() - start < ms) {
    attempts++;
    try {
      const r = await withinMs(replay(c, label, load), ATTEMPT_MS, 'replay attempt');
      first ??= r;
      if (r.missing.length === 0)
        return { first, attempts, hung, completeAfterMs: Date.now() - start, lastError };
    } catch (err) {
      lastError = (err as Error).message;
      if (lastError.includes('unanswered')) hung++;
    }
    await sleep(250);
  }
  return { first, attempts, hung, completeAfterMs: undefined, lastError };
}

interface JszStream {
  name: string;
  cluster?: { leader?: string };
  state: { messages: number; first_seq: number; last_seq: number; num_deleted?: number };
}

/** Each server's own view of each stream (its local store), from its monitoring port. */
async function localStates(): Promise<Record<string, Record<string, JszStream['state']>>> {
  const out: Record<string, Record<string, JszStream['state']>> = {};
  for (const n of NATS_NODES) {
    const jsz = (await getJson(`${natsMonitorUrl(lab, n)}/jsz?accounts=true&streams=true`)) as {
      account_details?: Array<{ stream_detail?: JszStream[] }>;
    };
    out[n] = {};
    for (const a of jsz.account_details ?? [])
      for (const s of a.stream_detail ?? []) out[n][s.name] = s.state;
  }
  return out;
}

const stateKey = (s: JszStream['state'] | undefined) =>
  s ? `${s.messages}/${s.first_seq}/${s.last_seq}/${s.num_deleted ?? 0}` : 'none';

/** A full read of `label` through a consumer created from `c`, with payloads. */
async function fullRead(c: Client, label: string) {
  const stream = streamOf(label);
  const info = await c.jsm.streams.info(stream);
  const oc = await c.js.consumers.get(stream, {
    filter_subjects: subjects.partitionAll(label),
    deliver_policy: DeliverPolicy.All,
  });
  const read = new Map<number, { id: string | undefined; data: string }>();
  let consumerOn = '?';
  if (info.state.messages > 0) {
    const iter = await oc.consume({ max_messages: 5_000, expires: 2_000 });
    const timer = setTimeout(() => iter.stop(), 30_000);
    for await (const m of iter) {
      if (read.size === 0) consumerOn = (await oc.info(true)).cluster?.leader ?? '?';
      read.set(m.seq, { id: m.headers?.get('Nats-Msg-Id'), data: m.string() });
      if (m.info.pending === 0) break;
    }
    clearTimeout(timer);
    iter.stop();
  }
  return { state: info.state, leader: info.cluster?.leader, consumerOn, read };
}

describe('nats-server 2.9.10 alone: one server cut from the other two, under load', () => {
  it(
    'keeps every acknowledged write, once, readable from every server after the heal',
    async () => {
      log(
        `[fault:nats-partition] seed ${schedule.seed}, ${schedule.rounds} cut(s) (BURROW_FAULT_SEED replays)`
      );
      const load = new Load();
      load.start();
      const violations: Violation[] = [];
      const rounds: Array<Record<string, unknown>> = [];
      try {
        await sleep(3_000);
        for (let round = 0; round < schedule.rounds; round++) {
          const victim = schedule.pick(NATS_NODES);
          const holdMs = schedule.int(5_000, 15_000);
          const cuts = NATS_NODES.filter((n) => n !== victim).map((n): [string, string] => [
            victim,
            n,
          ]);
          const leadersBefore = await leaders();
          const ackedBefore = load.acked();
          const cutAt = Date.now();
          for (const [a, b] of cuts) lab.partition(a, b);
          for (const [a, b] of cuts) {
            expect(lab.connects(a, b, portFor(a, b)), `${a} → ${b} cut`).toBe(false);
            expect(lab.connects(b, a, portFor(b, a)), `${b} → ${a} cut`).toBe(false);
          }
          await sleep(holdMs);
          const ackedWhileCut = load.acked() - ackedBefore;
          for (const [a, b] of cuts) lab.heal(a, b);
          const healedAt = Date.now();
          for (const [a, b] of cuts) {
            expect(lab.connects(a, b, portFor(a, b)), `${a} → ${b} healed`).toBe(true);
            expect(lab.connects(b, a, portFor(b, a)), `${b} → ${a} healed`).toBe(true);
          }
          // The hub's replay right after the heal, from a client on each server.
          const replays = await Promise.all(
            clients.flatMap((c) =>
              LABELS.map(async (label) => {
                const r = await replayUntilComplete(c, label, load, 60_000);
                const f = r.first;
                const short = f && f.missing.length > 0;
                if (short || r.hung > 0 || r.completeAfterMs === undefined) {
                  violations.push({
                    check: 'replay',
                    text:
                      `round ${round} (${victim} cut ${holdMs} ms): replay of ${streamOf(label)} from ${c.node}, ` +
                      `consumer on ${f?.consumerOn}: read ${f?.seen}, missing ${f?.missing.length} acknowledged ` +
                      `(seqs ${f?.missing
                        .slice(0, 5)
                        .map((m) => m.ack!.seq)
                        .join(',')}), idle ${f?.idle}; complete after ` +
                      `${r.completeAfterMs ?? 'never'} ms, ${r.attempts} attempt(s), ${r.hung} hung` +
                      (r.lastError ? `, last error ${r.lastError}` : ''),
                  });
                }
                return {
                  from: c.node,
                  stream: streamOf(label),
                  on: f?.consumerOn,
                  missing: f?.missing.length,
                  completeMs: r.completeAfterMs,
                };
              })
            )
          );
          const r = {
            round,
            victim,
            heldMs: healedAt - cutAt,
            ackedWhileCut,
            leadersBefore,
            leadersAfter: await leaders(),
            replaysShort: replays.filter((x) => (x.missing ?? 0) > 0),
            slowestReplayMs: Math.max(...replays.map((x) => x.completeMs ?? Infinity)),
          };
          rounds.push(r);
          log(`[fault:nats-partition] ${JSON.stringify(r)}`);
          await sleep(2_000);
        }
      } finally {
        await load.stop();
        for (const c of lab.cuts()) {
          const [a, b] = c.split('|') as [string, string];
          lab.heal(a, b);
        }
      }

      // The servers agree on every stream's state (from each one's own store).
      const settleStart = Date.now();
      let states = await localStates();
      const agree = () =>
        LABELS.every((l) => {
          const keys = NATS_NODES.map((n) => stateKey(states[n]![streamOf(l)]));
          return keys.every((k) => k === keys[0]);
        });
      while (!agree() && Date.now() - settleStart < 60_000) {
        await sleep(500);
        states = await localStates();
      }
      const settledMs = Date.now() - settleStart;
      if (!agree())
        violations.push({
          check: 'replica',
          text: `servers' own stream states still differ after 60 s: ${JSON.stringify(states)}`,
        });

      const recs = [...load.recs.values()];
      // The leader's copy (STREAM.MSG.GET is answered by the stream's leader): every
      // acknowledged message at its acknowledged sequence, no acknowledged delete undone.
      violations.push(...(await leaderViolations(recs)));
      // Every stream read in full through a consumer created from each server.
      for (const label of LABELS)
        for (const c of clients) violations.push(...(await replicaViolations(c, label, recs)));

      const acked = recs.filter((r) => r.ack);
      const byCheck = (c: Check) => violations.filter((v) => v.check === c);
      const summary = {
        seed: schedule.seed,
        cuts: rounds.length,
        attempted: recs.length,
        acknowledged: acked.length,
        acknowledgedAfterRetry: acked.filter((r) => r.failures > 0).length,
        duplicatesAcked: acked.filter((r) => r.ack!.duplicate).length,
        neverAcknowledged: recs.length - acked.length,
        deletesAcked: recs.filter((r) => r.deleted === 'acked').length,
        deletesUnknown: recs.filter((r) => r.deleted === 'unknown').length,
        settledMs,
        states: Object.fromEntries(
          LABELS.map((l) => [streamOf(l), stateKey(states.nats1?.[streamOf(l)])])
        ),
        violations: Object.fromEntries(CHECKS.map((c) => [c, byCheck(c).length])),
      };
      log(`[fault:nats-partition] ${JSON.stringify(summary)}`);
      keepNatsLogs();
      // The smallest evidence: the first few of each check.
      for (const c of CHECKS)
        for (const v of byCheck(c).slice(0, 8))
          log(
            `[fault:nats-partition] ${KNOWN_NATS_FAILURES.includes(c) && !schedule.strict ? 'known failure' : 'violation'} ${c}: ${v.text}`
          );
      expect(acked.length).toBeGreaterThan(1_000);
      expect(rounds).toHaveLength(schedule.rounds);
      const judged = violations.filter(
        (v) => schedule.strict || !KNOWN_NATS_FAILURES.includes(v.check)
      );
      expect(judged.map((v) => `${v.check}: ${v.text}`).slice(0, 20)).toEqual([]);
    },
    120_000 + schedule.rounds * 120_000
  );
});

/** Each stream's leader, as the first client's stream info reports it. */
async function leaders(): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  for (const l of LABELS) {
    const info = await clients[0]!.jsm.streams.info(streamOf(l)).catch(() => undefined);
    out[streamOf(l)] = info?.cluster?.leader;
  }
  return out;
}

/** The leader's copy against what was acknowledged: read by sequence, 50 requests at a time. */
async function leaderViolations(recs: readonly Rec[]): Promise<Violation[]> {
  const out: Violation[] = [];
  const jsm = clients[0]!.jsm;
  const todo = recs.filter((r) => r.ack && r.deleted !== 'unknown');
  for (let i = 0; i < todo.length; i += 50) {
    await Promise.all(
      todo.slice(i, i + 50).map(async (r) => {
        const where = `${streamOf(r.label)} leader, seq ${r.ack!.seq}`;
        const m = await jsm.streams.getMessage(streamOf(r.label), { seq: r.ack!.seq });
        const id = m?.header?.get('Nats-Msg-Id');
        if (r.deleted === 'acked') {
          if (m) out.push({ check: 'leader', text: `${where}: deleted ${r.id} holds ${id}` });
        } else if (!m || id !== r.id || m.string() !== JSON.stringify({ id: r.id, pad: PAD })) {
          out.push({
            check: 'leader',
            text: `${where}: acknowledged ${r.id} (${r.failures} failed tries first), holds ${m ? id : 'nothing'}`,
          });
        }
      })
    );
  }
  return out;
}

/**
 * A full read of `label` through a consumer created from `c` (placed by the meta leader; the
 * server it landed on is named) against what was acknowledged and deleted, and against the
 * leader's stream state.
 */
async function replicaViolations(c: Client, label: string, recs: readonly Rec[]) {
  const out: Violation[] = [];
  /**
   * Acknowledged and not deleted but absent (lost) or at another sequence (moved); acknowledged
   * deletes undone; messages stored twice.
   */
  const tally = { lost: 0, moved: 0, undeleted: 0, stored2: 0 };
  const stream = streamOf(label);
  const { state, leader, consumerOn, read } = await withinMs(
    fullRead(c, label),
    60_000,
    `full read of ${stream} from ${c.node}`
  );
  const where = `${stream} read from ${c.node} (consumer on ${consumerOn}, leader ${leader})`;
  const seqsOf = new Map<string, number[]>();
  for (const [seq, m] of read) if (m.id) seqsOf.set(m.id, [...(seqsOf.get(m.id) ?? []), seq]);
  const add = (text: string) => out.push({ check: 'replica', text: `${where}: ${text}` });
  for (const r of recs) {
    if (r.label !== label) continue;
    const at = seqsOf.get(r.id) ?? [];
    if (r.ack && r.deleted === 'acked') {
      if (at.length) {
        tally.undeleted++;
        add(`deleted ${r.id} (seq ${r.ack.seq}) back at ${at.join(',')}`);
      }
    } else if (r.ack && r.deleted === undefined) {
      if (at.length !== 1 || at[0] !== r.ack.seq) {
        if (at.length === 0) tally.lost++;
        else if (at.length === 1) tally.moved++;
        else tally.stored2++;
        add(
          `acknowledged ${r.id} (seq ${r.ack.seq}, ${r.failures} failed tries first) found at [${at.join(',')}]` +
            (read.has(r.ack.seq) ? `; seq ${r.ack.seq} holds ${read.get(r.ack.seq)!.id}` : '')
        );
      } else if (read.get(r.ack.seq)!.data !== JSON.stringify({ id: r.id, pad: PAD }))
        add(`${r.id} at seq ${r.ack.seq} has another payload`);
    } else if (at.length > 1) {
      tally.stored2++;
      add(
        `${r.id} (${r.ack ? 'delete unknown' : 'never acknowledged'}) stored ${at.length} times: ${at.join(',')}`
      );
    }
  }
  const seqs = [...read.keys()].sort((a, b) => a - b);
  if (seqs.length !== state.messages)
    add(`read ${seqs.length}, leader's state says ${state.messages}`);
  if (seqs.length && (seqs[0] !== state.first_seq || seqs.at(-1)! > state.last_seq))
    add(
      `read seqs ${seqs[0]}..${seqs.at(-1)}, leader's state ${state.first_seq}..${state.last_seq}`
    );
  if (out.length)
    log(
      `[fault:nats-partition] ${where}: ${JSON.stringify({ read: seqs.length, leaderCounts: state.messages, ...tally })}`
    );
  return out;
}

/** The servers' logs beside the hubs' in $BURROW_TEST_LOG_DIR/nats-partition/, when that is set. */
function keepNatsLogs(): void {
  const logs = process.env.BURROW_TEST_LOG_DIR;
  if (!logs) return;
  const target = join(logs, 'nats-partition');
  mkdirSync(target, { recursive: true });
  for (const n of NATS_NODES) {
    try {
      copyFileSync(join(dir, `${n}.log`), join(target, `${n}.log`));
    } catch {
      // not written
    }
  }
}
