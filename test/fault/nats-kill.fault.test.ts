// Fault (b): kill -9 of the NATS server that is JetStream meta leader, under steady load from 200 WebSocket agents, then its
// restart. The hubs reconnect to the other two servers, the R3 streams elect new leaders where
// needed, and every acknowledged message still reaches its recipient once per task, in order per
// sender, with its task terminal.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultCluster, type FaultCluster } from './support/fault-cluster.js';
import { expectNoLossNoDuplicates, runLoadScenario } from './support/load-scenario.js';

let cluster: FaultCluster;

beforeAll(async () => {
  cluster = await startFaultCluster('natskill', { hubs: 2 });
  await cluster.waitOwnership();
});

afterAll(async () => {
  await cluster?.close();
});

describe('kill -9 of a NATS server under load, then its restart', () => {
  it('loses no acknowledged message, creates no duplicate task, keeps FIFO, leaves no task open', async () => {
    const r = await runLoadScenario('nats-kill', cluster, async () => {
      // The JetStream meta leader: the harshest choice (a new meta leader and new stream
      // leaders are elected, and the hubs connected to it reconnect).
      const leaderBefore = await cluster.nats.metaLeader(0);
      const victim =
        cluster.nats.nodes.find((n) => n.name === leaderBefore) ?? cluster.nats.nodes[0]!;
      const killedAt = Date.now();
      await victim.kill();
      await new Promise((r) => setTimeout(r, 15_000));
      await victim.restart();
      return {
        killed: victim.name,
        metaLeaderBefore: leaderBefore,
        metaLeaderAfter: await cluster.nats.metaLeader(0),
        downMs: Date.now() - killedAt,
      };
    });
    expectNoLossNoDuplicates(r, 2000);
  });
});
