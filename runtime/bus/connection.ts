// The NATS adapter: one connection, JetStream handles, and a publish that refuses options the
// 2.9.10 server silently ignores (per-message TTL, schedules) or gets wrong on replicated streams
// (expected-last-subject-sequence before 2.9.21; see shared/docs/nats-2.9.md §0).
import { connect } from '@nats-io/transport-node';
import { headers as natsHeaders, type NatsConnection, type MsgHdrs } from '@nats-io/nats-core';
import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { JetStreamPublisher, type PubAck } from './publisher.js';
import { Kvm } from '@nats-io/kv';
import type { Logger } from '../log/index.js';

export interface PublishOptions {
  /** Idempotency key (Nats-Msg-Id) within the stream's duplicate window. */
  msgID?: string;
  /** Stream-wide fencing: the write is refused unless the stream's last sequence is this. */
  expectLastSequence?: number;
  expectStream?: string;
  /** Only exact on R1 streams with this server; refused on replicated ones. */
  expectLastSubjectSequence?: number;
  /** Replace every earlier message on this subject (Nats-Rollup: sub). */
  rollup?: boolean;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface Bus {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly kvm: Kvm;
  readonly serverVersion: string;
  readonly replicas: number;
  /**
   * The max_payload of the server this connection talks to (from its INFO, so a reconnect to a
   * server configured differently is seen): no message, headers included, may be larger.
   */
  readonly maxPayload: number;
  publish(subject: string, data: Uint8Array, opts?: PublishOptions): Promise<PubAck>;
  /** True when a round trip to the server completes within timeoutMs. */
  ping(timeoutMs: number): Promise<boolean>;
  /** Called after every reconnect (streams may need provisioning again on a fresh server). */
  onReconnect(fn: () => void): void;
  /** Publishes awaiting their PubAck now, and a hook told each ack's latency (for /metrics). */
  readonly publishes: {
    readonly pendingAcks: number;
    onAcked(fn: (seconds: number) => void): void;
  };
  close(): Promise<void>;
}

export interface BusOptions {
  servers: readonly string[];
  name: string;
  replicas: number;
  log: Logger;
  /** Give up the first connect after this long (the hub exits with a clear message). */
  connectTimeoutMs?: number;
}

/** 2.9.21 fixed expected-last-subject-sequence on clustered streams (nats-server#4320). */
export function subjectCasIsSafe(version: string, replicas: number): boolean {
  if (replicas <= 1) return true;
  const [maj = 0, min = 0, patch = 0] = version.split('.').map((n) => parseInt(n, 10));
  return maj > 2 || (maj === 2 && (min > 9 || (min === 9 && patch >= 21)));
}

/**
 * Does the server flush JetStream writes to disk before acknowledging them when told to? Only 2.10
 * and later know `sync_interval: always`; before, a write is flushed within two minutes of its
 * acknowledgement, and a power loss of a majority of the servers in that time can lose it
 * (docs/OPERATIONS.md "Power loss").
 */
export function syncAlwaysSupported(version: string): boolean {
  const [maj = 0, min = 0] = version.split('.').map((n) => parseInt(n, 10));
  return maj > 2 || (maj === 2 && min >= 10);
}

/** nats-server's max_payload unless its configuration says otherwise. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

const FORBIDDEN_OPTIONS = ['ttl', 'schedule', 'markerTTL'] as const;

export async function connectBus(opts: BusOptions): Promise<Bus> {
  const nc = await connect({
    servers: [...opts.servers],
    name: opts.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 5_000,
    timeout: opts.connectTimeoutMs ?? 5_000,
    // Async traces capture a stack (an Error object) on every request and JetStream publish: a
    // quarter of the hub's CPU under load, measured. Our errors carry their own context.
    noAsyncTraces: true,
  });
  const js = jetstream(nc, { timeout: 5_000 });
  const jsm = await jetstreamManager(nc, { timeout: 5_000 });
  const kvm = new Kvm(js);
  const serverVersion = nc.info?.version ?? '0.0.0';
  const reconnectListeners: Array<() => void> = [];
  const publisher = new JetStreamPublisher(nc);

  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') opts.log.warn({ server: s.server }, 'nats disconnected');
      else if (s.type === 'reconnect') {
        opts.log.info({ server: s.server }, 'nats reconnected');
        for (const fn of reconnectListeners) fn();
      }
    }
  })();

  const publish = (subject: string, data: Uint8Array, p: PublishOptions = {}) => {
    for (const k of FORBIDDEN_OPTIONS) {
      if (k in p)
        throw new Error(`publish option "${k}" is ignored by nats-server ${serverVersion}`);
    }
    if (
      p.expectLastSubjectSequence !== undefined &&
      !subjectCasIsSafe(serverVersion, opts.replicas)
    ) {
      throw new Error(
        `expected-last-subject-sequence is not exact on replicated streams of nats-server ${serverVersion}`
      );
    }
    // Every option becomes a header on one plain publish; the publisher correlates the PubAck.
    let hdrs: MsgHdrs | undefined;
    const set = (k: string, v: string) => (hdrs ??= natsHeaders()).set(k, v);
    if (p.msgID !== undefined) set('Nats-Msg-Id', p.msgID);
    if (p.expectStream !== undefined) set('Nats-Expected-Stream', p.expectStream);
    if (p.expectLastSequence !== undefined) {
      set('Nats-Expected-Last-Sequence', String(p.expectLastSequence));
    }
    if (p.expectLastSubjectSequence !== undefined) {
      set('Nats-Expected-Last-Subject-Sequence', String(p.expectLastSubjectSequence));
    }
    if (p.rollup) set('Nats-Rollup', 'sub');
    if (p.headers) for (const [k, v] of Object.entries(p.headers)) set(k, v);
    return publisher.publish(subject, data, hdrs, p.timeoutMs ?? 5_000);
  };

  return {
    nc,
    js,
    jsm,
    kvm,
    serverVersion,
    replicas: opts.replicas,
    get maxPayload() {
      return nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
    },
    publish,
    async ping(timeoutMs) {
      if (nc.isClosed()) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          nc.rtt().then(() => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
        ]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    onReconnect(fn) {
      reconnectListeners.push(fn);
    },
    publishes: {
      get pendingAcks() {
        return publisher.pendingAcks;
      },
      onAcked(fn) {
        publisher.onAcked = fn;
      },
    },
    async close() {
      publisher.close();
      if (nc.isClosed()) return;
      await nc.drain().catch(() => nc.close());
    },
  };
}
