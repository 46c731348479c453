// Process pauses (issue 32 Must 2): SIGSTOP the hub node that owns busy partitions until its locks
// have expired and the other node has taken every partition over, then SIGCONT it. The stale owner
// wakes up believing it owns its partitions; the log's fencing must refuse its writes, it must give
// every one of them up, and across the run the history checker must find no acknowledged message
// lost, no message with two sets of ids, task states that only move forward, and no rate-limit
// window admitting more than its limit. FIFO per sender → recipient and "no task delivered twice"
// are known failures of pauses (docs/OPERATIONS.md "Partitions and pauses"), checked only in
// `npm run test:jepsen`.
// The recipients are WebSocket agents and HTTP agents served by the test process on the loopback.
// The schedule (which node, how long past the takeover) is random from a printed seed;
// BURROW_FAULT_SEED replays it and BURROW_FAULT_ROUNDS sets how many pauses (npm run test:jepsen).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_PARTITIONS, startFaultCluster, type FaultCluster } from './support/fault-cluster.js';
import {
  CHECKED_HUB_ENV,
  closeCheckedLoad,
  finishCheckedRun,
  secondsInto,
  startCheckedLoad,
} from './support/checked-run.js';
import { faultSchedule } from './support/schedule.js';
import { QUEUE_ADMIN_TOKEN, ownedPartitions, waitOwnership } from '../support/queue-helpers.js';
import type { HubProcess } from '../support/hub-process.js';

const schedule = faultSchedule(1);
let cluster: FaultCluster;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (line: string) => process.stdout.write(`${line}\n`);

beforeAll(async () => {
  cluster = await startFaultCluster('pause', { hubs: 2, env: CHECKED_HUB_ENV });
  await cluster.waitOwnership();
});

afterAll(async () => {
  // A failed round must not leave a stopped process behind: SIGCONT before close() kills it.
  for (const h of cluster?.hubs ?? []) signal(h, 'SIGCONT');
  await cluster?.close();
});

function signal(hub: HubProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(hub.pid, sig);
  } catch {
    // already gone
  }
}

/** Partitions a node gave up because its log was fenced or its lock was gone (its /metrics). */
async function staleGiveUps(hub: HubProcess): Promise<number> {
  const res = await fetch(`${hub.url}/metrics`, {
    headers: { authorization: `Bearer ${QUEUE_ADMIN_TOKEN}` },
    signal: AbortSignal.timeout(5_000),
  });
  let n = 0;
  for (const line of (await res.text()).split('\n')) {
    const m =
      /^burrow_partition_handovers_total\{[^}]*reason="(fenced|lock_lost)"[^}]*\} (\d+)/.exec(line);
    if (m) n += Number(m[2]);
  }
  return n;
}

describe('a hub node paused past its locks’ expiry', () => {
  it(
    'is fenced when it wakes; the checked history shows nothing lost, no ids mixed, no state going back, no rate window over',
    async () => {
      log(
        `[fault:pause] seed ${schedule.seed}, ${schedule.rounds} pause(s) (BURROW_FAULT_SEED replays)`
      );
      const paused = new Set<string>();
      const urls = () =>
        cluster
          .live()
          .map((h) => h.url)
          .filter((u) => !paused.has(u));
      // The hubs share the host: the HTTP agents listen on its loopback.
      const load = await startCheckedLoad(cluster.sql, urls, {
        httpHost: '127.0.0.1',
        warmupMs: 8_000,
      });
      const { fleet } = load;
      const rounds: Array<Record<string, unknown>> = [];
      try {
        for (let round = 0; round < schedule.rounds; round++) {
          const owned = await Promise.all(cluster.live().map((h) => ownedPartitions(h.url)));
          const owners = cluster.live().filter((_, i) => owned[i]!.length > 0);
          const victim = schedule.pick(owners);
          const survivor = cluster.live().find((h) => h !== victim)!;
          const victimOwned = owned[cluster.live().indexOf(victim)]!;
          const givenUpBefore = await staleGiveUps(victim);
          const acksBefore = fleet.acks.size;
          const stoppedAt = Date.now();
          // In-flight requests to the victim stay in its socket buffers and run when it wakes.
          signal(victim, 'SIGSTOP');
          paused.add(victim.url);
          await waitOwnership([survivor.url], FAULT_PARTITIONS, { eachOwnsOne: false, ms: 60_000 });
          const takeoverMs = Date.now() - stoppedAt;
          const extraMs = schedule.int(1_000, 6_000);
          await sleep(extraMs);
          signal(victim, 'SIGCONT');
          paused.delete(victim.url);
          const resumedAt = Date.now();
          // The woken node gives its stale partitions up, then takes its share back.
          await cluster.waitOwnership({ eachOwnsOne: true, ms: 90_000 });
          const givenUp = (await staleGiveUps(victim)) - givenUpBefore;
          const r = {
            round,
            paused: victim.nodeId,
            // On the printed history's clock, so a violation's times can be set against it.
            stoppedAtS: secondsInto(load, stoppedAt),
            itOwned: victimOwned.length,
            takeoverMs,
            pausedMs: resumedAt - stoppedAt,
            rebalancedMs: Date.now() - resumedAt,
            staleGiveUps: givenUp,
            acksWhilePaused: fleet.acks.size - acksBefore,
          };
          rounds.push(r);
          log(`[fault:pause] ${JSON.stringify(r)}`);
          // Every partition it owned was taken over: it must have found each one fenced or lost.
          expect(givenUp, 'partitions the woken node gave up as fenced or lock_lost').toBe(
            victimOwned.length
          );
          await sleep(5_000);
        }
        // Known failures (docs/OPERATIONS.md "Partitions and pauses"): the woken node still makes
        // the pushes its requesters gave up on and queued (a task delivered twice), and a message
        // can overtake an earlier one of the same sender. Printed always; failed on only with
        // BURROW_FAULT_STRICT=1 (npm run test:jepsen).
        await finishCheckedRun(load, {
          name: 'pause',
          sql: cluster.sql,
          urls,
          schedule,
          log,
          extra: () => ({
            // Second pushes of a message to the socket that had it, not written (frames.ts).
            duplicatePushesDropped: cluster.hubs.map(
              (h) => h.log().match(/second push of a message not written/g)?.length ?? 0
            ),
          }),
        });
      } finally {
        await closeCheckedLoad(load);
      }
      // nats-server 2.9 has no sync_interval: each hub said so once at start.
      for (const h of cluster.hubs)
        expect(h.log().match(/nats-server before 2\.10 flushes JetStream/g)).toHaveLength(1);
    },
    150_000 + schedule.rounds * 90_000
  );
});
